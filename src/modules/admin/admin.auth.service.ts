// Operator authentication: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time on
// SHA-256 digests (equal length whatever the input, so neither content nor length leaks). Failed
// attempts are counted per IP; once an IP has used up its budget every attempt from it is refused
// with 429 until the window ends, so a guess cannot be confirmed by a different status.

import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { setAuditActor } from '../../platform/audit/index.js';
import type { RateLimitStore } from '../../platform/ratelimit/limiter.js';

const BUCKET = 'admin-unauth';

function digest(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}

export function adminTokenMatches(expected: string, header: string | undefined): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  // Always compare (against an empty string when the header is malformed) to keep timing flat.
  const equal = crypto.timingSafeEqual(digest(match?.[1] ?? ''), digest(expected));
  return equal && match !== null;
}

/** The operator API's changes are the operator's (docs/audit.md, "Who"). */
const OPERATOR_API = { type: 'operator' as const, id: 'admin-api', email: null };

export function createAdminAuthenticator(deps: { adminToken: string; limiter: RateLimitStore; failedLimit: number }) {
  const { adminToken, limiter, failedLimit } = deps;
  const expectedDigestSource = adminToken;

  function tooMany(reply: FastifyReply, retryAfterSeconds: number) {
    return reply.status(429).header('Retry-After', String(retryAfterSeconds)).send({ error: 'Too many requests.' });
  }

  return async function authenticateAdmin(request: FastifyRequest, reply: FastifyReply) {
    const state = await limiter.peek(BUCKET, request.ip, failedLimit);
    if (!state.allowed) return tooMany(reply, state.retryAfterSeconds);
    if (adminTokenMatches(expectedDigestSource, request.headers.authorization)) {
      setAuditActor(request, OPERATOR_API);
      return;
    }
    const bucket = await limiter.take(BUCKET, request.ip, failedLimit);
    request.log.warn({ ip: request.ip }, 'operator API: authentication failed');
    if (!bucket.allowed) return tooMany(reply, bucket.retryAfterSeconds);
    return reply.status(401).send({ error: 'Unauthorized' });
  };
}
