// The unfiltered loans page of a company among many (GET /api/loans; migrations 0274, 0275): its rows
// come from the company's own index entries, its total from the company's counter. Before
// loans_company_idx the page walked loans_pkey backwards from the newest loan of any company and the
// total scanned the whole table, so an older company read every later company's loans on every view. Counted as the rows fetched
// (test/helpers/rows-read.ts), under generic plans as the hot-reads pool runs them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { rowsReadBy } from '../../../test/helpers/rows-read.js';
import { loansRepo } from './loans.repo.js';

let ctx: TestContext;
let early: TestCompany;
const EARLY_LOANS = 5;
const LATER_COMPANIES = 9;
const LATER_LOANS = 60;

/** `count` active loans of the company's first user, written straight into the table. */
async function insertLoans(companyId: number, count: number) {
  const [user] = await createStaff(ctx.db, companyId, 1);
  await ctx.db.execute(sql`INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period)
    SELECT ${companyId}, ${user.id}, 'loan', 1000, 1000, 100, '2031-01' FROM generate_series(1, ${count})`);
}

beforeAll(async () => {
  ctx = await createTestApp();
  early = await createCompany(ctx.db);
  await insertLoans(early.id, EARLY_LOANS);
  for (let i = 0; i < LATER_COMPANIES; i++) await insertLoans((await createCompany(ctx.db)).id, LATER_LOANS);
  await ctx.db.execute(sql`ANALYZE loans`);
}, 180_000);
afterAll(() => ctx.close());

it("reads an older company's page and total from its own loans, not the later companies'", async () => {
  const { result, rows } = await rowsReadBy(ctx.db, 'loans', (tx) => loansRepo.page(tx, early.id, {}, 20, 0));
  expect(result.total).toBe(EARLY_LOANS);
  expect(result.rows).toHaveLength(EARLY_LOANS);
  expect(result.rows.map((row) => row.id)).toEqual([...result.rows.map((row) => row.id)].sort((a, b) => b - a));
  // The page's five rows, and none for the total (loan_counts, 0275; before it, up to as many again
  // for the count). Before the index: 550 on either database.
  expect(rows).toBeLessThanOrEqual(EARLY_LOANS);
});

it('answers the same page and total through a filter that keeps every loan', async () => {
  const plain = await loansRepo.page(ctx.db, early.id, {}, 3, 1);
  const filtered = await loansRepo.page(ctx.db, early.id, { kind: 'loan' }, 3, 1);
  expect(plain).toEqual(filtered);
  expect(plain.total).toBe(EARLY_LOANS);
});
