// U2 and the console's user list read flat rows (users.read.repo.ts: one json array per user) and build the User
// object straight from them (U1 on PostgreSQL reads JSON text: users.json.test.ts);
// everything else serializes a Drizzle row. Both must give the same object, field for field and in
// the same order, for a user with every field set (timestamps with microseconds, money, arrays,
// JSON, a manager, a console role) and for one with every optional field null.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { setEveryField } from '../../../../test/helpers/users.js';
import { hotReads, queryRows } from '../../../db/client.js';
import { users } from '../../../db/schema/index.js';
import { usersRepo } from '../users.repo.js';
import { serializeUser, serializeUserRow } from '../users.serializer.js';
import { usersReadRepo } from './users.read.repo.js';
import { searchRepo } from './users.search.repo.js';

let testDb: TestDatabase;
let company: TestCompany;
let full: number;
let bare: number;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { db } = testDb.database;
  company = await createCompany(db);
  const [boss, rich, plain] = await createUsers(db, company.id, [{}, { roles: ['user', 'admin'] }, {}]);
  full = rich.id;
  bare = plain.id;
  await setEveryField(db, full, boss.id);
  await db
    .update(users)
    .set({ userTypeId: null, domainId: null, baseSalary: null, allowances: null, startDate: null, documentPaths: null })
    .where(eq(users.id, bare));
});
afterAll(() => testDb.close());

