// The audit log's reads (docs/audit.md, "Reading the log"): one company's events, newest first in
// chain order (xid, id: the order the sealer chains them in), keyset-paginated on that pair so that
// each page is one index range scan; each with its seal, or none yet.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';

export interface AuditFilters {
  actorType?: string;
  actorId?: string;
  /** Exact action, or the prefix before `.*`. */
  action?: { exact: string } | { prefix: string };
  targetType?: string;
  targetId?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** Only events before this one in chain order (the cursor). */
  before?: ChainPosition;
}

/** An event's place in chain order: its transaction id (xid8 as decimal text) and its id. */
export interface ChainPosition {
  xid: string;
  id: number;
}

export interface AuditEventRow {
  id: number;
  company_id: number;
  /** Null until sealed (docs/audit.md, "The chain"), as are prev_hash and hash. */
  seq: number | null;
  xid: string;
  occurred_at: string;
  actor_type: string;
  actor_id: string;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, [unknown, unknown]> | null;
  request_id: string | null;
  ip: string | null;
  user_agent: string | null;
  prev_hash: string | null;
  hash: string | null;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;

function where(companyId: number, f: AuditFilters) {
  const parts = [sql`e.company_id = ${companyId}`];
  if (f.actorType !== undefined) parts.push(sql`e.actor_type = ${f.actorType}`);
  if (f.actorId !== undefined) parts.push(sql`e.actor_id = ${f.actorId}`);
  if (f.action && 'exact' in f.action) parts.push(sql`e.action = ${f.action.exact}`);
  if (f.action && 'prefix' in f.action) parts.push(sql`e.action LIKE ${likePrefix(f.action.prefix)}`);
  if (f.targetType !== undefined) parts.push(sql`e.target_type = ${f.targetType}`);
  if (f.targetId !== undefined) parts.push(sql`e.target_id = ${f.targetId}`);
  if (f.from) parts.push(sql`e.occurred_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) parts.push(sql`e.occurred_at < ${f.to.toISOString()}::timestamptz`);
  if (f.before) parts.push(sql`(e.xid, e.id) < (${f.before.xid}::xid8, ${f.before.id})`);
  return sql.join(parts, sql` AND `);
}

export const auditReadRepo = {
  /** Up to `limit` events, newest first. */
  async page(executor: Executor, companyId: number, filters: AuditFilters, limit: number): Promise<AuditEventRow[]> {
    return queryRows<AuditEventRow>(
      executor,
      sql`SELECT e.id::int AS id, e.company_id, s.seq::int AS seq, e.xid::text AS xid,
                 to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
                 e.actor_type, e.actor_id, e.actor_email, e.action, e.target_type, e.target_id, e.changes, e.request_id, e.ip, e.user_agent,
                 s.prev_hash, s.hash
          FROM audit_events e LEFT JOIN audit_seals s ON s.event_id = e.id
          WHERE ${where(companyId, filters)}
          ORDER BY e.xid DESC, e.id DESC LIMIT ${limit}`,
    );
  },
};
