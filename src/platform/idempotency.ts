// `Idempotency-Key` on POST (docs/reference.md, "Common rules"): the first response for (company,
// key) is stored and replayed for 24 h; the same key with another request is a 409. The key is
// claimed before the handler runs, so two concurrent retries cannot both execute. After a crash
// (docs/decisions.md, "Idempotency-Key after a crash"): a dead owner's claim is taken over
// (idempotency-claims.ts), and a key whose change committed without a stored answer is answered
// from the change, never re-run.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Db } from '../db/client.js';
import { badRequest, conflict } from './errors.js';
import { idempotencyRepo } from './idempotency.repo.js';
import {
  crashPoint,
  HEARTBEAT_SECONDS,
  type HeldClaim,
  IN_PROGRESS,
  newClaimToken,
  registerInstanceHeartbeat,
  runWithClaim,
  setCrashPoints,
  takeOverDeadClaim,
} from './idempotency-claims.js';

const HEADER = 'idempotency-key';
const KEEP_HOURS = 24;
/** About one claim in PURGE_EVERY also deletes every expired key (indexed on created_at). */
const PURGE_EVERY = 100;

/** Multipart bodies up to this size are fingerprinted by content (the bulk CSV limit is 5 MiB). */
const MULTIPART_DIGEST_LIMIT = 12 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request holds while its handler runs (answered: stored in onSend). */
    idempotencyClaim?: HeldClaim;
    /** This request's answer was rebuilt from its committed change (stored in onSend for later retries). */
    idempotencyRecovered?: { companyId: number; key: string };
    /** SHA-256 of a multipart body with its random boundary normalised (set in preParsing). */
    multipartDigest?: string;
  }
}

function requestHash(request: FastifyRequest): string {
  const body = request.body;
  const content =
    request.multipartDigest !== undefined
      ? `multipart:${request.multipartDigest}`
      : body !== undefined
        ? JSON.stringify(body)
        : `len:${request.headers['content-length'] ?? ''}`;
  return crypto.createHash('sha256').update(`${request.method} ${request.url}\n${content}`).digest('hex');
}

/**
 * Multipart bodies are streamed by their handlers, so their content is not known in preHandler.
 * When a POST carries an Idempotency-Key, the (bounded) body is read here once, fingerprinted
 * with the client's random boundary replaced, and handed on unchanged: a retry of the same file
 * matches, a different file of the same length does not.
 */
function registerMultipartDigest(app: FastifyInstance): void {
  // Callback-style, so that every other request (not a multipart POST with a key) passes without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.method !== 'POST' || typeof request.headers[HEADER] !== 'string' || !request.caller) return done(null, payload);
    const type = request.headers['content-type'] ?? '';
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(type);
    if (!type.toLowerCase().startsWith('multipart/') || !boundary) return done(null, payload);
    if (Number(request.headers['content-length'] ?? 0) > MULTIPART_DIGEST_LIMIT) return done(null, payload);
    digestMultipart(request, payload, boundary[1] ?? boundary[2].trim()).then((replaced) => done(null, replaced), done);
  });
}

/** Reads the multipart body, sets request.multipartDigest, and replays the same bytes to the parser. */
async function digestMultipart(request: FastifyRequest, payload: AsyncIterable<unknown>, boundary: string) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = Buffer.from(chunk as Buffer);
    size += buffer.length;
    if (size > MULTIPART_DIGEST_LIMIT) throw badRequest('Request body too large.');
    chunks.push(buffer);
  }
  const raw = Buffer.concat(chunks);
  const marker = Buffer.from(boundary);
  const hash = crypto.createHash('sha256');
  let from = 0;
  for (let at = raw.indexOf(marker, from); at !== -1; at = raw.indexOf(marker, from)) {
    hash.update(raw.subarray(from, at)).update('\u0000boundary\u0000');
    from = at + marker.length;
  }
  hash.update(raw.subarray(from));
  request.multipartDigest = hash.digest('hex');
  // @fastify/multipart reads request.raw itself: give it the same bytes again, with everything
  // else (headers, url, socket) still answered by the original message.
  const original = request.raw;
  const replay = Readable.from([raw]);
  request.raw = new Proxy(replay, {
    get: (target, property) => Reflect.get(property in target ? target : original, property),
  }) as unknown as typeof original;
  return Object.assign(Readable.from([]), { receivedEncodedLength: raw.length });
}

/** 409 for a key whose change committed but whose answer was lost, when the route cannot rebuild it. */
export function carriedOut(kind: string | null, id: string | null): string {
  const what = kind && id ? ` (${kind} ${id})` : '';
  return `A request with this Idempotency-Key was already carried out${what}; its answer was lost when the server stopped.`;
}

type ClaimOutcome = { held: HeldClaim } | { answered: true };

