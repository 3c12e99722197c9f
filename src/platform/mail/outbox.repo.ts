// All SQL of the outbox (outbox.ts): the per-company quota count, the one-statement write of
// messages and their delivery jobs, and the delivery job's reads and marks.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Executor, queryRows, sql } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { outbox } from '../../db/schema/index.js';

/**
 * A message as the outbox stores it. `waitSeconds`: its delivery starts that long from now, and
 * not before `notBefore` (the company's last message, so a company's messages stay in delivery
 * order); `companySeq`: its number among the company's messages (migration 0270).
 */
export interface OutboxRow {
  companyId: number | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  waitSeconds: number;
  notBefore: string | null;
  companySeq: number | null;
}

/** A company's messages at the quota's count: how many are due from an hour ago onwards, and its last one. */
export interface CompanyMailWindow {
  dueInTheLastHour: number;
  lastSeq: number;
  /** The last message's delivery time as PostgreSQL's text, or null if the company has none. */
  lastDeliverAt: string | null;
}

export const outboxRepo = {
  /**
   * Per company, two probes of outbox_company_deliver_seq_idx: its last message and its first one
   * due from an hour ago onwards. Messages are numbered in delivery order, so the count between
   * them is the difference of their numbers; counting them instead read the whole backlog at every
   * send (docs/decisions.md, "Jobs and mail"). Unnumbered messages (written before migration 0270,
   * or by an instance still running the code before it) are left out: numbering goes on from the
   * last numbered message instead of starting again at 1.
   */
  async windows(executor: Executor, companyIds: number[]): Promise<Map<number, CompanyMailWindow>> {
    const rows = await queryRows<{ company_id: number; last_seq: string | null; last_deliver_at: string | null; first_seq: string | null }>(
      executor,
      sql`SELECT c.id AS company_id, last.company_seq::text AS last_seq, last.deliver_at::text AS last_deliver_at,
                 first.company_seq::text AS first_seq
          FROM unnest(${pgArray(companyIds)}::int[]) AS c(id)
          LEFT JOIN LATERAL (SELECT company_seq, deliver_at FROM outbox WHERE company_id = c.id AND company_seq IS NOT NULL
                             ORDER BY deliver_at DESC, company_seq DESC LIMIT 1) last ON true
          LEFT JOIN LATERAL (SELECT company_seq FROM outbox WHERE company_id = c.id AND company_seq IS NOT NULL
                               AND deliver_at > now() - interval '1 hour'
                             ORDER BY deliver_at, company_seq LIMIT 1) first ON true`,
    );
    return new Map(
      rows.map((row) => {
        const lastSeq = Number(row.last_seq ?? 0);
        // Two transactions mailing one company at once can number out of delivery order; never below 0.
        const due = row.first_seq === null ? 0 : Math.max(0, lastSeq - Number(row.first_seq) + 1);
        return [row.company_id, { dueInTheLastHour: due, lastSeq, lastDeliverAt: row.last_deliver_at }];
      }),
    );
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
            INSERT INTO outbox (company_id, "to", subject, text, html, deliver_at, company_seq)
            SELECT c, t, s, x, h, greatest(now() + make_interval(secs => d), nb), q
            FROM unnest(${column((m) => m.companyId)}::int[], ${column((m) => m.to)}::text[],
              ${column((m) => m.subject)}::text[], ${column((m) => m.text)}::text[], ${column((m) => m.html)}::text[],
              ${column((m) => m.waitSeconds)}::int[], ${column((m) => m.notBefore)}::timestamptz[],
              ${column((m) => m.companySeq)}::bigint[]) AS u(c, t, s, x, h, d, nb, q)
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
