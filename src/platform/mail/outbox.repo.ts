// All SQL of the outbox (outbox.ts): the per-company quota count, the one-statement write of
// messages and their delivery jobs, and the delivery job's reads and marks.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Executor, queryRows, sql } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { outbox } from '../../db/schema/index.js';

/** A message as the outbox stores it; `waitSeconds`: its delivery starts that long from now. */
export interface OutboxRow {
  companyId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  waitSeconds: number;
}

export const outboxRepo = {
  /** Per company: its messages due from an hour ago onwards (outbox_company_deliver_at_idx). */
  async dueInTheLastHour(executor: Executor, companyIds: number[]): Promise<Map<number, number>> {
    const rows = await queryRows<{ company_id: number; n: number }>(
      executor,
      sql`SELECT company_id, count(*)::int AS n FROM outbox
          WHERE company_id = ANY(${pgArray(companyIds)}::int[]) AND deliver_at > now() - interval '1 hour'
          GROUP BY company_id`,
    );
    return new Map(rows.map((row) => [row.company_id, row.n]));
  },

  /**
   * One statement, one array parameter per column: the outbox rows, then one `jobKind` job per
   * `batchSize` of them that share a delivery time. The rows' ids, in order.
   */
  async insertWithJobs(executor: Executor, messages: OutboxRow[], jobKind: string, batchSize: number): Promise<number[]> {
    const column = (pick: (m: OutboxRow) => string | number | null) => pgArray(messages.map(pick));
    const rows = await queryRows<{ ids: string[] }>(
      executor,
      sql`WITH m AS (
            INSERT INTO outbox (company_id, "to", subject, text, html, deliver_at)
            SELECT c, t, s, x, h, now() + make_interval(secs => d)
            FROM unnest(${column((m) => m.companyId)}::int[], ${column((m) => m.to)}::text[],
              ${column((m) => m.subject)}::text[], ${column((m) => m.text)}::text[], ${column((m) => m.html)}::text[],
              ${column((m) => m.waitSeconds)}::int[]) AS u(c, t, s, x, h, d)
            RETURNING id, deliver_at),
          numbered AS (
            SELECT id, deliver_at, (row_number() OVER (PARTITION BY deliver_at ORDER BY id) - 1) / ${batchSize} AS batch FROM m),
          queued AS (
            INSERT INTO jobs (kind, payload, run_at, max_attempts)
            SELECT ${jobKind}, jsonb_build_object('outboxIds', jsonb_agg(id ORDER BY id)), deliver_at, 12
            FROM numbered GROUP BY deliver_at, batch)
          SELECT array_agg(id ORDER BY id)::text[] AS ids FROM m`,
    );
    return (rows[0]?.ids ?? []).map(Number);
  },

  /** The messages of `ids` not sent yet, in id order. */
  unsent(executor: Executor, ids: number[]) {
    return executor
      .select()
      .from(outbox)
      .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)))
      .orderBy(outbox.id);
  },

  async setAttempts(executor: Executor, id: number, attempts: number): Promise<void> {
    await executor.update(outbox).set({ attempts }).where(eq(outbox.id, id));
  },

  async markFailed(executor: Executor, id: number, reason: string): Promise<void> {
    await executor.update(outbox).set({ lastError: reason }).where(eq(outbox.id, id));
  },

  async markSent(executor: Executor, id: number): Promise<void> {
    await executor.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, id));
  },
};
