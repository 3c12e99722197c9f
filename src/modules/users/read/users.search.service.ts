// Employee search for the web console (added by the console work; not an /api endpoint): one
// company's non-deleted users whose name, e-mails or employee id contain the text, optionally by
// status, paged, with the total. Company id first, like every users query.
import type { Db } from '../../../db/client.js';
import { lagosDate } from '../../../platform/format.js';
import { type ListedUserRow, serializeListedRow, serializeUser } from '../users.serializer.js';
import { usersReadRepo } from './users.read.repo.js';
import { type SearchSort, searchRepo, type UserStatus } from './users.search.repo.js';

export interface UserSearch {
  q?: string;
  status?: UserStatus;
  sort?: SearchSort;
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export function createUserSearch(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** A page of the console's Employees table: each user as the table's fields (ListedUserRow), and the total. */
    async search(companyId: number, input: UserSearch): Promise<{ users: ListedUserRow[]; total: number }> {
      const text = input.q?.trim().slice(0, 100);
      // One Lagos day for the whole page: the status filter and every user's is_active agree.
      const today = lagosDate();
      // The console's first view, and its pages (no text, no status, by id ascending), is U1's page
      // with only the table's columns: one prepared statement for the users and the total, where
      // the search below sends two (the page through Drizzle, and the count) on two connections
      // (docs/console.md, "Overview pages").
      if (isListedView(input)) {
        const page = await usersReadRepo.listedPage(db, companyId, input.offset, input.limit);
        return { users: page.rows.map((row) => serializeListedRow(row, today)), total: page.total };
      }
      const { rows, total } = await searchRepo.search(db, companyId, {
        text,
        status: input.status,
        sort: input.sort,
        order: input.order,
        offset: input.offset,
        limit: input.limit,
        today,
      });
      // The console list does not show managers, so their names are not joined.
      const data = rows.map((row) => serializeUser({ ...row, managerFirstName: null, managerLastName: null }, false, today));
      return { users: data, total };
    },

    /** The places (id and version) of `search`'s users in the table's first view (isListedView), and the total. */
    listedPlaces(companyId: number, offset: number, limit: number) {
      return usersReadRepo.listedPlaces(db, companyId, offset, limit);
    },
  };
}

/** Whether a search is the Employees table's first view and its pages: no text, no status, by id ascending. */
export function isListedView(input: Omit<UserSearch, 'offset' | 'limit'>): boolean {
  return !input.q?.trim() && !input.status && !input.sort && input.order !== 'desc';
}
