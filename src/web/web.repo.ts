// All SQL of the console's own tables (sessions, failed sign-ins) and the one read it needs from
// users for sign-in. Everything else the console shows comes from the features' services.
import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { companies, users, webLoginFailures, webSessions } from '../db/schema/index.js';

export interface SessionRow {
  id: number;
  csrfToken: string;
  userId: number;
  companyId: number;
  lastSeenAt: Date;
  expiresAt: Date;
  firstName: string;
  lastName: string;
  email: string;
  roles: string[];
  userActive: boolean;
  userSuspended: boolean;
  userDeletedAt: Date | null;
  companyName: string;
  companyActive: boolean;
  companyApiAccess: boolean;
}

export const webRepo = {
  async insertSession(
    executor: Executor,
    companyId: number,
    values: { tokenHash: string; csrfToken: string; userId: number; expiresAt: Date },
  ): Promise<void> {
    await executor.insert(webSessions).values({ ...values, companyId });
  },

  /** The live session of a cookie, with what every page needs about its user and company. */
  async findSession(executor: Executor, tokenHash: string): Promise<SessionRow | undefined> {
    const [row] = await executor
      .select({
        id: webSessions.id,
        csrfToken: webSessions.csrfToken,
        userId: webSessions.userId,
        companyId: webSessions.companyId,
        lastSeenAt: webSessions.lastSeenAt,
        expiresAt: webSessions.expiresAt,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        roles: users.roles,
        userActive: users.isActive,
        userSuspended: users.isSuspended,
        userDeletedAt: users.deletedAt,
        companyName: companies.name,
        companyActive: companies.isActive,
        companyApiAccess: companies.apiAccess,
      })
      .from(webSessions)
      .innerJoin(users, eq(users.id, webSessions.userId))
      .innerJoin(companies, eq(companies.id, webSessions.companyId))
      .where(and(eq(webSessions.tokenHash, tokenHash), gt(webSessions.expiresAt, sql`now()`)))
      .limit(1);
    return row;
  },

  async touchSession(executor: Executor, companyId: number, id: number, at: Date): Promise<void> {
    await executor
      .update(webSessions)
      .set({ lastSeenAt: at })
      .where(and(eq(webSessions.companyId, companyId), eq(webSessions.id, id)));
  },

  async deleteSessionByHash(executor: Executor, tokenHash: string): Promise<void> {
    await executor.delete(webSessions).where(eq(webSessions.tokenHash, tokenHash));
  },

  /** Housekeeping on sign-in: a user's expired sessions go, so the table does not grow forever. */
  async deleteExpiredSessions(executor: Executor, companyId: number, userId: number): Promise<void> {
    await executor
      .delete(webSessions)
      .where(and(eq(webSessions.companyId, companyId), eq(webSessions.userId, userId), lt(webSessions.expiresAt, sql`now()`)));
  },

  /**
   * Bounded housekeeping on every sign-in, across companies by nature: sessions past their hard
   * expiry and failures older than the throttle window, at most `limit` rows of each per call.
   */
  async prune(executor: Executor, windowSeconds: number, limit = 200): Promise<void> {
    await executor.execute(
      sql`DELETE FROM web_sessions WHERE id IN (SELECT id FROM web_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT ${limit})`,
    );
    await executor.execute(
      sql`DELETE FROM web_login_failures WHERE id IN (SELECT id FROM web_login_failures WHERE created_at < now() - make_interval(secs => ${windowSeconds}) ORDER BY created_at LIMIT ${limit})`,
    );
  },

  /** Non-deleted users with a password whose company or personal e-mail is `identifier`. */
  async signInCandidates(executor: Executor, identifier: string) {
    const lowered = identifier.toLowerCase();
    return executor
      .select({
        id: users.id,
        companyId: users.companyId,
        passwordHash: users.passwordHash,
        roles: users.roles,
        isActive: users.isActive,
        isSuspended: users.isSuspended,
        companyActive: companies.isActive,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(
        and(
          sql`${users.deletedAt} IS NULL`,
          sql`${users.passwordHash} IS NOT NULL`,
          or(sql`lower(${users.email}) = ${lowered}`, sql`lower(${users.personalEmail}) = ${lowered}`),
        ),
      )
      .orderBy(asc(users.id))
      .limit(10);
  },

  async countFailures(
    executor: Executor,
    keyHashes: string[],
    windowSeconds: number,
  ): Promise<Record<string, { count: number; oldest: Date | null }>> {
    const rows = await executor
      .select({
        keyHash: webLoginFailures.keyHash,
        count: sql<number>`count(*)::int`,
        oldest: sql<Date | string | null>`min(${webLoginFailures.createdAt})`,
      })
      .from(webLoginFailures)
      .where(
        and(
          inArray(webLoginFailures.keyHash, keyHashes),
          gt(webLoginFailures.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
        ),
      )
      .groupBy(webLoginFailures.keyHash);
    const out: Record<string, { count: number; oldest: Date | null }> = {};
    for (const row of rows) out[row.keyHash] = { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest) : null };
    return out;
  },

  async recordFailure(executor: Executor, keyHashes: string[], windowSeconds: number): Promise<void> {
    await executor.insert(webLoginFailures).values(keyHashes.map((keyHash) => ({ keyHash })));
    // Rows older than the window never count again.
    await executor
      .delete(webLoginFailures)
      .where(
        and(
          inArray(webLoginFailures.keyHash, keyHashes),
          lt(webLoginFailures.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
        ),
      );
  },

  async clearFailures(executor: Executor, keyHash: string): Promise<void> {
    await executor.delete(webLoginFailures).where(eq(webLoginFailures.keyHash, keyHash));
  },
};
