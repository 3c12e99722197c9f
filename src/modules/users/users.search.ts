// Employee search for the web console (added by the console work, issue 7; not an /api endpoint):
// one company's non-deleted users whose name, e-mails or employee id contain the text, optionally
// by status, paged, with the total. Company id first, like every users query.
import { and, asc, count, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, userTypes } from '../../db/schema/index.js';
import { serializeUser } from './users.serializer.js';

export const USER_STATUSES = ['active', 'invited', 'inactive', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface UserSearch {
  q?: string;
  status?: UserStatus;
  offset: number;
  limit: number;
}

/** `%text%` for ILIKE with the user's % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function statusCondition(status: UserStatus | undefined): SQL | undefined {
  switch (status) {
    case 'suspended':
      return eq(users.isSuspended, true);
    case 'active':
      return and(eq(users.isActive, true), eq(users.isSuspended, false));
    case 'invited':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, false), eq(users.isSuspended, false));
    case 'inactive':
      return and(eq(users.isActive, false), eq(users.onboardingCompleted, true), eq(users.isSuspended, false));
    default:
      return undefined;
  }
}

export function createUserSearch(deps: { db: Db }) {
  const { db } = deps;
  return {
    async search(companyId: number, input: UserSearch) {
      const text = input.q?.trim().slice(0, 100);
      const pattern = text ? containsPattern(text) : undefined;
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
        statusCondition(input.status),
      );
      const [rows, [{ total }]] = await Promise.all([
        db
          .select({ user: users, userTypeName: userTypes.name })
          .from(users)
          .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
          .where(where)
          .orderBy(asc(users.id))
          .offset(input.offset)
          .limit(input.limit),
        db.select({ total: count() }).from(users).where(where),
      ]);
      // The console list does not show managers, so their names are not joined.
      const data = rows.map((row) => serializeUser({ ...row, managerFirstName: null, managerLastName: null }));
      return { users: data, total: Number(total) };
    },
  };
}
