// The console's Employees table reads its first view and pages as listed rows (users.flat-row.repo.ts,
// LISTED_FIELDS): 12 columns a user instead of a whole flat row. Each listed row is exactly the
// table's fields of the User that U1's page gives for the same user, on both databases, whatever the
// user's standing: active, inactive, invited, suspended, leaving, exited, with and without a type,
// a title or kobo in the salary.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { statementsOf } from '../../../../test/helpers/statements-sent.js';
import { users } from '../../../db/schema/index.js';
import { lagosDate } from '../../../platform/format.js';
import { serializeListedRow, serializeUserRow } from '../users.serializer.js';
import { usersReadRepo } from './users.read.repo.js';

let ctx: TestContext;
let companyId: number;
let userIds: number[];
const today = lagosDate();

beforeAll(async () => {
  ctx = await createTestApp();
  companyId = (await createCompany(ctx.db)).id;
  const created = await createUsers(
    ctx.db,
    companyId,
    Array.from({ length: 30 }, (_, i) => ({
      isActive: i % 3 !== 0,
      baseSalary: i % 2 ? '123456.78' : '250000',
      userType: i % 4 ? undefined : 'staff',
    })),
  );
  userIds = created.map((user) => user.id);
  const id = (i: number) => created[i].id;
  await ctx.db
    .update(users)
    .set({ isSuspended: true })
    .where(eq(users.id, id(1)));
  await ctx.db
    .update(users)
    .set({ exitDate: '2020-01-31', exitReason: 'resignation' })
    .where(eq(users.id, id(2)));
  await ctx.db
    .update(users)
    .set({ exitDate: '2099-12-31', exitReason: 'retirement' })
    .where(eq(users.id, id(4)));
  await ctx.db
    .update(users)
    .set({ title: 'Head of <Payroll> & "Tax"' })
    .where(eq(users.id, id(5)));
  await ctx.db
    .update(users)
    .set({ onboardingCompleted: true })
    .where(eq(users.id, id(6)));
  await ctx.db.execute(sql`UPDATE users SET deleted_at = now() WHERE id = ${id(7)}`);
}, 60_000);
afterAll(() => ctx.close());

it("gives each user's table fields as U1's page serializes them, on the first page and a deep one, with the same total", async () => {
  for (const offset of [0, 20]) {
    const listed = await usersReadRepo.listedPage(ctx.db, companyId, offset, 20);
    const whole = await usersReadRepo.page(ctx.db, companyId, offset, 20, { today });
    expect(listed.total).toBe(whole.total);
    expect(listed.rows.length).toBe(whole.rows.length);
    const fields = (user: Record<string, unknown>) =>
      Object.fromEntries(Object.keys(serializeListedRow(listed.rows[0], today)).map((key) => [key, user[key]]));
    expect(listed.rows.map((row) => serializeListedRow(row, today))).toEqual(
      whole.rows.map((row) => fields(serializeUserRow(row, false, today))),
    );
  }
  const first = await usersReadRepo.listedPage(ctx.db, companyId, 0, 20);
  expect(first.total).toBe(29);
  const shown = first.rows.map((row) => serializeListedRow(row, today));
  expect(shown.some((user) => user.exit_date === '2020-01-31' && user.is_active === false)).toBe(true);
  expect(shown.some((user) => user.base_salary === '123456.78')).toBe(true);
});

it('answers an empty page past the end with the total', async () => {
  const past = await usersReadRepo.listedPage(ctx.db, companyId, 1_000, 20);
  expect(past).toEqual({ rows: [], total: 29 });
});

it("names the company's live users in one statement (a run page's skipped employees), leaving out the deleted and other companies'", async () => {
  const other = await createCompany(ctx.db);
  const [stranger] = await createUsers(ctx.db, other.id, [{ firstName: 'Stranger' }]);
  const [first, , , , , , , deleted] = userIds;
  const names = await ctx.app.services.users.users.names(companyId, [first, deleted, stranger.id, 999_999_999]);
  const [row] = await ctx.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, first));
  expect([...names]).toEqual([[first, `${row.firstName} ${row.lastName}`]]);
  expect(await ctx.app.services.users.users.names(companyId, [])).toEqual(new Map());
});

it.skipIf(!process.env.DATABASE_URL)('names any number of users with one statement to PostgreSQL', async () => {
  let names = new Map<number, string>();
  const sent = await statementsOf(async () => {
    names = await ctx.app.services.users.users.names(companyId, userIds);
  });
  expect(sent).toHaveLength(1);
  // Every user of the company but the one deleted above.
  expect(names.size).toBe(userIds.length - 1);
});
