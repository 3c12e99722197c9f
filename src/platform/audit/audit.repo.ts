// All SQL of the audit log's writing side, its sealing and its verification (docs/audit.md, "The
// chain"). An event is a plain insert in the change's transaction; audit_seal() (migration 0262)
// chains it after the commit, in (xid, id) order, into audit_seals.
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
  /** hash: content altered; prev_hash/seq: link or row missing; head: tail removed; unsealed: an event below the watermark without its seal. */
  reason: 'hash' | 'prev_hash' | 'seq' | 'head' | 'unsealed';
}

const column = <K extends keyof AuditRow>(rows: AuditRow[], key: K) => pgArray(rows.map((row) => row[key] as string | number | null));

/** One INSERT for every event, in the order given (chained in that order by the sealer). */
export async function insertAuditRows(executor: Executor, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await executor.execute(
    sql`INSERT INTO audit_events (company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent)
        SELECT company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes::jsonb, request_id, ip, user_agent
        FROM unnest(${column(rows, 'companyId')}::int[], ${column(rows, 'actorType')}::text[], ${column(rows, 'actorId')}::text[],
                    ${column(rows, 'actorEmail')}::text[], ${column(rows, 'action')}::text[], ${column(rows, 'targetType')}::text[],
                    ${column(rows, 'targetId')}::text[], ${column(rows, 'changes')}::text[], ${column(rows, 'requestId')}::text[],
                    ${column(rows, 'ip')}::text[], ${column(rows, 'userAgent')}::text[])
          WITH ORDINALITY AS t(company_id, actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent, ord)
        ORDER BY ord`,
  );
}

/**
 * Seals every event whose transaction ended before every transaction still running (one call of
 * audit_seal(), migration 0262); returns how many. Sealers take turns on audit_seal_state's row.
 */
export async function sealAuditEvents(executor: Executor): Promise<number> {
  const [row] = await queryRows<{ sealed: number }>(executor, sql`SELECT audit_seal() AS sealed`);
  return row?.sealed ?? 0;
}

/**
 * Recomputes every chain (or one company's) in the database and returns each company's first
 * broken link: a seal whose hash is not the hash of its event's content, whose prev_hash is not the
 * previous seal's hash, a gap in seq (a deleted row), a head past the last seal (deleted tail), or
 * an event below the sealed watermark that has no seal (inserted past the sealer, or its seal
 * removed).
 */
export async function findBrokenLinks(executor: Executor, companyId?: number): Promise<BrokenLink[]> {
  const only = companyId === undefined ? sql`TRUE` : sql`s.company_id = ${companyId}`;
  const onlyEvents = companyId === undefined ? sql`TRUE` : sql`e.company_id = ${companyId}`;
  const onlyHead = companyId === undefined ? sql`TRUE` : sql`h.company_id = ${companyId}`;
  const rows = await queryRows<BrokenLink>(
    executor,
    sql`WITH links AS (
          SELECT s.company_id, s.seq, s.event_id AS id, s.hash, s.prev_hash,
                 audit_event_hash(s.prev_hash, audit_event_canonical(e, s.seq)) AS recomputed,
                 lag(s.hash) OVER w AS previous_hash, lag(s.seq) OVER w AS previous_seq
          FROM audit_seals s JOIN audit_events e ON e.id = s.event_id WHERE ${only}
          WINDOW w AS (PARTITION BY s.company_id ORDER BY s.seq)
        ), broken AS (
          SELECT company_id, seq, id,
                 CASE WHEN seq <> COALESCE(previous_seq, 0) + 1 THEN 'seq'
                      WHEN prev_hash <> COALESCE(previous_hash, repeat('0', 64)) THEN 'prev_hash'
                      ELSE 'hash' END AS reason
          FROM links
          WHERE recomputed <> hash OR prev_hash <> COALESCE(previous_hash, repeat('0', 64)) OR seq <> COALESCE(previous_seq, 0) + 1
          UNION ALL
          SELECT h.company_id, COALESCE(last.seq, 0) + 1, 0, 'head' FROM audit_heads h
          LEFT JOIN LATERAL (SELECT s.seq, s.hash FROM audit_seals s WHERE s.company_id = h.company_id ORDER BY s.seq DESC LIMIT 1) last ON TRUE
          WHERE ${onlyHead} AND h.seq > 0 AND (last.seq IS DISTINCT FROM h.seq OR last.hash IS DISTINCT FROM h.hash)
          UNION ALL
          SELECT e.company_id, 0, e.id, 'unsealed' FROM audit_events e
          WHERE ${onlyEvents} AND e.xid < (SELECT sealed_xid FROM audit_seal_state)
            AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)
        )
        SELECT DISTINCT ON (company_id) company_id, seq::int AS seq, id::int AS id, reason FROM broken ORDER BY company_id, seq, id`,
  );
  return rows;
}

/** How many events and chains verification covered, and how many events wait for the sealer. */
export async function countChains(
  executor: Executor,
  companyId?: number,
): Promise<{ events: number; companies: number; unsealed: number }> {
  const only = companyId === undefined ? sql`TRUE` : sql`company_id = ${companyId}`;
  const [row] = await queryRows<{ events: number; companies: number; unsealed: number }>(
    executor,
    sql`SELECT count(*)::int AS events, count(DISTINCT company_id)::int AS companies,
               count(*) FILTER (WHERE xid >= (SELECT sealed_xid FROM audit_seal_state))::int AS unsealed
        FROM audit_events WHERE ${only}`,
  );
  return row ?? { events: 0, companies: 0, unsealed: 0 };
}
