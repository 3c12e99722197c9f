// The SQL of the console's Administrators page (docs/console.md, "Administrators"): who holds a
// console role, the defaults an invitation takes (the company's primary domain, its first user
// type), and the roles change. Callers lock the user row first (usersRepo.lockById) and decide.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import { companies, users, userTypes } from '../../../db/schema/index.js';
import { CONSOLE_ROLES } from '../../../platform/auth/console-access.js';

export interface AdminRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  personalEmail: string;
  employeeId: string | null;
  roles: string[];
  isActive: boolean;
  isSuspended: boolean;
  onboardingCompleted: boolean;
  exitDate: string | null;
}

export const adminsRepo = {
  /** Live users holding a console role, oldest first (the `roles` array is small: no index needed beyond company_id). */
  async list(executor: Executor, companyId: number, limit = 200): Promise<AdminRow[]> {
    return executor
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        personalEmail: users.personalEmail,
        employeeId: users.employeeId,
        roles: users.roles,
        isActive: users.isActive,
        isSuspended: users.isSuspended,
        onboardingCompleted: users.onboardingCompleted,
        exitDate: users.exitDate,
      })
      .from(users)
      .where(and(eq(users.companyId, companyId), isNull(users.deletedAt), sql`${users.roles} && ${pgArray([...CONSOLE_ROLES])}::text[]`))
      .orderBy(asc(users.id))
      .limit(limit);
  },

  /** The primary e-mail domain and the first user type: what an invitation uses when none is chosen. */
  async inviteDefaults(executor: Executor, companyId: number): Promise<{ domain: string; userType: string | null } | undefined> {
    const [row] = await executor
      .select({
        domain: companies.domain,
        userType: sql<
          string | null
        >`(SELECT ${userTypes.name} FROM ${userTypes} WHERE ${userTypes.companyId} = ${companies.id} ORDER BY ${userTypes.id} LIMIT 1)`,
      })
      .from(companies)
      .where(eq(companies.id, companyId));
    return row;
  },

  async setRoles(executor: Executor, companyId: number, id: number, roles: string[]): Promise<void> {
    await executor
      .update(users)
      .set({ roles, updatedAt: sql`now()` })
      .where(and(eq(users.companyId, companyId), eq(users.id, id)));
  },
};
