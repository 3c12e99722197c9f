// The console's employee search (read/users.search.service.ts; not an /api endpoint): one company's
// live users by text and standing, a page of them and the total.
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { users, userTypes } from '../../../db/schema/index.js';
import { lagosDate } from '../../../platform/format.js';
import { exitedSql } from '../lifecycle/users.exit.repo.js';
import type { UserRow } from '../users.repo.js';
import { usersReadRepo } from './users.read.repo.js';

/** `%text%` for ILIKE with the user's % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The console's employee filter (web: Employees), by standing; `exited` wins over the others (docs/users.md, "Leavers"). */
export const USER_STATUSES = ['active', 'invited', 'inactive', 'suspended', 'exited'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

function statusCondition(status: UserStatus | undefined, today: string): SQL | undefined {
  const stillEmployed = sql`NOT ${exitedSql(users.exitDate, today)}`;
  switch (status) {
    case 'exited':
      // The bare range: an index condition of users_company_exit_date_idx (0202_leavers.sql).
      return and(isNotNull(users.exitDate), sql`${users.exitDate} < ${today}::date`);
    case 'suspended':
      return and(eq(users.isSuspended, true), stillEmployed);
    case 'active':
      return and(eq(users.isActive, true), eq(users.isSuspended, false), stillEmployed);
    case 'invited':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, false), eq(users.isSuspended, false), stillEmployed);
    case 'inactive':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, true), eq(users.isSuspended, false), stillEmployed);
    default:
      return undefined;
  }
}

/** The console list's sort keys; each has an index of 0263 behind it (company, key, id). */
export const SEARCH_SORTS = ['employee_id', 'name'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** ORDER BY of a sort: by id when none (the order employees were added), the id breaking ties. */
function searchOrder(sort: SearchSort | undefined, order: 'asc' | 'desc' = 'asc'): SQL[] {
  const by = order === 'desc' ? desc : asc;
  if (sort === 'name') return [by(users.lastName), by(users.firstName), by(users.id)];
  if (sort === 'employee_id') return [by(users.employeeId), by(users.id)];
  return [by(users.id)];
}

/** The ids of an unfiltered page by id, from the index (company, id) alone: no row is read for a skipped user. */
function pageIds(companyId: number, page: { order?: 'asc' | 'desc'; offset: number; limit: number }): SQL {
  const direction = page.order === 'desc' ? sql`DESC` : sql`ASC`;
  return sql`ARRAY(SELECT u.id FROM ${users} u WHERE u.company_id = ${companyId} AND u.deleted_at IS NULL
    ORDER BY u.id ${direction} LIMIT ${page.limit} OFFSET ${page.offset})`;
}

export const searchRepo = {
  /**
   * The console's employee search: live users whose name, e-mails or employee id contain `text`,
   * optionally of one status, a page of them by id and the total (two statements). The console
   * list does not show managers, so their names are not joined.
   */
  async search(
    executor: Executor,
    companyId: number,
    filter: {
      text?: string;
      status?: UserStatus;
      sort?: SearchSort;
      order?: 'asc' | 'desc';
      offset: number;
      limit: number;
      today?: string;
    },
  ): Promise<{ rows: { user: UserRow; userTypeName: string | null }[]; total: number }> {
    const pattern = filter.text ? containsPattern(filter.text) : undefined;
    const where = and(
      eq(users.companyId, companyId),
      isNull(users.deletedAt),
      pattern
        ? or(
            ilike(users.firstName, pattern),
            ilike(users.lastName, pattern),
            sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${pattern}`,
            ilike(users.email, pattern),
            ilike(users.personalEmail, pattern),
            ilike(users.employeeId, pattern),
          )
        : undefined,
      statusCondition(filter.status, filter.today ?? lagosDate()),
    );
    // Unfiltered and by id (the console's first view reads U1's statement instead, users.search.service.ts;
    // this serves the view newest first), the page's ids come first from
    // users_company_id_idx alone, as U1's pages do (users.read.repo.ts): walking the users in id
    // order, PostgreSQL went by users_pkey and read every user of the companies added before this
    // one (11.6 ms of database CPU a view for a company of 100,000 that joined after 22,100 others).
    const idsFirst = !pattern && !filter.status && !filter.sort;
    const [rows, total] = await Promise.all([
      executor
        .select({ user: users, userTypeName: userTypes.name })
        .from(users)
        .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
        .where(idsFirst ? and(where, sql`${users.id} = ANY(${pageIds(companyId, filter)})`) : where)
        .orderBy(...searchOrder(filter.sort, filter.order))
        .offset(idsFirst ? 0 : filter.offset)
        .limit(filter.limit),
      pattern || filter.status
        ? executor
            .select({ total: count() })
            .from(users)
            .where(where)
            .then(([row]) => Number(row.total))
        : usersReadRepo.count(executor, companyId),
    ]);
    return { rows, total };
  },
};