describe('flat user rows (U1, U2)', () => {
  for (const [label, id] of [
    ['every field set', () => full],
    ['every optional field null', () => bare],
  ] as const) {
    it(`serialize exactly as the Drizzle rows do: ${label}`, async () => {
      const { db } = testDb.database;
      const named = await usersRepo.findById(db, company.id, id());
      const row = await usersReadRepo.one(db, company.id, id());
      if (!named || !row) throw new Error('user not found');
      for (const grant of [true, false]) {
        const fromRow = serializeUserRow(row, grant);
        expect(JSON.stringify(fromRow)).toBe(JSON.stringify(serializeUser(named, grant)));
      }
    });
  }

  it('arrive through the json row unchanged: escapes, non-ASCII, the largest money, microseconds', async () => {
    const { db } = testDb.database;
    const [odd] = await createUsers(db, company.id, [{}]);
    const tricky = 'Ọlá "Q" \\ back\\slash\n\ttab \u0001\u001f 😀 </script> \u2028';
    await db
      .update(users)
      .set({
        firstName: tricky,
        address: tricky,
        suspensionReason: tricky,
        documentPaths: [tricky, ''],
        baseSalary: '9999999999999999.99',
        allowances: '0.5',
        suspendedAt: sql`'1999-12-31 23:59:59.999999+00'::timestamptz` as unknown as Date,
      })
      .where(eq(users.id, odd.id));
    const named = await usersRepo.findById(db, company.id, odd.id);
    const row = await usersReadRepo.one(db, company.id, odd.id);
    if (!named || !row) throw new Error('user not found');
    const user = serializeUserRow(row, true);
    expect(JSON.stringify(user)).toBe(JSON.stringify(serializeUser(named, true)));
    expect([user.first_name, user.address, user.document_paths]).toEqual([tricky, tricky, [tricky, '']]);
    expect([user.base_salary, user.allowances, user.suspended_at]).toEqual(['9999999999999999.99', '0.50', '1999-12-31T23:59:59.999000Z']);
    const page = await usersReadRepo.page(db, company.id, 0, 100);
    expect(page.rows.map((r) => JSON.stringify(serializeUserRow(r, true))).find((text) => text.includes('9999999999999999.99'))).toBe(
      JSON.stringify(user),
    );
    await db.delete(users).where(eq(users.id, odd.id));
  });

  it('read what was written, to the microsecond truncated to milliseconds', async () => {
    const row = await usersReadRepo.one(testDb.database.db, company.id, full);
    if (!row) throw new Error('user not found');
    const user = serializeUserRow(row, true);
    expect(user).toMatchObject({
      email_verified_at: '2026-03-04T05:06:07.891000Z',
      bank_account_verified_at: '2026-01-02T03:04:05.100000Z',
      suspended_at: '2026-05-06T07:08:09.000000Z',
      token_expires_at: '2026-12-31T23:59:59.000000Z',
      base_salary: '1234567.50',
      annual_rent_paid: '2000000.25',
      document_paths: ['a/b.pdf', 'c.png'],
      roles: ['user', 'admin'],
      start_date: '2024-02-29',
      exit_date: '2026-02-27',
      exit_reason: 'redundancy',
      // Stored active, but exited since 2026-02-28 (docs/users.md, "Leavers").
      is_active: false,
      onboarding_completed: 1,
      is_suspended: true,
    });
    // A console role kept aside while suspended still hides the onboarding token from `users`-only tokens.
    expect(serializeUserRow(row, false).onboarding_token).toBeNull();
  });

  it('the page is the live users of the company by id, with their number; a deleted or foreign user is not found', async () => {
    const { db } = testDb.database;
    const { rows, total } = await usersReadRepo.page(db, company.id, 0, 10);
    const search = await searchRepo.search(db, company.id, { offset: 0, limit: 10 });
    expect(rows.map((row) => serializeUserRow(row).id)).toEqual(search.rows.map((r) => r.user.id));
    expect(total).toBe(3);
    // Past the end and for a company without users, the page is empty and the total still exact.
    expect(await usersReadRepo.page(db, company.id, 3, 10)).toEqual({ rows: [], total: 3 });
    const other = await createCompany(db);
    expect(await usersReadRepo.page(db, other.id, 0, 10)).toEqual({ rows: [], total: 0 });
    expect(await usersReadRepo.one(db, other.id, full)).toBeUndefined();
    await db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, bare));
    expect(await usersReadRepo.one(db, company.id, bare)).toBeUndefined();
    const after = await usersReadRepo.page(db, company.id, 0, 10);
    expect([after.rows.length, after.total]).toEqual([2, 2]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the hot reads on PostgreSQL', () => {
  it("run on a pool of their own that keeps the page's generic plan (never re-planned) without parallel workers, and see what the main pool committed", async () => {
    const { db } = testDb.database;
    const hot = hotReads(db);
    expect(hot).not.toBe(db);
    // A transaction reads its own writes: the hot pool is not used inside one.
    await db.transaction(async (tx) => expect(hotReads(tx)).toBe(tx));
    // Sequential, so each execution takes the same idle connection of the hot pool.
    for (let i = 0; i < 8; i++) {
      await usersReadRepo.page(db, company.id, i % 2, 1 + (i % 3));
      await usersReadRepo.pageJson(db, company.id, i % 2, 1 + (i % 3), i % 2 === 0);
    }
    // Both pages (rows for the console, JSON text for U1 on PostgreSQL), each as the first page and
    // as a later page (read from the index, docs/users.md "Deep pages"): offsets 0 and 1, 4 times each.
    const plans = await queryRows<{ name: string; generic_plans: number; custom_plans: number }>(
      hot,
      sql`SELECT name, generic_plans::int AS generic_plans, custom_plans::int AS custom_plans FROM pg_prepared_statements
          WHERE name IN ('users_page_rows', 'users_page_json', 'users_deep_page_rows', 'users_deep_page_json') ORDER BY name`,
    );
    expect(plans.map((plan) => plan.name)).toEqual(['users_deep_page_json', 'users_deep_page_rows', 'users_page_json', 'users_page_rows']);
    for (const plan of plans) {
      expect(plan.custom_plans).toBe(0);
      expect(plan.generic_plans).toBeGreaterThanOrEqual(4);
    }
    // On the main pool nothing changed: its sessions keep PostgreSQL's own choice.
    const [mode] = await queryRows<{ plan_cache_mode: string }>(db, sql`SHOW plan_cache_mode`);
    expect(mode.plan_cache_mode).toBe('auto');
    // No parallel workers on the hot pool (a generic page plan gathered from two: docs/operations.md); the main pool keeps its default.
    const workers = async (executor: typeof db) =>
      (await queryRows<{ max_parallel_workers_per_gather: string }>(executor, sql`SHOW max_parallel_workers_per_gather`))[0]
        .max_parallel_workers_per_gather;
    expect(await workers(hot)).toBe('0');
    expect(await workers(db)).not.toBe('0');
    // A user the main pool just added is on the hot pool's next page.
    const before = (await usersReadRepo.page(db, company.id, 0, 100)).total;
    await createUsers(db, company.id, [{}]);
    const after = await usersReadRepo.page(db, company.id, 0, 100);
    expect([after.total, after.rows.length]).toEqual([before + 1, before + 1]);
  });
});
