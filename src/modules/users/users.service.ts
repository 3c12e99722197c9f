import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { usersReadRepo } from './users.read.repo.js';
import { serializeUserRow } from './users.serializer.js';

export const USER_NOT_FOUND = 'User not found.';

export interface ListPaging {
  startIndex?: number;
  count?: number;
  page?: number;
  per_page?: number;
}

/** SCIM `startIndex`/`count` or `page`/`per_page` (decisions.md §5); default 100, at most 1000. */
export function pagingWindow(paging: ListPaging): { offset: number; limit: number; startIndex: number } {
  const limit = paging.count ?? paging.per_page ?? 100;
  if (paging.startIndex !== undefined) {
    return { offset: paging.startIndex - 1, limit, startIndex: paging.startIndex };
  }
  const page = paging.page ?? 1;
  const offset = (page - 1) * limit;
  return { offset, limit, startIndex: offset + 1 };
}

export function createUsersService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** `mayGrantConsoleAccess`: the caller's token has `all` (see serializeUserRow). */
    async list(companyId: number, paging: ListPaging, mayGrantConsoleAccess = false) {
      if (paging.startIndex !== undefined && paging.page !== undefined) {
        throw badRequest('Use either startIndex/count or page/per_page, not both.');
      }
      const { offset, limit, startIndex } = pagingWindow(paging);
      const { rows, total } = await usersReadRepo.page(db, companyId, offset, limit);
      return {
        Resources: rows.map((row) => serializeUserRow(row, mayGrantConsoleAccess)),
        totalResults: total,
        startIndex,
        itemsPerPage: rows.length,
      };
    },

    async show(companyId: number, id: number, mayGrantConsoleAccess = false) {
      const row = await usersReadRepo.one(db, companyId, id);
      if (!row) throw notFound(USER_NOT_FOUND);
      return serializeUserRow(row, mayGrantConsoleAccess);
    },
  };
}
