// The audit log's reads (docs/audit.md, "Reading the log"): one company's events, newest first in
// chain order (xid, id: the order the sealer chains them in), keyset-paginated on that pair so that
// each page is one index range scan; each with its seal, or none yet.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { namedStatement } from '../../db/prepared.js';

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

/** An event's place with its seal's hash (null until sealed): what its kept text is checked against. */
export interface AuditPlace extends ChainPosition {
  hash: string | null;
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

function auditWhere(companyId: number, f: AuditFilters) {
  const parts = [sql`e.company_id = ${companyId}`];
  if (f.actorType !== undefined) parts.push(sql`e.actor_type = ${f.actorType}`);
  if (f.actorId !== undefined) parts.push(sql`e.actor_id = ${f.actorId}`);
  if (f.action && 'exact' in f.action) parts.push(sql`e.action = ${f.action.exact}`);
  if (f.action && 'prefix' in f.action) parts.push(sql`e.action LIKE ${likePrefix(f.action.prefix)}`);
  if (f.targetType !== undefined) parts.push(sql`e.target_type = ${f.targetType}`);
  if (f.targetId !== undefined) parts.push(sql`e.target_id = ${f.targetId}`);
  if (f.from) parts.push(sql`e.occurred_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) parts.push(sql`e.occurred_at < ${f.to.toISOString()}::timestamptz`);
  if (f.before) parts.push(beforeCursor(f.before.xid, f.before.id));
  return sql.join(parts, sql` AND `);
}

/** Events before the cursor's place in chain order (`xid`: xid8 as decimal text). */
function beforeCursor(xid: unknown, id: unknown) {
  return sql`(e.xid, e.id) < (${xid}::xid8, ${id}::bigint)`;
}

/** Each event with its seal (none yet: nulls), as AuditEventRow. */
const EVENTS = sql`SELECT e.id::int AS id, e.company_id, s.seq::int AS seq, e.xid::text AS xid,
    to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
    e.actor_type, e.actor_id, e.actor_email, e.action, e.target_type, e.target_id, e.changes, e.request_id, e.ip, e.user_agent,
    s.prev_hash, s.hash
  FROM audit_events e LEFT JOIN audit_seals s ON s.event_id = e.id`;
const CHAIN_ORDER = sql`ORDER BY e.xid DESC, e.id DESC`;

// The pages with no filter but the cursor (the first page, and each next one), most of the log's
// reads, are named statements on the hot-reads pool (db/client.ts, hotReads), so that PostgreSQL
// plans each once instead of on every page: planning the page took longer than running it (0.34-0.53
// ms against 0.18-0.23 on a log of 100,000 events: docs/benchmarks.md). A filtered page is planned
// for its values, each filter having its own index.
const company = sql`WHERE e.company_id = ${sql.placeholder('companyId')}`;
const pageLimit = sql`LIMIT ${sql.placeholder('limit')}`;
const afterCursor = sql`AND ${beforeCursor(sql.placeholder('xid'), sql.placeholder('id'))}`;
const firstPage = namedStatement<AuditEventRow>('audit_events_first_page', sql`${EVENTS} ${company} ${CHAIN_ORDER} ${pageLimit}`);
const nextPage = namedStatement<AuditEventRow>(
  'audit_events_next_page',
  sql`${EVENTS} ${company} ${afterCursor} ${CHAIN_ORDER} ${pageLimit}`,
);

// A page's places alone (the API's pages: audit.text.service.ts takes each sealed event's text from
// what it keeps, when the kept text's hash is the seal's, and reads only the others): the
// (company_id, xid, id) index, and each event's seal by its key.
const PLACES = sql`SELECT e.id::int AS id, e.xid::text AS xid, s.hash FROM audit_events e LEFT JOIN audit_seals s ON s.event_id = e.id`;
const firstPlaces = namedStatement<AuditPlace>('audit_event_places_first_page', sql`${PLACES} ${company} ${CHAIN_ORDER} ${pageLimit}`);
const nextPlaces = namedStatement<AuditPlace>(
  'audit_event_places_next_page',
  sql`${PLACES} ${company} ${afterCursor} ${CHAIN_ORDER} ${pageLimit}`,
);
const byIds = namedStatement<AuditEventRow>(
  'audit_events_by_ids',
  sql`${EVENTS} ${company} AND e.id = ANY(${sql.placeholder('ids')}::bigint[])`,
);

const hasFilter = ({ before: _before, ...others }: AuditFilters) => Object.values(others).some((value) => value !== undefined);

/**
 * A page of `select`'s columns: a filtered page planned for its values, the others (the first page,
 * and each after a cursor) the two named statements on the hot-reads pool.
 */
function chainPage<T>(select: SQL, first: ReturnType<typeof namedStatement<T>>, next: ReturnType<typeof namedStatement<T>>) {
  return (executor: Executor, companyId: number, filters: AuditFilters, limit: number): Promise<T[]> => {
    const { before } = filters;
    if (hasFilter(filters))
      return queryRows<T>(executor, sql`${select} WHERE ${auditWhere(companyId, filters)} ${CHAIN_ORDER} LIMIT ${limit}`);
    return before
      ? next(hotReads(executor), { companyId, limit, xid: before.xid, id: before.id })
      : first(hotReads(executor), { companyId, limit });
  };
}

export const auditReadRepo = {
  /** Up to `limit` events, newest first. */
  page: chainPage<AuditEventRow>(EVENTS, firstPage, nextPage),

  /** The places (id, xid, seal's hash) of up to `limit` events, newest first: `page` without the events. */
  places: chainPage<AuditPlace>(PLACES, firstPlaces, nextPlaces),

  /** The company's events of these ids, in no order (an id of another company is not one of them). */
  byIds: (executor: Executor, companyId: number, ids: readonly number[]): Promise<AuditEventRow[]> =>
    byIds(hotReads(executor), { companyId, ids: pgArray(ids) }),
};
