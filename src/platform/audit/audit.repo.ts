// All SQL of the audit log's writing side and its verification (docs/audit.md). The chain fields
// (seq, occurred_at, prev_hash, hash) are set by the database's insert trigger (migration 0220).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';

export interface AuditRow {
  companyId: number;
  actorType: string;
  actorId: string;
  actorEmail: string | null;
  action: string;
  targetType: string;
  targetId: string;
  /** JSON text or null. */
  changes: string | null;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface BrokenLink {
  company_id: number;
  seq: number;
  id: number;
  reason: 'hash' | 'prev_hash' | 'seq' | 'head';
}

const column = <K extends keyof AuditRow>(rows: AuditRow[], key: K) => pgArray(rows.map((row) => row[key] as string | number | null));

/** One INSERT for every event, chained by the trigger in the order given. */
export async function insertAuditRows(executor: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await executor.execute(
    sql`INSERT INTO audit_events (company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent, seq, prev_hash, hash)
        SELECT company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes::jsonb, request_id, ip, user_agent, 0, '', ''
        FROM unnest(${column(rows, 'companyId')}::int[], ${column(rows, 'actorType')}::text[], ${column(rows, 'actorId')}::text[],
                    ${column(rows, 'actorEmail')}::text[], ${column(rows, 'action')}::text[], ${column(rows, 'targetType')}::text[],
                    ${column(rows, 'targetId')}::text[], ${column(rows, 'changes')}::text[], ${column(rows, 'requestId')}::text[],
                    ${column(rows, 'ip')}::text[], ${column(rows, 'userAgent')}::text[])
          WITH ORDINALITY AS t(company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent, ord)
        ORDER BY ord`,
  );
}

/**
 * Recomputes every chain (or one company's) in the database and returns each company's first
 * broken link: a row whose hash is not the hash of its own content, whose prev_hash is not the
 * previous row's hash, a gap in seq (a deleted row), or a head past the last row (deleted tail).
 */
export async function findBrokenLinks(executor: Executor, companyId?: number): Promise<BrokenLink[]> {
  const only = companyId === undefined ? sql`TRUE` : sql`e.company_id = ${companyId}`;
  const onlyHead = companyId === undefined ? sql`TRUE` : sql`h.company_id = ${companyId}`;
  const rows = await queryRows<BrokenLink>(
    executor,
    sql`WITH links AS (
          SELECT e.company_id, e.seq, e.id, e.hash, e.prev_hash,
                 audit_event_hash(e.prev_hash, audit_event_canonical(e)) AS recomputed,
                 lag(e.hash) OVER w AS previous_hash, lag(e.seq) OVER w AS previous_seq
          FROM audit_events e WHERE ${only}
          WINDOW w AS (PARTITION BY e.company_id ORDER BY e.seq)
        ), broken AS (
          SELECT company_id, seq, id,
                 CASE WHEN seq <> COALESCE(previous_seq, 0) + 1 THEN 'seq'
                      WHEN prev_hash <> COALESCE(previous_hash, repeat('0', 64)) THEN 'prev_hash'
                      ELSE 'hash' END AS reason
          FROM links
          WHERE recomputed <> hash OR prev_hash <> COALESCE(previous_hash, repeat('0', 64)) OR seq <> COALESCE(previous_seq, 0) + 1
          UNION ALL
          SELECT h.company_id, COALESCE(last.seq, 0) + 1, 0, 'head' FROM audit_heads h
          LEFT JOIN LATERAL (SELECT e.seq, e.hash FROM audit_events e WHERE e.company_id = h.company_id ORDER BY e.seq DESC LIMIT 1) last ON TRUE
          WHERE ${onlyHead} AND h.seq > 0 AND (last.seq IS DISTINCT FROM h.seq OR last.hash IS DISTINCT FROM h.hash)
        )
        SELECT DISTINCT ON (company_id) company_id, seq::int AS seq, id::int AS id, reason FROM broken ORDER BY company_id, seq`,
  );
  return rows;
}

/** How many events and chains verification covered. */
export async function countChains(executor: Executor, companyId?: number): Promise<{ events: number; companies: number }> {
  const only = companyId === undefined ? sql`TRUE` : sql`company_id = ${companyId}`;
  const [row] = await queryRows<{ events: number; companies: number }>(
    executor,
    sql`SELECT count(*)::int AS events, count(DISTINCT company_id)::int AS companies FROM audit_events WHERE ${only}`,
  );
  return row ?? { events: 0, companies: 0 };
}
