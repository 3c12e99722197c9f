// Authentication for every named /api route (docs/reference.md, "Authentication and scopes" and
// "Rate limits"): token → caller, sliding expiry with lazy writes, rate limits, API access, scopes.
// Runs in onRequest, before body parsing. Token lookups are cached up to a minute and dropped when
// the authentication generation moves (docs/decisions.md, "Authentication cache: up to 60 s,
// revocation within 1 s"); last uses are written by last-use.ts, off the request path.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AccessError, DomainError, unauthorized } from '../errors.js';
import type { BucketResult, RateLimitStore } from '../ratelimit/limiter.js';
import { AuthCache, readAndKeep, readThrough } from './auth-cache.js';
import { SCOPE_DENIED } from './console-access.js';
import type { LastUseWriter } from './last-use.js';
import { hashToken, scopeAllows, scopeOf } from './tokens.js';
import { tokensRepo } from './tokens.repo.js';

export { AuthCache };

const SENSITIVE_DEFAULT = new Set([
  'wallet.top-up',
  'users.bulk-create',
  'users.bulk-update',
  'companies.store',
  'paystubs.store',
  'invoices.finance-approve',
  'payroll-runs.store',
  'payroll-runs.approve',
  'payroll-runs.pay',
  'payroll-runs.retry',
]);

function setHeaders(reply: FastifyReply, endpoint: BucketResult, global: BucketResult): void {
  reply.header('X-RateLimit-Limit-Endpoint', endpoint.limit);
  reply.header('X-RateLimit-Remaining-Endpoint', endpoint.remaining);
  reply.header('X-RateLimit-Limit-Global', global.limit);
  reply.header('X-RateLimit-Remaining-Global', global.remaining);
}

function tooMany(...buckets: BucketResult[]): DomainError {
  const retryAfter = Math.max(...buckets.filter((b) => !b.allowed).map((b) => b.retryAfterSeconds));
  return new DomainError('rate_limited', 'Too many requests.', undefined, { 'Retry-After': String(retryAfter) });
}

function planLimit(config: Config, plan: string): number {
  if (plan === 'enterprise') return config.rateLimit.enterprise;
  if (plan === 'premium') return config.rateLimit.premium;
  return config.rateLimit.standard;
}

export function createAuthenticator(deps: { db: Db; config: Config; limiter: RateLimitStore; cache: AuthCache; lastUse: LastUseWriter }) {
  const { db, config, limiter, cache, lastUse } = deps;
  const ttlMs = config.tokenTtlSeconds * 1000;
  // Lazy sliding-expiry writes: at most once per TTL/100, and at least once a minute.
  const touchEveryMs = Math.min(ttlMs / 100, 60_000);

  const readToken = (token: string) => () => tokensRepo.findByHashWithGeneration(db, hashToken(token));
  const readGeneration = () => tokensRepo.generation(db);
  /** Reads the token with the generation and caches it, unless the cache was emptied meanwhile. */
  const lookUp = (token: string) => readAndKeep(cache, cache.tokens, token, readToken(token));
  /** The token's record as of a read started at most GENERATION_MS before the request (`now`). */
  const resolve = (token: string, now: number) => readThrough(cache, cache.tokens, token, now, readToken(token), readGeneration);

  async function failAuthentication(request: FastifyRequest, reply: FastifyReply, error: DomainError): Promise<never> {
    const bucket = await limiter.take('unauth', request.ip, config.rateLimit.unauthenticated);
    setHeaders(reply, bucket, bucket);
    if (!bucket.allowed) throw tooMany(bucket);
    throw error;
  }

  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // routeOptions is a getter that builds a new object on every read: read it once.
    const routeConfig = request.routeOptions.config;
    const routeName = routeConfig.name;
    if (!routeName) {
      // An unknown /api path is probing: it costs a unit of the per-IP bucket of failed
      // authentication and carries its headers, like every other /api response.
      if (request.is404 && /^\/api(\/|\?|$)/.test(request.url)) {
        const bucket = await limiter.take('unauth', request.ip, config.rateLimit.unauthenticated);
        setHeaders(reply, bucket, bucket);
        if (!bucket.allowed) throw tooMany(bucket);
      }
      return;
    }
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return failAuthentication(request, reply, unauthorized());
    const token = match[1];

    const now = Date.now();
    let record = await resolve(token, now);
    if (!record || record.revokedAt) return failAuthentication(request, reply, unauthorized());

    if (!record.expiredAt && now - record.lastUsedAt.getTime() > ttlMs) {
      // Never refuse a live token on a cached last use: another instance may have used it since.
      record = await lookUp(token);
      if (!record || record.revokedAt) return failAuthentication(request, reply, unauthorized());
    }
    if (record.expiredAt || now - record.lastUsedAt.getTime() > ttlMs) {
      if (!record.expiredAt) {
        const at = new Date(now);
        await tokensRepo.markExpired(db, record.id, at);
        record.expiredAt = at; // the cached record too; other instances see the generation move
      }
      return failAuthentication(request, reply, unauthorized('Token expired'));
    }

    const sensitive = routeConfig.sensitive ?? SENSITIVE_DEFAULT.has(routeName);
    const [endpoint, global] = await limiter.takeEach([
      {
        bucket: 'endpoint',
        key: `${record.id}:${request.ip}:${routeName}`,
        limit: sensitive ? config.rateLimit.sensitive : config.rateLimit.endpoint,
      },
      { bucket: 'global', key: `${record.companyId}:${request.ip}`, limit: planLimit(config, record.plan) },
    ]);
    setHeaders(reply, endpoint, global);
    if (!endpoint.allowed || !global.allowed) throw tooMany(endpoint, global);

    if (!record.companyActive || !record.apiAccess) {
      throw new AccessError(
        'forbidden',
        routeName === 'companies.store' ? 'Access to this API is disabled for your company.' : 'API access is disabled for this company.',
      );
    }
    if (!scopeAllows(record.scopes, scopeOf(routeName))) throw new AccessError('forbidden', SCOPE_DENIED);

    if (now - record.lastUsedAt.getTime() >= touchEveryMs) {
      record.lastUsedAt = new Date(now);
      lastUse.note(record.id, record.lastUsedAt);
    }

    request.caller = { companyId: record.companyId, tokenId: record.id, scopes: record.scopes, plan: record.plan };
    // The request's own child logger (shared with reply.log, which writes "request completed")
    // gains the bindings in place: cheaper than a second child per request.
    (request.log as PinoLogger).setBindings({ companyId: record.companyId, route: routeName });
  };
}
