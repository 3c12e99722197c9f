// All SQL of the console's own tables (sessions, failed sign-ins) and the one read sign-in needs
// from users. Everything else the console shows comes from the features' services.
import { and, asc, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { preparedPerExecutor } from '../../db/prepared.js';
import { authGeneration, companies, users, webLoginFailures, webSessions } from '../../db/schema/index.js';
import { CONSOLE_ROLES } from '../../platform/auth/console-access.js';
import { exitedSql } from '../users/index.js';

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
  /** The user's last day of employment; exited (no console) from the day after (docs/users.md, "Leavers"). */
  userExitDate: string | null;
  companyName: string;
  companyActive: boolean;
  companyApiAccess: boolean;
}

export interface LoginCounter {
  attempts: number;
  windowStart: Date;
}

/**
 * The read every console page starts with when its session is not cached (console-sessions.service.ts),
 * prepared once per executor (db/prepared.ts): Drizzle built this select's text on every view (0.1 ms
 * of CPU) and PostgreSQL planned its join. It brings the authentication generation (migrations 0269,
 * 0273) from the same snapshot, so a cached session is as new as the generation it came with
 * (docs/decisions.md, "Console sessions cached"); the generation's one row is the outer side, so an
 * unknown cookie still brings it.
 *
 * The session is read by its hash, and its user and company each by their primary key, in LATERAL
 * subqueries with a LIMIT, which PostgreSQL cannot turn back into a plain join. As a plain join, on
 * statistics that had seen only the sessions of earlier (lower) user ids, its generic plan was a
 * merge join that walked `users_pkey` from the first user up to the session's: 10,051 users read a
 * view for the admin of a company created after one of 10,000 employees, 3.8 ms of the database's
 * CPU against 0.8 for the company before it (docs/console.md, "Overview pages").
 */
const preparedSession = preparedPerExecutor((executor) => {
  const session = executor
    .select({
      id: webSessions.id,
      csrfToken: webSessions.csrfToken,
      userId: webSessions.userId,
      companyId: webSessions.companyId,
      lastSeenAt: webSessions.lastSeenAt,
      expiresAt: webSessions.expiresAt,
    })
    .from(webSessions)
    .where(and(eq(webSessions.tokenHash, sql.placeholder('tokenHash')), gt(webSessions.expiresAt, sql`now()`)))
    .limit(1)
    .as('console_session');
  const sessionUser = executor
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      roles: users.roles,
      isActive: users.isActive,
      isSuspended: users.isSuspended,
      deletedAt: users.deletedAt,
      exitDate: users.exitDate,
    })
    .from(users)
    .where(eq(users.id, session.userId))
    .limit(1)
    .as('session_user');
  const sessionCompany = executor
    .select({ name: companies.name, isActive: companies.isActive, apiAccess: companies.apiAccess })
    .from(companies)
    .where(eq(companies.id, session.companyId))
    .limit(1)
    .as('session_company');
  return executor
    .select({
      generation: authGeneration.generation,
      id: session.id,
      csrfToken: session.csrfToken,
      userId: session.userId,
      companyId: session.companyId,
      lastSeenAt: session.lastSeenAt,
      expiresAt: session.expiresAt,
      firstName: sessionUser.firstName,
      lastName: sessionUser.lastName,
      email: sessionUser.email,
      roles: sessionUser.roles,
      userActive: sessionUser.isActive,
      userSuspended: sessionUser.isSuspended,
      userDeletedAt: sessionUser.deletedAt,
      userExitDate: sessionUser.exitDate,
      companyName: sessionCompany.name,
      companyActive: sessionCompany.isActive,
      companyApiAccess: sessionCompany.apiAccess,
    })
    .from(authGeneration)
    .leftJoinLateral(session, sql`true`)
    .leftJoinLateral(sessionUser, sql`true`)
    .leftJoinLateral(sessionCompany, sql`true`)
    .where(eq(authGeneration.id, 1))
    .limit(1)
    .prepare('console_session_by_hash');
});

