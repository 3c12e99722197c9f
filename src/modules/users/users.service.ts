import { type Db, onDatabaseServer } from '../../db/client.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { lagosDate } from '../../platform/format.js';
import { pageOffset } from '../../platform/paginator.js';
import { type ListFilter, usersReadRepo } from './read/users.read.repo.js';
import { serializeUserRow } from './users.serializer.js';

export const USER_NOT_FOUND = 'User not found.';

export interface ListPaging {
  startIndex?: number;
  count?: number;
  page?: number;
  per_page?: number;
}

/** U1's filters (docs/users.md, "Leavers"): `status=exited` only, the one status with an index. */
export const LIST_STATUSES = ['exited'] as const satisfies readonly ListFilter[];
export interface ListQuery extends ListPaging {
  status?: (typeof LIST_STATUSES)[number];
}

/** SCIM `startIndex`/`count` or `page`/`per_page` (docs/users.md, "The users rules"); default 100, at most 1000. */
export function pagingWindow(paging: ListPaging): { offset: number; limit: number; startIndex: number } {
  const limit = paging.count ?? paging.per_page ?? 100;
  if (paging.startIndex !== undefined) {
    return { offset: paging.startIndex - 1, limit, startIndex: paging.startIndex };
  }
  const page = paging.page ?? 1;
  const offset = pageOffset(page, limit);
  return { offset, limit, startIndex: offset + 1 };
}

/**
 * U1's answer as the JSON text the API sends: the users' texts in the list's envelope, keys in the
 * order of the route's response schema.
 */
export function userListJson(users: readonly string[], total: number, startIndex: number): string {
  return `{"Resources":[${users.join(',')}],"totalResults":${total},"startIndex":${startIndex},"itemsPerPage":${users.length}}`;
}

function pageOf(paging: ListPaging) {
  if (paging.startIndex !== undefined && paging.page !== undefined) {
    throw badRequest('Use either startIndex/count or page/per_page, not both.');
  }
  return pagingWindow(paging);
}

export function createUsersService(deps: { db: Db }) {
  const { db } = deps;
  /** U1's answer as an object (the console). `mayGrantConsoleAccess`: the caller's token has `all` (see serializeUserRow). */
  async function list(companyId: number, query: ListQuery, mayGrantConsoleAccess = false) {
    const { offset, limit, startIndex } = pageOf(query);
    // One Lagos day for the whole page: the filter and every user's is_active agree.
    const today = lagosDate();
    const { rows, total } = await usersReadRepo.page(db, companyId, offset, limit, { filter: query.status, today });
    return {
      Resources: rows.map((row) => serializeUserRow(row, mayGrantConsoleAccess, today)),
      totalResults: total,
      startIndex,
      itemsPerPage: rows.length,
    };
  }

  return {
    list,

    /**
     * U1's answer: on a PostgreSQL server the JSON text, written by PostgreSQL, of the document `list`
     * answers (the same bytes the route's serializer writes for it); elsewhere that object.
     */
    async listForApi(companyId: number, query: ListQuery, mayGrantConsoleAccess = false) {
      // Who writes each user's JSON text. A PostgreSQL server writes it while it reads the row
      // (users.json.repo.ts): that work then runs on the database's core, not on this process's single
      // thread, which bounds the list's throughput (server CPU per 20-user page 0.28 -> 0.19-0.24
      // ms; list 0.27 -> 0.28-0.30 of the ceiling, docs/benchmarks.md). PGlite runs on this thread,
      // in WASM, slower than V8 (the list fell 602 -> 482 req/s that way), so there the route's
      // serializer writes it.
      if (!onDatabaseServer(db)) return list(companyId, query, mayGrantConsoleAccess);
      const { offset, limit, startIndex } = pageOf(query);
      const { users, total } = await usersReadRepo.pageJson(db, companyId, offset, limit, mayGrantConsoleAccess, {
        filter: query.status,
        today: lagosDate(),
      });
      return userListJson(users, total, startIndex);
    },

    async show(companyId: number, id: number, mayGrantConsoleAccess = false) {
      const row = await usersReadRepo.one(db, companyId, id);
      if (!row) throw notFound(USER_NOT_FOUND);
      return serializeUserRow(row, mayGrantConsoleAccess);
    },

    /** "First Last" of each of these live users of the company (those U2 shows), by id, in one statement; other ids are absent. */
    async names(companyId: number, ids: readonly number[]): Promise<Map<number, string>> {
      const rows = ids.length === 0 ? [] : await usersReadRepo.names(db, companyId, ids);
      return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`]));
    },
  };
}