async function claimKey(
  db: Database['db'],
  owner: string,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
): Promise<ClaimOutcome> {
  if (key.length === 0 || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters.');
  const companyId = (request.caller as { companyId: number }).companyId;
  const hash = requestHash(request);
  const claim: HeldClaim = { companyId, key, token: newClaimToken(), routeName: request.routeOptions.config.name };
  await idempotencyRepo.deleteExpiredKey(db, companyId, key, KEEP_HOURS);
  if (await idempotencyRepo.insertClaim(db, claim, hash, owner)) {
    // Housekeeping only: a failed purge must not fail the request, and above all must not leave
    // the claim just written held by this live server with nothing to release it for 300 s.
    if (Math.random() < 1 / PURGE_EVERY) {
      await idempotencyRepo
        .purgeExpired(db, KEEP_HOURS)
        .catch((error) => request.log.warn({ err: error }, 'purging expired idempotency keys failed'));
    }
    return { held: claim };
  }
  const existing = await idempotencyRepo.find(db, companyId, key);
  if (!existing || existing.requestHash !== hash) throw conflict('Idempotency key reused with a different request.');
  if (existing.statusCode !== null) {
    reply.header('Idempotent-Replayed', 'true');
    reply.status(existing.statusCode).type('application/json; charset=utf-8').send(existing.responseBody);
    return { answered: true };
  }
  if (existing.committedAt !== null) {
    // The change is made; its answer was not stored (the process died, or failed after the commit).
    const recover = request.routeOptions.config.idempotency?.recover;
    const ref = existing.resourceKind && existing.resourceId ? { kind: existing.resourceKind, id: existing.resourceId } : undefined;
    const rebuilt = recover && ref ? await recover(request, ref) : undefined;
    if (!rebuilt) throw conflict(carriedOut(existing.resourceKind, existing.resourceId));
    request.idempotencyRecovered = { companyId, key };
    reply.header('Idempotent-Replayed', 'true');
    reply.status(rebuilt.statusCode).send(rebuilt.body);
    return { answered: true };
  }
  if (!(await takeOverDeadClaim(db, companyId, key, owner, claim.token))) throw conflict(IN_PROGRESS);
  return { held: claim };
}

export function registerIdempotency(app: FastifyInstance, database: Database, testCrashPoints: readonly string[] = []): void {
  const { db } = database;
  const owner = registerInstanceHeartbeat(app, db, database.kind === 'pglite');
  const unreleased = releaseLater(app, db);
  setCrashPoints(testCrashPoints);
  registerMultipartDigest(app);
  // Callback-style: the rest of the request (the handler) runs inside runWithClaim, so the
  // handler's transaction can mark the key (markIdempotentChange); requests without the header pass at once.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.headers[HEADER];
    if (request.method !== 'POST' || typeof key !== 'string' || !request.caller) return done();
    claimKey(db, owner, request, reply, key).then((outcome) => {
      if (!('held' in outcome)) return;
      request.idempotencyClaim = outcome.held;
      runWithClaim(outcome.held, done);
    }, done);
  });

  // Callback-style too: most requests hold no key and are passed on at once, without the promise an
  // async hook costs every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotencyRecovered && !request.idempotencyClaim) return done(null, payload);
    storeOutcome(request, reply, payload).then((stored) => done(null, stored), done);
  });

  /** What a request with a key leaves for its retries: its answer stored, or its key released after a 5xx. */
  async function storeOutcome(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const recovered = request.idempotencyRecovered;
    if (recovered && reply.statusCode < 500) {
      // Later retries replay this answer instead of rebuilding it.
      await idempotencyRepo.storeRecoveredAnswer(db, recovered.companyId, recovered.key, reply.statusCode, payload);
      return payload;
    }
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    crashPoint(claim, 'after-commit');
    if (reply.statusCode >= 500) {
      // Nothing was done (or it was rolled back): let the client retry with the same key. A change
      // that did commit keeps its mark, so the retry is answered from it instead of running again.
      // The database may be what failed (a 503): then the release waits for it (releaseLater), and the
      // client still gets the original answer, not this statement's error.
      await idempotencyRepo.release(db, claim).catch(() => unreleased.add(claim));
    } else {
      // Only while this request still holds the key (its token): a claim taken over is another request's.
      await idempotencyRepo.storeAnswer(db, claim, reply.statusCode, payload);
    }
    return payload;
  }
}

/** At most this many releases wait for the database; past it the oldest fall back to the stuck-claim rule. */
const UNRELEASED_LIMIT = 10_000;

/**
 * Claims whose release after a 5xx could not be written (the database was unreachable, which is
 * what the 503 said): retried every heartbeat until the database answers, so a client retrying with
 * the same key once the database is back is served instead of waiting for the 300 s stuck-claim rule
 * (its owner, this instance, is alive). Lost if this process stops first: then its claims die with it.
 */
function releaseLater(app: FastifyInstance, db: Db): { add(claim: HeldClaim): void } {
  const waiting = new Map<string, HeldClaim>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    for (const [id, claim] of waiting) {
      try {
        await idempotencyRepo.release(db, claim);
        waiting.delete(id);
      } catch {
        return; // still unreachable: the next tick tries again
      }
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void flush(), HEARTBEAT_SECONDS * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await flush();
  });
  return {
    add(claim) {
      if (waiting.size >= UNRELEASED_LIMIT) waiting.delete(waiting.keys().next().value as string);
      waiting.set(`${claim.companyId}\u0000${claim.key}\u0000${claim.token}`, claim);
    },
  };
}
