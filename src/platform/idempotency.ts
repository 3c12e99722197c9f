// `Idempotency-Key` on POST (decisions.md §2): the first response for (company, key) is stored and
// replayed for 24 h; the same key with another request is a 409. The key is claimed before the
// handler runs, so two concurrent retries cannot both execute.
import crypto from 'node:crypto';
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

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

function requestHash(request: FastifyRequest): string {
  const body = request.body;
  // Multipart bodies are read by the handler as a stream; their length stands in for the content.
  const content =
    body !== undefined && !(body && typeof body === 'object' && 'file' in body)
      ? JSON.stringify(body)
      : `len:${request.headers['content-length'] ?? ''}`;
  return crypto.createHash('sha256').update(`${request.method} ${request.url}\n${content}`).digest('hex');
}

export function registerIdempotency(app: FastifyInstance, db: Db): void {
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
