// Console sessions cached under the authentication generation (docs/decisions.md, "Console sessions
// cached"): a page reads its session from the database once, then from the instance's cache; an end
// through this instance applies at once, a change made anywhere else (SQL, another instance) within
// the generation's bound; idleness and expiry are judged on every view, against the database before
// a cached session is refused.
import { eq, sql } from 'drizzle-orm';
import { afterEach, vi } from 'vitest';
import type { TestContext } from '../../../test/helpers/app.js';
import { createUsers } from '../../../test/helpers/factories.js';
import { describe, expect, test } from '../../../test/helpers/fixtures.js';
import { createAdmin, signIn, type WebClient } from '../../../test/helpers/web.js';
import { users, webSessions } from '../../db/schema/index.js';
import { AuthCache } from '../../platform/auth/auth-cache.js';
import { consoleSessionsHeld, releaseConsoleSessionsHold } from '../../platform/auth/console-access.js';
import { readAuthGeneration } from '../../platform/auth/tokens.js';
import { consoleSessionsRepo } from './console-sessions.repo.js';

const PAGE = '/console/security/api';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** Waits until more than the generation's bound has passed since `at` (a change's commit). */
const pastTheBound = (at: number) => sleep(AuthCache.GENERATION_MS + 20 - (Date.now() - at));
const generation = (ctx: TestContext) => readAuthGeneration(ctx.db);

/** A newly signed-in administrator of the fixture's company, with a page viewed (so cached). */
async function signedIn(ctx: TestContext, companyId: number, firstName = 'Cached') {
  const admin = await createAdmin(ctx.db, companyId, { firstName, lastName: 'Admin' });
  const client = await signIn(ctx.app, admin.email);
  expect((await client.get(PAGE)).statusCode).toBe(200);
  return { admin, client };
}

const isOpen = async (client: WebClient) => {
  const res = await client.get(PAGE);
  if (res.statusCode === 303) expect(res.headers.location).toMatch(/^\/console\/login/);
  return res.statusCode === 200;
};

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a cached session', () => {
  test('is read from the database once, then from the cache', async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { client } = await signedIn(ctx, company.id);
    const reads = vi.spyOn(consoleSessionsRepo, 'findSessionWithGeneration');
    for (let i = 0; i < 5; i++) expect(await isOpen(client)).toBe(true);
    expect(reads).not.toHaveBeenCalled();
  });

  test('ends at once when signed out here, and the process reads sessions from the database for a while', async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { client } = await signedIn(ctx, company.id);
    const res = await client.post('/console/logout', {});
    expect(res.statusCode).toBe(303);
    expect(consoleSessionsHeld(Date.now())).toBe(true);
    expect(await isOpen(client)).toBe(false);
  });

  test('ends at once when its administrator is deactivated through the API on this instance', async ({ ctx, company, api }) => {
    releaseConsoleSessionsHold();
    const { admin, client } = await signedIn(ctx, company.id);
    expect((await api.patch(`/api/users/${admin.id}/deactivate`)).statusCode).toBe(200);
    expect(await isOpen(client)).toBe(false);
  });

  test("carries its administrator's new console role at once when it is changed on this instance", async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    // Two super admins: the company must keep one.
    await createAdmin(ctx.db, company.id, { firstName: 'Staying', lastName: 'Super', roles: ['super-admin'] });
    const admin = await createAdmin(ctx.db, company.id, { firstName: 'Super', lastName: 'Admin', roles: ['super-admin'] });
    const client = await signIn(ctx.app, admin.email);
    expect(await isOpen(client)).toBe(true);
    const cookie = /(?:^|; )[\w-]*pc_session=([^;]+)/.exec(client.cookie)?.[1];
    expect(cookie).toBeDefined();
    const sessions = ctx.app.services.consoleSessions.sessions;
    expect((await sessions.resolve(cookie))?.roles).toEqual(['super-admin']);
    await ctx.app.services.users.admins.setRole(company.id, 'operator', admin.id, 'admin');
    expect((await sessions.resolve(cookie))?.roles).toEqual(['admin']);
  });

  test('ends within the bound when its administrator is deactivated, or its row deleted, in SQL', async ({ ctx, company }) => {
    const ends = [
      (id: number) => ctx.db.update(users).set({ isActive: false }).where(eq(users.id, id)),
      (id: number) =>
        ctx.db
          .update(users)
          .set({ roles: ['user'] })
          .where(eq(users.id, id)),
      (id: number) => ctx.db.delete(webSessions).where(eq(webSessions.userId, id)),
      (id: number) =>
        ctx.db
          .update(webSessions)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(webSessions.userId, id)),
    ];
    releaseConsoleSessionsHold();
    const sessions = [];
    for (const _ of ends) sessions.push(await signedIn(ctx, company.id));
    // Each change alone moves the generation ("the generation, for console sessions" below); here
    // they are made together and waited for once.
    for (const [i, end] of ends.entries()) await end(sessions[i].admin.id);
    await pastTheBound(Date.now());
    for (const { client } of sessions) expect(await isOpen(client)).toBe(false);
  });

  test("shows its administrator's and company's new names within the bound after a change in SQL", async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { admin, client } = await signedIn(ctx, company.id, 'Before');
    expect((await client.get(PAGE)).body).toContain('Signed in as Before Admin');
    await ctx.db.update(users).set({ firstName: 'After' }).where(eq(users.id, admin.id));
    await ctx.db.execute(sql`UPDATE companies SET name = 'Renamed Fixture Ltd' WHERE id = ${company.id}`);
    await pastTheBound(Date.now());
    const body = (await client.get(PAGE)).body;
    expect(body).toContain('Signed in as After Admin');
    expect(body).toContain('Renamed Fixture Ltd');
  });

  test('is refused after 30 idle minutes by the clock, and its row deleted', async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { admin, client } = await signedIn(ctx, company.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await isOpen(client)).toBe(false);
    vi.useRealTimers();
    expect(await ctx.db.select().from(webSessions).where(eq(webSessions.userId, admin.id))).toHaveLength(0);
  });

  test('is read once when it is refused as idle on a read from the database (not again to confirm)', async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { client } = await signedIn(ctx, company.id);
    const reads = vi.spyOn(consoleSessionsRepo, 'findSessionWithGeneration');
    // Past the cache's minute, so the page reads the session from the database, and past 30 idle minutes.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await isOpen(client)).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  test('that looks idle is read again first: a view on another instance counts', async ({ ctx, company }) => {
    releaseConsoleSessionsHold();
    const { admin, client } = await signedIn(ctx, company.id);
    const later = new Date(Date.now() + 31 * 60_000);
    // Another instance's touch of a minute ago, as it writes it (last_seen_at alone moves nothing).
    await ctx.db
      .update(webSessions)
      .set({ lastSeenAt: new Date(later.getTime() - 60_000) })
      .where(eq(webSessions.userId, admin.id));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(later);
    expect(await isOpen(client)).toBe(true);
  });
});

