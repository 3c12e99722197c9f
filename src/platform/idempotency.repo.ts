// All SQL of Idempotency-Key (idempotency.ts, idempotency-claims.ts): the idempotency_keys rows and
// the server_instances heartbeat rows that tell a live claim's owner from a dead one.
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/index.js';

/** The key a request holds: its company, the key, and the random token of this claim. */
export interface ClaimRef {
  companyId: number;
  key: string;
  token: string;
}

const ofKey = (companyId: number, key: string) => and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key));
/** Only while this claim's token still holds the key: a claim taken over is another request's. */
const heldBy = (claim: ClaimRef) => and(ofKey(claim.companyId, claim.key), eq(idempotencyKeys.claimToken, claim.token));
const olderThan = (hours: number) => lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${hours})`);
const answerText = (payload: unknown) => (typeof payload === 'string' ? payload : String(payload ?? ''));

export const idempotencyRepo = {
  /** Deletes this key's row if it is older than `keepHours` (an expired key is free again). */
  async deleteExpiredKey(executor: Executor, companyId: number, key: string, keepHours: number): Promise<void> {
    await executor.delete(idempotencyKeys).where(and(ofKey(companyId, key), olderThan(keepHours)));
  },

  /** Deletes every key older than `keepHours` (indexed on created_at). */
  async purgeExpired(executor: Executor, keepHours: number): Promise<void> {
    await executor.delete(idempotencyKeys).where(olderThan(keepHours));
  },

  /** Claims the key for a request; false when a row for it exists already. */
  async insertClaim(executor: Executor, claim: ClaimRef, requestHash: string, owner: string): Promise<boolean> {
    const claimed = await executor
      .insert(idempotencyKeys)
      .values({ companyId: claim.companyId, key: claim.key, requestHash, owner, claimToken: claim.token })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return claimed.length > 0;
  },

  async find(executor: Executor, companyId: number, key: string) {
    const [existing] = await executor.select().from(idempotencyKeys).where(ofKey(companyId, key));
    return existing;
  },

  /** Stores the answer rebuilt from a committed change, unless an answer is stored already. */
  async storeRecoveredAnswer(executor: Executor, companyId: number, key: string, statusCode: number, payload: unknown): Promise<void> {
    await executor
      .update(idempotencyKeys)
      .set({ statusCode, responseBody: answerText(payload) })
      .where(and(ofKey(companyId, key), isNull(idempotencyKeys.statusCode)));
  },

  /** Stores the answer of the request that holds the claim. */
  async storeAnswer(executor: Executor, claim: ClaimRef, statusCode: number, payload: unknown): Promise<void> {
    await executor
      .update(idempotencyKeys)
      .set({ statusCode, responseBody: answerText(payload) })
      .where(heldBy(claim));
  },

  /** Gives the key back: only while this claim holds it, and only if nothing committed. */
  async release(executor: Executor, claim: ClaimRef): Promise<void> {
    await executor.delete(idempotencyKeys).where(and(heldBy(claim), isNull(idempotencyKeys.committedAt)));
  },

  /** Marks the held key committed with the change's resource; false when the claim was taken over. */
  async markCommitted(tx: Executor, claim: ClaimRef, change: { kind: string; id: string }): Promise<boolean> {
    const rows = await queryRows<{ key: string }>(
      tx,
      sql`UPDATE idempotency_keys SET committed_at = now(), resource_kind = ${change.kind}, resource_id = ${change.id}
          WHERE company_id = ${claim.companyId} AND key = ${claim.key} AND claim_token = ${claim.token}
          RETURNING key`,
    );
    return rows.length > 0;
  },

  /**
   * One conditional UPDATE, which only one retry wins: the key has no answer and no committed
   * change, and its claim is older than `stuckSeconds` or its owner has not beaten for
   * `deadAfterSeconds`. True when `claim` now holds it.
   */
  async takeOverDead(executor: Executor, claim: ClaimRef, owner: string, stuckSeconds: number, deadAfterSeconds: number): Promise<boolean> {
    const rows = await queryRows<{ key: string }>(
      executor,
      sql`UPDATE idempotency_keys k SET owner = ${owner}, claim_token = ${claim.token}, created_at = now()
          WHERE k.company_id = ${claim.companyId} AND k.key = ${claim.key} AND k.status_code IS NULL AND k.committed_at IS NULL
            AND (k.created_at < now() - make_interval(secs => ${stuckSeconds})
              OR (k.owner IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM server_instances i
                WHERE i.id = k.owner AND i.last_seen > now() - make_interval(secs => ${deadAfterSeconds}))))
          RETURNING k.key`,
    );
    return rows.length > 0;
  },
};

/** server_instances: one row per live server, its last_seen renewed by the heartbeat. */
export const serverInstancesRepo = {
  async beat(executor: Executor, instanceId: string): Promise<void> {
    await queryRows(
      executor,
      sql`INSERT INTO server_instances (id) VALUES (${instanceId}) ON CONFLICT (id) DO UPDATE SET last_seen = now() RETURNING id`,
    );
  },

  async deleteOthers(executor: Executor, instanceId: string): Promise<void> {
    await queryRows(executor, sql`DELETE FROM server_instances WHERE id <> ${instanceId} RETURNING id`);
  },

  async deleteSilentForADay(executor: Executor): Promise<void> {
    await queryRows(executor, sql`DELETE FROM server_instances WHERE last_seen < now() - interval '1 day' RETURNING id`);
  },

  async delete(executor: Executor, instanceId: string): Promise<void> {
    await queryRows(executor, sql`DELETE FROM server_instances WHERE id = ${instanceId} RETURNING id`);
  },
};
