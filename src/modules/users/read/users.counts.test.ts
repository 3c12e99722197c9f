// U1's totalResults comes from user_counts (migrations/0140_user_counts.sql), kept by statement-level
// triggers on users. These tests hold it to the truth, count(*) of the live users, after every kind
// of write: the migration's backfill, U3 creates, U8 bulk imports, U7 soft deletes, a restore, a hard
// delete, an update that changes nothing countable, and creates and deletes running in parallel
// (on PostgreSQL, truly concurrent transactions of one company).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createTestDatabase } from '../../../../test/helpers/database.js';
import {
  createCompany,
  createCompanyAsOfOldMigration,
  createUsers,
  type TestCompany,
  withToken,
} from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { createUserViaApi, generatedUsers, multipart, newUserBody, usersCsv } from '../../../../test/helpers/users.js';
import { queryRows } from '../../../db/client.js';
import { migrate } from '../../../db/migrate.js';
import { userCounts, users } from '../../../db/schema/index.js';
import { searchRepo } from './users.search.repo.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  // Built as before 0140 with users already in it, so the backfill is tested too.
  const testDb = await createTestDatabase({ migrateThrough: '0139' });
  const before = await createCompanyAsOfOldMigration(testDb.database.db, 'Before Ltd');
  await createUsers(testDb.database.db, before.id, [{}, {}, {}]);
  await testDb.database.db.execute(
    sql`UPDATE users SET deleted_at = now() WHERE id = (SELECT max(id) FROM users WHERE company_id = ${before.id})`,
  );
  await migrate(testDb.database);
  ctx = await createTestApp({}, testDb);
  acme = await withToken(ctx.db, before);
  other = await createCompany(ctx.db, { name: 'Other Ltd' });
});
afterAll(() => ctx.close());

async function truth(companyId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL`,
  );
  return row.n;
}
/** The sum of the company's slots (0182); no row: no user was ever written (what usersRepo.count reads as 0). */
async function counter(companyId: number): Promise<number> {
  const rows = await ctx.db.select().from(userCounts).where(eq(userCounts.companyId, companyId));
  return rows.reduce((sum, row) => sum + row.live, 0);
}
async function totalResults(company: TestCompany): Promise<number> {
  const res = await as(ctx.app, company).get('/api/users?per_page=1');
  expect(res.statusCode).toBe(200);
  return res.json().totalResults;
}
async function expectExact(company: TestCompany, expected?: number) {
  const n = await truth(company.id);
  if (expected !== undefined) expect(n).toBe(expected);
  expect(await counter(company.id)).toBe(n);
  expect(await totalResults(company)).toBe(n);
  // The console's unfiltered list reads the counter too; a filtered one still counts.
  expect((await searchRepo.search(ctx.db, company.id, { offset: 0, limit: 1 })).total).toBe(n);
  const [active] = await queryRows<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${company.id} AND deleted_at IS NULL AND is_active AND NOT is_suspended`,
  );
  expect((await searchRepo.search(ctx.db, company.id, { status: 'active', offset: 0, limit: 1 })).total).toBe(active.n);
}
const bulkCreate = (company: TestCompany, count: number) => {
  const form = multipart({}, [
    { field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: usersCsv(generatedUsers(count, company.domain)) },
  ]);
  return as(ctx.app, company).post('/api/users/bulk-create', form.payload, { headers: form.headers });
};

describe('user_counts', () => {
  it('is backfilled by the migration (live users only)', async () => {
    await expectExact(acme);
    expect(await counter(acme.id)).toBeGreaterThan(0);
  });

  it('follows U3 creates, U8 imports, U7 soft deletes, a restore and a hard delete, per company', async () => {
    await expectExact(other, 0);
    const created = await createUserViaApi(ctx.app, other);
    await expectExact(other, 1);
    const bulk = await bulkCreate(other, 120);
    expect(bulk.json().status, bulk.body).toBe('success');
    await expectExact(other, 121);
    expect((await as(ctx.app, other).delete(`/api/users/${created.id}`)).statusCode).toBe(200);
    await expectExact(other, 120);
    // Deleting again, or updating a deleted user, moves nothing.
    await ctx.db.execute(sql`UPDATE users SET title = 'x' WHERE id = ${created.id}`);
    await expectExact(other, 120);
    await ctx.db.execute(sql`UPDATE users SET deleted_at = NULL WHERE id = ${created.id}`);
    await expectExact(other, 121);
    await ctx.db.execute(sql`DELETE FROM users WHERE id = ${created.id}`);
    await expectExact(other, 120);
    // Another company's writes never touch this counter.
    await expectExact(acme);
  });

  // Three rounds: before 0262 the audit chain's lock deadlocked these writers about one round in three.
  it('stays exact under parallel creates, imports and deletes of one company, round after round', async () => {
    for (let round = 0; round < 3; round++) {
      const start = await truth(other.id);
      const live = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(sql`${users.companyId} = ${other.id} AND ${users.deletedAt} IS NULL`);
      const ids = live.map((row) => row.id).slice(0, 10);
      const results = await Promise.all([
        ...Array.from({ length: 12 }, () => as(ctx.app, other).post('/api/users', newUserBody(other))),
        ...ids.map((id) => as(ctx.app, other).delete(`/api/users/${id}`)),
        bulkCreate(other, 50),
        bulkCreate(other, 30),
      ]);
      for (const res of results) expect(res.statusCode, res.body).toBe(200);
      await expectExact(other, start + 12 - ids.length + 80);
    }
  });
});
