// `Idempotency-Key` on POST (decisions.md §2): the first response for (company, key) is stored and
// replayed for 24 h; the same key with another request is a 409. The key is claimed before the
// handler runs, so two concurrent retries cannot both execute.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/index.js';
import { badRequest, conflict } from './errors.js';

const HEADER = 'idempotency-key';
const KEEP_HOURS = 24;
/** A claim without a stored response this old belongs to a request that died (crash, restart). */
const ABANDONED_SECONDS = 300;
/** About one claim in PURGE_EVERY also deletes every expired key (indexed on created_at). */
const PURGE_EVERY = 100;

/** Multipart bodies up to this size are fingerprinted by content (the bulk CSV limit is 5 MiB). */
const MULTIPART_DIGEST_LIMIT = 12 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
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

export function registerIdempotency(app: FastifyInstance, db: Db): void {
  registerMultipartDigest(app);
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADER];
    if (request.method !== 'POST' || typeof key !== 'string' || !request.caller) return;
    if (key.length === 0 || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters.');
    const companyId = request.caller.companyId;
    const hash = requestHash(request);
    await db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.companyId, companyId),
          eq(idempotencyKeys.key, key),
          lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`),
        ),
      );
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ companyId, key, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) {
      request.idempotencyKey = key;
      if (Math.random() < 1 / PURGE_EVERY) {
        await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
      }
      return;
    }
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key)));
    if (!existing || existing.requestHash !== hash) throw conflict('Idempotency key reused with a different request.');
    if (existing.statusCode === null) {
      // Take over a claim whose request never finished (its process died), exactly once.
      const retaken = await db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now()` })
        .where(
          and(
            eq(idempotencyKeys.companyId, companyId),
            eq(idempotencyKeys.key, key),
            sql`${idempotencyKeys.statusCode} IS NULL`,
            lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${ABANDONED_SECONDS})`),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (retaken.length === 0) throw conflict('A request with this Idempotency-Key is still in progress.');
      request.idempotencyKey = key;
      return;
    }
    reply.header('Idempotent-Replayed', 'true');
    return reply.status(existing.statusCode).type('application/json; charset=utf-8').send(existing.responseBody);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key || !request.caller) return payload;
    const companyId = request.caller.companyId;
    const where = and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key));
    if (reply.statusCode >= 500) {
      // Nothing was done (or it was rolled back): let the client retry with the same key.
      await db.delete(idempotencyKeys).where(where);
    } else {
      await db
        .update(idempotencyKeys)
        .set({ statusCode: reply.statusCode, responseBody: typeof payload === 'string' ? payload : String(payload ?? '') })
        .where(where);
    }
    return payload;
  });
}
