// The hot reads of the users feature (U1's page, U2, the console's list), each user as its flat row
// (users.flat-row.repo.ts: the columns the User object shows, in its order, as ONE json array).
//
// `pageJson` is U1's page with each user as its JSON text, written by PostgreSQL (users.json.repo.ts),
// which U1 uses on a PostgreSQL server (users.service.ts).
import { and, asc, count, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { type Executor, hotReads } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import { namedStatement, preparedPerExecutor, withArrayRows } from '../../../db/prepared.js';
import { rowVersion } from '../../../db/row-version.js';
import { userCounts, users, userTypes } from '../../../db/schema/index.js';
import { lagosDate } from '../../../platform/format.js';
import { flatUserRowSql, listedUserRowSql, manager, type UserFlatRow } from '../users.flat-row.repo.js';
import { userJson } from './users.json.repo.js';

// The page carries the company's live-user counter (0140_user_counts.sql) as a second column: U1 is
// one statement, one round trip, and its total is read in the same snapshot as its rows. The
// counter is the sum of the company's slots (0182_user_counts_slots.sql); NULL (no row) reads as 0.
const pageTotal = sql<number>`(SELECT sum(${userCounts.live})::int FROM ${userCounts} WHERE ${userCounts.companyId} = ${sql.placeholder('companyId')})`;

/**
 * U1's `status` filters (docs/users.md, "Leavers"): the company's live users that have an exit,
 * before `today` (the Lagos day). The bare range (not exitedSql's coalesce), so that it is an index
 * condition of users_company_exit_date_idx (0202_leavers.sql).
 */
export type ListFilter = 'exited';
const exitedWhere = (companyId: number, today: string) =>
  and(eq(users.companyId, companyId), isNull(users.deletedAt), isNotNull(users.exitDate), sql`${users.exitDate} < ${today}::date`);

/**
 * A filtered page, with the filter's total in the same statement. Not a named prepared statement,
 * and not on the hot-reads pool (which forces generic plans): with the values in hand PostgreSQL
 * reads the few leavers through the partial index and sorts them (0.2 ms for 206 of 100,000 users),
 * where a generic plan walks the primary key and filters (24 ms: docs/users.md, "Leavers").
 */
function filteredPage<T>(
  executor: Executor,
  user: SQL<T>,
  filter: { companyId: number; today: string; offset: number; limit: number },
): Promise<{ user: T; total: number }[]> {
  const where = exitedWhere(filter.companyId, filter.today);
  return executor
    .select({ user, total: sql<number>`(SELECT count(*)::int FROM ${users} WHERE ${where})` })
    .from(users)
    .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
    .leftJoin(manager, eq(manager.id, users.managerId))
    .where(where)
    .orderBy(asc(users.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

// U1's first page takes its ids first too, from users_company_id_idx alone (company, id), then reads
// those users. Walking the users themselves in id order (`ORDER BY id LIMIT`), the generic plan of the
// hot-reads pool chose users_pkey and filtered by company: for a company whose users come after
// everyone else's (a large company that joined late) it read every earlier user first, 22,100 rows
// and 34 ms for the first page of a company of 100,000 (docs/users.md, "Deep pages"); this reads 20
// index entries (0.26 ms) whatever the plan's estimates.
const firstPageIds = sql`ARRAY(SELECT u.id FROM ${users} u WHERE u.company_id = ${sql.placeholder('companyId')} AND u.deleted_at IS NULL
    ORDER BY u.id LIMIT ${sql`${sql.placeholder('limit')}::int`})`;

/**
 * U1's first page (live users of the company by id, the first `limit`) with its total, each user as
 * `user`: prepared as `name` on each executor.
 */
function preparedPageOf(user: SQL, name: string) {
  return preparedPerExecutor((executor) =>
    withArrayRows(
      executor
        .select({ user, total: pageTotal })
        .from(users)
        .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
        .leftJoin(manager, eq(manager.id, users.managerId))
        .where(and(sql`${users.id} = ANY(${firstPageIds})`, eq(users.companyId, sql.placeholder('companyId')), isNull(users.deletedAt)))
        .orderBy(asc(users.id))
        .prepare(name),
    ),
  );
}

// A deep page (docs/users.md, "Deep pages"). `LIMIT .. OFFSET` on the page statement above builds
// every skipped user (joins and JSON) before throwing it away: the last page of 1,000,000 users took
// 36 s. Here the page's ids come first, from users_company_id_idx alone (an index-only scan of
// (company_id, id): no row, no join, no JSON for a skipped user), and only those 20 ids are read.
// A page in the second half of the list is counted from its end, walking the index backwards: the
// company's live count (the counter, read in the same snapshot as the index, so exact) says how many
// ids lie after it. The last page then costs what the first does; the middle one skips total/2 index
// entries (150 ms at 1,000,000 users). Same ids, same order, same answer as the OFFSET.
const liveTotal = sql`coalesce((SELECT sum(${userCounts.live})::int FROM ${userCounts} WHERE ${userCounts.companyId} = ${sql.placeholder('companyId')}), 0)`;
const offsetParam = sql`${sql.placeholder('offset')}::int`;
const limitParam = sql`${sql.placeholder('limit')}::int`;
const pageIds = sql`ARRAY((SELECT u.id FROM ${users} u WHERE u.company_id = ${sql.placeholder('companyId')} AND u.deleted_at IS NULL
    AND ${offsetParam} * 2 <= ${liveTotal} ORDER BY u.id LIMIT ${limitParam} OFFSET ${offsetParam})
  UNION ALL
  (SELECT u.id FROM ${users} u WHERE u.company_id = ${sql.placeholder('companyId')} AND u.deleted_at IS NULL
    AND ${offsetParam} * 2 > ${liveTotal} ORDER BY u.id DESC
    LIMIT greatest(least(${limitParam}, ${liveTotal} - ${offsetParam}), 0) OFFSET greatest(${liveTotal} - ${offsetParam} - ${limitParam}, 0)))`;

/** U1's page after the first (`limit` from `offset`, the same rows as preparedPageOf's) through its ids. */
function preparedDeepPageOf(user: SQL, name: string) {
  return preparedPerExecutor((executor) =>
    withArrayRows(
      executor
        .select({ user, total: pageTotal })
        .from(users)
        .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
        .leftJoin(manager, eq(manager.id, users.managerId))
        .where(and(sql`${users.id} = ANY(${pageIds})`, eq(users.companyId, sql.placeholder('companyId')), isNull(users.deletedAt)))
        .orderBy(asc(users.id))
        .prepare(name),
    ),
  );
}
// The names of a page's users (the console's run pages): one text for any number of ids (an array
// parameter, where `IN ($1, …)` was a statement of its own for each count), prepared on the hot-reads pool.
const preparedNames = namedStatement<{ id: number; firstName: string; lastName: string }>(
  'users_names',
  sql`SELECT id, first_name AS "firstName", last_name AS "lastName" FROM users
      WHERE company_id = ${sql.placeholder('companyId')} AND id = ANY(${sql.placeholder('ids')}::int[]) AND deleted_at IS NULL`,
);
/** U1's JSON text of each user, written by PostgreSQL (users.json.repo.ts): for a PostgreSQL server only (users.service.ts says why). */
const jsonOfUser = (mayGrant: SQL, today: SQL) =>
  userJson({ userTypeName: userTypes.name, managerFirstName: manager.firstName, managerLastName: manager.lastName }, mayGrant, today);
const preparedPage = preparedPageOf(flatUserRowSql, 'users_page_rows');
const preparedDeepPage = preparedDeepPageOf(flatUserRowSql, 'users_deep_page_rows');
// The same pages with only the columns of the console's Employees table (LISTED_FIELDS).
const preparedListedPage = preparedPageOf(listedUserRowSql, 'users_listed_rows');
const preparedListedDeepPage = preparedDeepPageOf(listedUserRowSql, 'users_listed_deep_rows');
// The same pages with each user's place only: their id and the version of what the console's table
// shows of them (their row's, db/row-version.ts, and their type's, whose name it shows), as one text.
const listedPlaceSql = sql<string>`(${users.id}::text || ' ' || ${rowVersion('users')} || '/' || coalesce(user_types.xmin::text, '-'))`;
const preparedListedPlaces = preparedPageOf(listedPlaceSql, 'users_listed_places');
const preparedListedDeepPlaces = preparedDeepPageOf(listedPlaceSql, 'users_listed_deep_places');
// The same pages with each user as the JSON text the API sends, written by PostgreSQL (users.json.repo.ts):
// for a PostgreSQL server only (users.service.ts says why).
const userJsonParam = jsonOfUser(sql`${sql.placeholder('mayGrant')}::boolean`, sql`${sql.placeholder('today')}::date`);
const preparedPageJson = preparedPageOf(userJsonParam, 'users_page_json');
const preparedDeepPageJson = preparedDeepPageOf(userJsonParam, 'users_deep_page_json');
type PreparedPage = ReturnType<typeof preparedPageOf>;
/** A user's place on the console's Employees table: their id and the version of what it shows of them. */
export interface ListedPlace {
  id: number;
  version: string;
}

/**
 * An unfiltered page through one pair of the statements above (the first page's, or the deep one's
 * from `offset`), each user as the pair writes it, with the company's live total. An empty page
 * (past the end, or no users) has no row to carry the total: it is read from the counter.
 */
async function unfilteredPage<U>(
  executor: Executor,
  [first, deep]: readonly [PreparedPage, PreparedPage],
  values: { companyId: number; offset: number; limit: number } & Record<string, unknown>,
): Promise<{ users: U[]; total: number }> {
  const rows = await (values.offset === 0 ? first : deep)(hotReads(executor)).execute(values);
  const total = rows[0]?.[1] as number | null | undefined;
  return { users: rows.map((row) => row[0] as U), total: total ?? (await usersReadRepo.count(executor, values.companyId)) };
}

const preparedCount = preparedPerExecutor((executor) =>
  executor
    .select({ value: sql<number | null>`sum(${userCounts.live})::int` })
    .from(userCounts)
    .where(eq(userCounts.companyId, sql.placeholder('companyId')))
    .prepare('users_count'),
);
const preparedOne = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select({ row: flatUserRowSql })
      .from(users)
      .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
      .leftJoin(manager, eq(manager.id, users.managerId))
      .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('id')), isNull(users.deletedAt)))
      .limit(1)
      .prepare('users_show_row'),
  ),
);