export const consoleSessionsRepo = {
  async insertSession(
    executor: Executor,
    companyId: number,
    values: { tokenHash: string; csrfToken: string; userId: number; expiresAt: Date },
  ): Promise<void> {
    await executor.insert(webSessions).values({ ...values, companyId });
  },

  /** The live session of a cookie, with what every page needs about its user and company, and the authentication generation, in one statement (one snapshot). */
  async findSessionWithGeneration(executor: Executor, tokenHash: string): Promise<{ generation: number; record: SessionRow | undefined }> {
    const [{ generation, ...row }] = await preparedSession(executor).execute({ tokenHash });
    // The session's user and company are references, so all three are found or there is no session.
    const found = row.id !== null && row.roles !== null && row.companyActive !== null;
    return { generation: Number(generation), record: found ? (row as SessionRow) : undefined };
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

  /**
   * The ONE account an identifier names, so a sign-in costs one argon2 verification (docs/console.md):
   * among non-deleted users with a password, the user whose company e-mail it is (unique across
   * companies); else, among users sharing it as personal e-mail, one who may use the console
   * (administrator, active, not suspended, not exited, company active), then any administrator, then the oldest.
   */
  async signInAccount(executor: Executor, identifier: string, today: string) {
    const lowered = identifier.toLowerCase();
    const admin = sql`${users.roles} && ${pgArray(CONSOLE_ROLES)}::text[]`;
    const [row] = await executor
      .select({
        id: users.id,
        companyId: users.companyId,
        email: users.email,
        personalEmail: users.personalEmail,
        firstName: users.firstName,
        passwordHash: users.passwordHash,
        roles: users.roles,
        isActive: users.isActive,
        isSuspended: users.isSuspended,
        exitDate: users.exitDate,
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
      .orderBy(
        desc(sql`lower(${users.email}) = ${lowered}`),
        desc(
          sql`${admin} AND ${users.isActive} AND NOT ${users.isSuspended} AND NOT ${exitedSql(users.exitDate, today)} AND ${companies.isActive}`,
        ),
        desc(admin),
        desc(users.isActive),
        asc(users.id),
      )
      .limit(1);
    return row;
  },

  /**
   * Counts one sign-in attempt against every key, atomically, BEFORE the password is checked: one
   * INSERT ... ON CONFLICT DO UPDATE per key row, so N parallel attempts see N distinct counts on
   * PGlite and PostgreSQL alike (a read-then-write let all of them through). A key whose window
   * ended starts a new one. Keys are taken in sorted order so two statements never deadlock.
   */
  async takeAttempt(executor: Executor, keyHashes: string[], windowSeconds: number): Promise<Record<string, LoginCounter>> {
    const rows = await queryRows<{ key_hash: string; attempts: number; created_at: Date | string }>(
      executor,
      sql`INSERT INTO web_login_failures AS f (key_hash, attempts, created_at)
            SELECT k, 1, now() FROM unnest(${pgArray([...keyHashes].sort())}::text[]) AS k ORDER BY k
          ON CONFLICT (key_hash) DO UPDATE SET
            attempts = CASE WHEN f.created_at <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE f.attempts + 1 END,
            created_at = CASE WHEN f.created_at <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE f.created_at END
          RETURNING key_hash, attempts, created_at`,
    );
    const out: Record<string, LoginCounter> = {};
    for (const row of rows) out[row.key_hash] = { attempts: Number(row.attempts), windowStart: new Date(row.created_at) };
    return out;
  },

  /** Gives back an attempt that did not reach the password check, or that succeeded. */
  async giveBackAttempt(executor: Executor, keyHashes: string[]): Promise<void> {
    await executor
      .update(webLoginFailures)
      .set({ attempts: sql`greatest(${webLoginFailures.attempts} - 1, 0)` })
      .where(inArray(webLoginFailures.keyHash, keyHashes));
  },

  async clearFailures(executor: Executor, keyHash: string): Promise<void> {
    await executor.delete(webLoginFailures).where(eq(webLoginFailures.keyHash, keyHash));
  },
};
