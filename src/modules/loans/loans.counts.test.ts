// The unfiltered loans page's total comes from loan_counts (migrations/0275_loan_counts.sql), moved
// by triggers in the statement that inserts or deletes loans, whoever writes them: it must always
// equal the company's loans counted, through the API's creations, a bulk insert, deletes, a rolled
// back insert, and past the last page; a loan cannot change company; other companies are untouched.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { queryRows } from '../../db/client.js';
import { loansRepo } from './loans.repo.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let userId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
  [{ id: userId }] = await createStaff(ctx.db, acme.id, 1);
  const [otherUser] = await createStaff(ctx.db, other.id, 1);
  await insertLoans(other.id, otherUser.id, 3);
});
afterAll(() => ctx.close());

async function insertLoans(companyId: number, user: number, count: number) {
  await ctx.db.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
    SELECT ${companyId}, ${user}, 'loan', 1000, 1000, 100, '2031-01' FROM generate_series(1, ${count})`);
}
const counted = async (companyId: number) =>
  (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM loans WHERE company_id = ${companyId}`))[0].n;
/** The page's total, on the first page and past the end, with the filter-free and a filtered statement. */
async function totals(companyId: number) {
  const first = (await loansRepo.page(ctx.db, companyId, {}, 2, 0)).total;
  const past = (await loansRepo.page(ctx.db, companyId, {}, 2, 1000)).total;
  const filtered = (await loansRepo.page(ctx.db, companyId, { kind: 'loan' }, 2, 0)).total;
  return { first, past, filtered };
}
const expectCounted = async (companyId: number) => {
  const n = await counted(companyId);
  expect(await totals(companyId)).toEqual({ first: n, past: n, filtered: n });
  return n;
};

describe('the loans counter', () => {
  it('follows creations through the API, a bulk insert, a rolled-back insert and deletes', async () => {
    expect(await expectCounted(acme.id)).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await as(ctx.app, acme).post(`/api/users/${userId}/loans`, {
        kind: 'loan',
        principal: '100000.00',
        instalment: '10000.00',
        start_period: '2031-01',
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    expect(await expectCounted(acme.id)).toBe(2);
    await insertLoans(acme.id, userId, 40);
    expect(await expectCounted(acme.id)).toBe(42);
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
          VALUES (${acme.id}, ${userId}, 'loan', 1, 1, 1, '2031-01')`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await expectCounted(acme.id)).toBe(42);
    await ctx.db.execute(sql`DELETE FROM loans WHERE id IN (SELECT id FROM loans WHERE company_id = ${acme.id} ORDER BY id LIMIT 5)`);
    expect(await expectCounted(acme.id)).toBe(37);
    expect(await expectCounted(other.id)).toBe(3);
  });

  it('refuses to move a loan to another company', async () => {
    await expect(ctx.db.execute(sql`UPDATE loans SET company_id = ${other.id} WHERE company_id = ${acme.id}`)).rejects.toThrow();
    await ctx.db.execute(sql`UPDATE loans SET instalment = 200 WHERE company_id = ${acme.id}`);
    expect(await expectCounted(acme.id)).toBe(37);
  });
});
