// The approval's overlap check (run-approval.repo.ts, `overlaps`) reads a few rows per paystub
// whatever the statistics say: here, those of a paystubs table analysed while empty, as a new
// deployment's first large run finds them before autovacuum has looked (docs/payroll-runs.md, "One
// salary per period"). On those statistics the planner probed each paystub's others by (company,
// run) and read the whole run for every paystub: 1,001,000 rows for a run of 1,000, and a run of
// 100,000 not approved after minutes. Counted as the rows of paystubs the check fetched
// (test/helpers/rows-read.ts).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../../test/helpers/factories.js';
import { insertRunOfEveryone } from '../../../../test/helpers/payroll-runs.js';
import { rowsReadBy } from '../../../../test/helpers/rows-read.js';
import { runApprovalRepo } from './run-approval.repo.js';

let ctx: TestContext;
let company: TestCompany;
const EMPLOYEES = 1_000;
const RUN = 'PR-20310201-PLAN01';

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db);
  await createStaff(ctx.db, company.id, EMPLOYEES);
  // Statistics of an empty paystubs table, then a draft run of one paystub per employee.
  await ctx.db.execute(sql`VACUUM ANALYZE paystubs`);
  await ctx.db.execute(sql`VACUUM ANALYZE payroll_runs`);
  await insertRunOfEveryone(ctx.db, company.id, RUN, {
    status: 'draft',
    start: '2031-02-01',
    end: '2031-02-28',
    paymentDate: '2031-02-27',
  });
}, 120_000);
afterAll(() => ctx.close());

it("reads each paystub's own employee's paystubs, not the whole run for each", async () => {
  const { result, rows } = await rowsReadBy(ctx.db, 'paystubs', (tx) => runApprovalRepo.overlaps(tx, company.id, RUN));
  expect(result).toEqual([]);
  // The run once, and one index probe per paystub (its own row, filtered out): about 2 per paystub.
  expect(rows).toBeLessThan(EMPLOYEES * 4);
});