export const usersReadRepo = {
  /** The company's live users (the counter of 0140_user_counts.sql). */
  async count(executor: Executor, companyId: number): Promise<number> {
    const [row] = await preparedCount(executor).execute({ companyId });
    return row?.value ?? 0;
  },

  /**
   * U1's page (live users of the company by id, or only those of `filter`) and its total, in one
   * statement. An empty page (past the end, or no users) has no row to carry the total: it is read
   * on its own. `today` is the Lagos day the `exited` filter compares with.
   */
  async page(
    executor: Executor,
    companyId: number,
    offset: number,
    limit: number,
    options: { filter?: ListFilter; today?: string } = {},
  ): Promise<{ rows: UserFlatRow[]; total: number }> {
    if (options.filter) {
      const today = options.today ?? lagosDate();
      const rows = await filteredPage(executor, flatUserRowSql, { companyId, today, offset, limit });
      return { rows: rows.map((row) => row.user), total: rows[0]?.total ?? (await usersReadRepo.total(executor, companyId, options)) };
    }
    const { users, total } = await unfilteredPage<UserFlatRow>(executor, [preparedPage, preparedDeepPage], { companyId, offset, limit });
    return { rows: users, total };
  },

  /** `page` without a filter, each user as the columns of the console's Employees table (LISTED_FIELDS' order). */
  async listedPage(executor: Executor, companyId: number, offset: number, limit: number): Promise<{ rows: UserFlatRow[]; total: number }> {
    const { users, total } = await unfilteredPage<UserFlatRow>(executor, [preparedListedPage, preparedListedDeepPage], {
      companyId,
      offset,
      limit,
    });
    return { rows: users, total };
  },

  /** `listedPage`'s users as their places (id and version), with the total: the console keeps the rows it drew (web/employee-rows.service.ts). */
  async listedPlaces(
    executor: Executor,
    companyId: number,
    offset: number,
    limit: number,
  ): Promise<{ places: ListedPlace[]; total: number }> {
    const { users: texts, total } = await unfilteredPage<string>(executor, [preparedListedPlaces, preparedListedDeepPlaces], {
      companyId,
      offset,
      limit,
    });
    const places = texts.map((text) => {
      const space = text.indexOf(' ');
      return { id: Number(text.slice(0, space)), version: text.slice(space + 1) };
    });
    return { places, total };
  },

  /**
   * U1's page as `page` reads it, each user already the JSON text of its User object (users.json.repo.ts),
   * for a viewer who may (`mayGrant`) or may not see console users' onboarding tokens.
   */
  async pageJson(
    executor: Executor,
    companyId: number,
    offset: number,
    limit: number,
    mayGrant: boolean,
    options: { filter?: ListFilter; today?: string } = {},
  ): Promise<{ users: string[]; total: number }> {
    const today = options.today ?? lagosDate();
    if (options.filter) {
      const rows = await filteredPage(executor, jsonOfUser(sql`${mayGrant}::boolean`, sql`${today}::date`), {
        companyId,
        today,
        offset,
        limit,
      });
      return { users: rows.map((row) => row.user), total: rows[0]?.total ?? (await usersReadRepo.total(executor, companyId, options)) };
    }
    return unfilteredPage<string>(executor, [preparedPageJson, preparedDeepPageJson], { companyId, offset, limit, mayGrant, today });
  },

  /** The total of an empty page: the company's live users, or those of the filter. */
  async total(executor: Executor, companyId: number, options: { filter?: ListFilter; today?: string }): Promise<number> {
    if (!options.filter) return usersReadRepo.count(executor, companyId);
    const [row] = await executor
      .select({ value: count() })
      .from(users)
      .where(exitedWhere(companyId, options.today ?? lagosDate()));
    return row?.value ?? 0;
  },

  /** U2: one live user of the company. */
  async one(executor: Executor, companyId: number, id: number): Promise<UserFlatRow | undefined> {
    const [row] = await preparedOne(hotReads(executor)).execute({ companyId, id });
    return row?.[0] as UserFlatRow | undefined;
  },

  /** The names of these live users of the company (U2's users), by their keys. */
  async names(
    executor: Executor,
    companyId: number,
    ids: readonly number[],
  ): Promise<{ id: number; firstName: string; lastName: string }[]> {
    return preparedNames(hotReads(executor), { companyId, ids: pgArray(ids) });
  },

  /** U1's statement as PostgreSQL receives it, with its parameters' names in order (bench). */
  pageStatement(executor: Executor): { text: string; params: string[] } {
    const query = preparedPageJson(executor).getQuery();
    return { text: query.sql, params: query.params.map((param) => (param as { name: string }).name) };
  },
};
