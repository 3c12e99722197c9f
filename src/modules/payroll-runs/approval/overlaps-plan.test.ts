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
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { rowsReadBy } from '../../../../test/helpers/rows-read.js';
import { runApprovalRepo } from './run-approval.repo.js';

let ctx: TestContext;
let company: TestCompany;
const EMPLOYEES = 1_000;
const RUN = 'PR-20310201-PLAN01';

beforeAll(async () => {
  ctx = await createTestApp();
  company = await createCompany(ctx.db);
  await createUsers(
    ctx.db,
    company.id,
    Array.from({ length: EMPLOYEES }, () => ({})),
  );
  // Statistics of an empty paystubs table, then a draft run of one paystub per employee.
  await ctx.db.execute(sql`VACUUM ANALYZE paystubs`);
  await ctx.db.execute(sql`VACUUM ANALYZE payroll_runs`);
  await ctx.db.execute(
    sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, payment_date, totals)
        VALUES (${RUN}, ${company.id}, 'draft', 'salaries', '2031-02-01', '2031-02-28', '2031-02-27', '{}'::jsonb)`,
  );
  await ctx.db.execute(
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id)
        SELECT ${company.id}, id, '2031-02-01', '2031-02-28', 200000, 0, 0, 200000, 170000, 15000, 15000, 0, 0, 0, 18000, 0, 218000,
          'pita', 'unpaid', ${RUN}
        FROM users WHERE company_id = ${company.id}`,
  );
}, 120_000);
afterAll(() => ctx.close());

it("reads each paystub's own employee's paystubs, not the whole run for each", async () => {
  const { result, rows } = await rowsReadBy(ctx.db, 'paystubs', (tx) => runApprovalRepo.overlaps(tx, company.id, RUN));
  expect(result).toEqual([]);
  // The run once, and one index probe per paystub (its own row, filtered out): about 2 per paystub.
  expect(rows).toBeLessThan(EMPLOYEES * 4);
});
