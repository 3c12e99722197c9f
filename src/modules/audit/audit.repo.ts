// The audit log's reads (docs/audit.md, "Reading the log"): one company's events, newest first,
// keyset-paginated on the company's seq so that each page is one index range scan.
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
  /** Only events with seq below this (the cursor). */
  beforeSeq?: number;
}

export interface AuditEventRow {
  id: number;
  company_id: number;
  seq: number;
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
  prev_hash: string;
  hash: string;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;

function where(companyId: number, f: AuditFilters) {
  const parts = [sql`company_id = ${companyId}`];
  if (f.actorType !== undefined) parts.push(sql`actor_type = ${f.actorType}`);
  if (f.actorId !== undefined) parts.push(sql`actor_id = ${f.actorId}`);
  if (f.action && 'exact' in f.action) parts.push(sql`action = ${f.action.exact}`);
  if (f.action && 'prefix' in f.action) parts.push(sql`action LIKE ${likePrefix(f.action.prefix)}`);
  if (f.targetType !== undefined) parts.push(sql`target_type = ${f.targetType}`);
  if (f.targetId !== undefined) parts.push(sql`target_id = ${f.targetId}`);
  if (f.from) parts.push(sql`occurred_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) parts.push(sql`occurred_at < ${f.to.toISOString()}::timestamptz`);
  if (f.beforeSeq !== undefined) parts.push(sql`seq < ${f.beforeSeq}`);
  return sql.join(parts, sql` AND `);
}

export const auditReadRepo = {
  /** Up to `limit` events, newest first. */
  async page(executor: Executor, companyId: number, filters: AuditFilters, limit: number): Promise<AuditEventRow[]> {
    return queryRows<AuditEventRow>(
      executor,
      sql`SELECT id::int AS id, company_id, seq::int AS seq,
                 to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
                 actor_type, actor_id, actor_email, action, target_type, target_id, changes, request_id, ip, user_agent, prev_hash, hash
          FROM audit_events WHERE ${where(companyId, filters)}
          ORDER BY seq DESC LIMIT ${limit}`,
    );
  },
};