describe('the generation, for console sessions', () => {
  test('moves with each change to what a session shows or depends on, in SQL', async ({ ctx, company }) => {
    const { admin } = await signedIn(ctx, company.id);
    const changes = [
      sql`UPDATE users SET first_name = 'Moved' WHERE id = ${admin.id}`,
      sql`UPDATE users SET email = ${`moved-${admin.id}@example.com`} WHERE id = ${admin.id}`,
      sql`UPDATE users SET exit_date = '2030-01-31', exit_reason = 'resignation' WHERE id = ${admin.id}`,
      sql`UPDATE users SET is_suspended = true WHERE id = ${admin.id}`,
      sql`UPDATE web_sessions SET expires_at = expires_at - interval '1 minute' WHERE user_id = ${admin.id}`,
      sql`UPDATE users SET roles = ARRAY['user'] WHERE id = ${admin.id}`,
    ];
    for (const change of changes) {
      const before = await generation(ctx);
      await ctx.db.execute(change);
      expect(await generation(ctx), `change ${changes.indexOf(change)}`).toBeGreaterThan(before);
    }
    const { admin: other } = await signedIn(ctx, company.id);
    const before = await generation(ctx);
    await ctx.db.execute(sql`DELETE FROM web_sessions WHERE user_id = ${other.id}`);
    expect(await generation(ctx)).toBeGreaterThan(before);
  });

  test("stays with a view's touch, an employee's change, an administrator's other columns, or expired sessions deleted", async ({
    ctx,
    company,
  }) => {
    const { admin } = await signedIn(ctx, company.id);
    const [employee] = await createUsers(ctx.db, company.id, [{ roles: ['user'] }]);
    await ctx.db.insert(webSessions).values({
      tokenHash: `expired-${admin.id}`,
      csrfToken: 'c',
      userId: admin.id,
      companyId: company.id,
      expiresAt: new Date(Date.now() - 60_000),
    });
    const before = await generation(ctx);
    await ctx.db.execute(sql`UPDATE web_sessions SET last_seen_at = now() WHERE user_id = ${admin.id}`);
    await ctx.db.execute(sql`UPDATE users SET first_name = 'Employee', is_active = NOT is_active WHERE id = ${employee.id}`);
    await ctx.db.execute(sql`UPDATE users SET phone = '08030000000', first_name = first_name WHERE id = ${admin.id}`);
    await ctx.db.execute(sql`DELETE FROM web_sessions WHERE expires_at < now()`);
    expect(await generation(ctx)).toBe(before);
  });
});
