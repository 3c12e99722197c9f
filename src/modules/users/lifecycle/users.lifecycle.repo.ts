// The SQL of a user's life after creation: activation, deactivation, deletion, suspension and the
// onboarding link. Company id first (the onboarding link is found by its token alone). Callers
// lock the row first (usersRepo.lockById) and decide; these statements only write.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';
import { exitedSql } from './users.exit.repo.js';

/** What ending a suspension writes: roles come back from `suspended_roles` when they were cleared. */
const endAssignments = {
  isSuspended: false,
  suspendedAt: null,
  suspensionEndsAt: null,
  suspensionReason: null,
  roles: sql`COALESCE(${users.suspendedRoles}, ${users.roles})`,
  suspendedRoles: null,
  updatedAt: sql`now()`,
};

const ofCompany = (companyId: number, id: number) => and(eq(users.companyId, companyId), eq(users.id, id));

/** Only a live (not deleted), not yet onboarded user matches its token. */
const onboardingToken = (token: string) =>
  and(eq(users.onboardingToken, token), isNull(users.deletedAt), eq(users.onboardingCompleted, false));

export interface Suspension {
  /** When the user was first suspended; null: now. */
  since: Date | null;
  endsAt: Date | null;
  reason: string | null;
  /** The roles to hold while suspended (absent: unchanged), and those to restore at the end. */
  roles?: string[];
  suspendedRoles?: string[];
}

export const lifecycleRepo = {
  /**
   * Whether another live, active user of the company is a super-admin: not exited by `today`, and,
   * with `notLeaving`, with no exit recorded at all (docs/users.md, "Leavers").
   */
  async otherActiveSuperAdmin(
    executor: Executor,
    companyId: number,
    userId: number,
    today: string,
    options: { notLeaving?: boolean } = {},
  ): Promise<boolean> {
    const [other] = await executor
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          ne(users.id, userId),
          isNull(users.deletedAt),
          eq(users.isActive, true),
          sql`'super-admin' = ANY(${users.roles})`,
          options.notLeaving ? isNull(users.exitDate) : sql`NOT ${exitedSql(users.exitDate, today)}`,
        ),
      )
      .limit(1);
    return other !== undefined;
  },

  async activate(executor: Executor, companyId: number, id: number): Promise<void> {
    await executor
      .update(users)
      .set({ isActive: true, onboardingCompleted: true, onboardingToken: null, tokenExpiresAt: null, updatedAt: sql`now()` })
      .where(ofCompany(companyId, id));
  },

  /** Also revokes the invitation: an old onboarding link never brings the user back. */
  async deactivate(executor: Executor, companyId: number, id: number): Promise<void> {
    await executor
      .update(users)
      .set({ isActive: false, onboardingToken: null, tokenExpiresAt: null, updatedAt: sql`now()` })
      .where(ofCompany(companyId, id));
  },

  /** Soft delete (two statements): the user loses roles, documents and token; their reports lose their manager. */
  async softDelete(executor: Executor, companyId: number, id: number): Promise<void> {
    await executor
      .update(users)
      .set({
        deletedAt: sql`now()`,
        isActive: false,
        roles: [],
        suspendedRoles: null,
        documentPaths: null,
        onboardingToken: null,
        tokenExpiresAt: null,
        updatedAt: sql`now()`,
      })
      .where(ofCompany(companyId, id));
    await executor
      .update(users)
      .set({ managerId: null, updatedAt: sql`now()` })
      .where(and(eq(users.companyId, companyId), eq(users.managerId, id)));
  },

  async suspend(executor: Executor, companyId: number, id: number, suspension: Suspension): Promise<void> {
    const { since, endsAt, reason, roles, suspendedRoles } = suspension;
    await executor
      .update(users)
      .set({
        isSuspended: true,
        suspendedAt: since ?? sql`now()`,
        suspensionEndsAt: endsAt,
        suspensionReason: reason,
        ...(suspendedRoles !== undefined ? { suspendedRoles } : {}),
        ...(roles !== undefined ? { roles } : {}),
        updatedAt: sql`now()`,
      })
      .where(ofCompany(companyId, id));
  },

  async endSuspension(executor: Executor, companyId: number, id: number): Promise<void> {
    await executor.update(users).set(endAssignments).where(ofCompany(companyId, id));
  },

  async moveSuspensionEnd(executor: Executor, companyId: number, id: number, endsAt: Date): Promise<void> {
    await executor.update(users).set({ suspensionEndsAt: endsAt, updatedAt: sql`now()` }).where(ofCompany(companyId, id));
  },

  /** Ends the suspension only if it still ends exactly at `endsAt` (ISO) and that time has come. */
  async endDueSuspension(executor: Executor, companyId: number, id: number, endsAt: string): Promise<boolean> {
    const ended = await executor
      .update(users)
      .set(endAssignments)
      .where(
        and(
          eq(users.id, id),
          eq(users.companyId, companyId),
          isNull(users.deletedAt),
          eq(users.isSuspended, true),
          // Millisecond precision: the scheduled time went through a JS Date.
          sql`date_trunc('milliseconds', ${users.suspensionEndsAt}) = date_trunc('milliseconds', ${endsAt}::timestamptz)`,
          sql`${users.suspensionEndsAt} <= now()`,
        ),
      )
      .returning({ id: users.id });
    return ended.length > 0;
  },

  /** The user an onboarding token belongs to, and whether the link has expired. */
  async findByOnboardingToken(executor: Executor, token: string) {
    const [row] = await executor
      .select({
        userId: users.id,
        companyId: users.companyId,
        firstName: users.firstName,
        email: users.email,
        expired: sql<boolean>`coalesce(${users.tokenExpiresAt} <= now(), true)`,
      })
      .from(users)
      .where(onboardingToken(token))
      .limit(1);
    return row;
  },

  /**
   * Completes onboarding in one conditional UPDATE, only while the token matches and has not
   * expired; undefined when it did not (the caller finds out why).
   */
  async completeOnboarding(executor: Executor, token: string, passwordHash: string) {
    const [updated] = await executor
      .update(users)
      .set({
        passwordHash,
        isActive: true,
        onboardingCompleted: true,
        emailVerifiedAt: sql`now()`,
        onboardingToken: null,
        tokenExpiresAt: null,
        updatedAt: sql`now()`,
      })
      .where(and(onboardingToken(token), sql`${users.tokenExpiresAt} > now()`))
      .returning({ userId: users.id, companyId: users.companyId });
    return updated;
  },
};

/**
 * For the leavers module: whether another live, active super-admin has no exit recorded, so the
 * company keeps one after this user leaves (docs/users.md, "Leavers").
 */
export const superAdminStays = (executor: Executor, companyId: number, userId: number): Promise<boolean> =>
  lifecycleRepo.otherActiveSuperAdmin(executor, companyId, userId, '', { notLeaving: true });
