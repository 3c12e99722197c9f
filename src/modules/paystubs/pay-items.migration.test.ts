// Pay items (migration 0200) change no existing employer's figures: a database is built as it was
// before 0200 (a cumulative-tax company and an annualised one, paystubs written with the figures the
// planner gives without items), migrated to the head, and (1) every stored paystub is untouched, with
// no items, nothing taxable beyond T, nothing irregular and not off-cycle; (2) P2 through HTTP for the
// next month gives the figures the planner gave before the migration from the same year to date, to
// the kobo. (payroll.migration.test.ts covers databases from before the statutory amendments.)
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompanyAsOfOldMigration, createUsers, withToken } from '../../../test/helpers/factories.js';
import { postPaystubs } from '../../../test/helpers/payroll.js';
import { type Executor, queryRows } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { contributionSettings } from '../../db/schema/index.js';
import { koboToNumber } from '../../tax-engine/money.js';
import type { PlanItem, PlanUser } from './paystubs.plan.types.js';
import { planPaystubRun } from './paystubs.planner.js';
import type { SettingsRow } from './settings.repo.js';
import { toEngineSettings } from './settings.service.js';

let testDb: TestDatabase;
let ctx: TestContext;
afterAll(async () => {
  await ctx?.close();
  await testDb?.close();
});

const month = (m: number) => {
  const end = new Date(Date.UTC(2026, m, 0)).toISOString().slice(0, 10);
  return { start: `${end.slice(0, 7)}-01`, end };
};
const items = (userIds: number[], m: number, salary: bigint): PlanItem[] =>
  userIds.map((userId, index) => ({
    index,
    rawId: String(userId),
    userId,
    ...month(m),
    taxableIncome: salary,
    reimbursements: 0n,
    otherAllowances: 0n,
  }));

/** The planner as the service ran it before 0200: the YTD rows read with that schema's columns. */
async function planBefore(db: Executor, companyId: number, planned: PlanItem[]) {
  // The settings with that schema's columns (0211's year_end_true_up and 0213's max_deduction_ratio do not exist in this database yet).
  const { yearEndTrueUp: _, maxDeductionRatio: __, ...columns } = getTableColumns(contributionSettings);
  const [row] = await db.select(columns).from(contributionSettings).where(eq(contributionSettings.companyId, companyId));
  const settings: SettingsRow = { ...row, yearEndTrueUp: 'false', maxDeductionRatio: '1/3' };
  const company = await queryRows<{ payment_frequency: string }>(db, sql`SELECT payment_frequency FROM companies WHERE id = ${companyId}`);
  const userIds = planned.map((item) => item.userId);
  const engine = toEngineSettings(settings!);
  const yearToDate =
    engine.taxMethod === 'cumulative'
      ? await queryRows<{ user_id: number; pay_period_end: string; taxable_income: string; tax_deductions: string; tax_withheld: string }>(
          db,
          sql`SELECT user_id, pay_period_end::text AS pay_period_end, taxable_income::text AS taxable_income,
                     tax_deductions::text AS tax_deductions, tax_withheld::text AS tax_withheld
              FROM paystubs WHERE company_id = ${companyId} AND status <> 'cancelled' ORDER BY user_id, pay_period_end, id`,
        )
      : undefined;
  // The run's users as paystubsRepo.runUsers read them before 0200 (its columns then; later ones, such as
  // 0203's pension_exempt, do not exist in this database yet).
  const users = await queryRows<PlanUser>(
    db,
    sql`SELECT id, user_type_id, payment_frequency, annual_rent_paid::text AS annual_rent_paid, life_assurance_premium::text AS life_assurance_premium,
               nhf_opt_in, state_of_residence, pfa_code, rsa_pin, nhf_number
        FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL AND id = ANY(${`{${userIds.join(',')}}`}::int[])`,
  );
  return planPaystubRun(
    {
      settings: engine,
      companyPaymentFrequency: company[0].payment_frequency,
      users,
      customs: [],
      applied: [],
      existing: [],
      yearToDate,
    },
    planned,
  );
}

const insertPlanned = async (db: Executor, companyId: number, plan: Awaited<ReturnType<typeof planBefore>>) => {
  for (const { paystub: p } of plan.paystubs)
    await db.execute(
      sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances, gross_pay,
            net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions, employer_pension_contribution,
            nhis_employer_contribution, employer_cost, tax_regime, tax_deductions, transaction_id, status)
          VALUES (${companyId}, ${p.userId}, ${p.start}, ${p.end}, ${p.taxableIncome}, ${p.reimbursements}, ${p.otherAllowances}, ${p.grossPay},
            ${p.netPay}, ${p.taxWithheld}, ${p.pension}, ${p.nhf}, ${p.nhis}, ${p.otherDeductions}, ${p.employerPension}, ${p.nhisEmployer},
            ${p.employerCost}, ${p.regime}, ${p.taxDeductions}, 'PR-20260131-OLDRUN', 'paid')`,
    );
};

const STORED = sql.raw(`id, user_id, pay_period_end::text AS e, taxable_income::text AS t, gross_pay::text AS g, net_pay::text AS n,
  tax_withheld::text AS tax, pension_contribution::text AS p, nhf_contribution::text AS nhf, tax_deductions::text AS d, status`);
const one = async <T>(db: Executor, query: SQL) => (await queryRows<T>(db, query))[0];

beforeAll(async () => {
  testDb = await createTestDatabase({ migrateThrough: '0190' });
}, 120_000);

it('old paystubs are untouched and the next P2 computes as before, under cumulative and annualised tax', async () => {
  const db = testDb.database.db;
  const companies = [];
  for (const method of ['cumulative', 'annualised'] as const) {
    const company = await createCompanyAsOfOldMigration(db, `Items ${method}`);
    await db.execute(sql`INSERT INTO contribution_settings (company_id, tax_method) VALUES (${company.id}, ${method})`);
    const staff = await createUsers(db, company.id, [{ baseSalary: '0' }, { baseSalary: '0' }]);
    const ids = staff.map((u) => u.id);
    // January and February written as the service wrote them (a pay rise in February).
    await insertPlanned(db, company.id, await planBefore(db, company.id, items(ids, 1, 10_000_000n)));
    await insertPlanned(db, company.id, await planBefore(db, company.id, items(ids, 2, 75_000_000n)));
    companies.push({ company, ids, march: await planBefore(db, company.id, items(ids, 3, 75_000_000n)) });
  }
  const storedBefore = await queryRows(db, sql`SELECT ${STORED} FROM paystubs ORDER BY id`);

  await migrate(testDb.database);
  ctx = await createTestApp({}, testDb);
  expect(await queryRows(db, sql`SELECT ${STORED} FROM paystubs ORDER BY id`)).toEqual(storedBefore);
  expect(
    await one(
      db,
      sql`SELECT count(*) FILTER (WHERE taxable_items <> 0 OR irregular_gross <> 0 OR nsitf_items <> 0 OR off_cycle)::int AS changed,
                 (SELECT count(*)::int FROM paystub_items) AS items FROM paystubs`,
    ),
  ).toEqual({ changed: 0, items: 0 });

  for (const { company, ids, march } of companies) {
    expect(march.failed).toEqual([]);
    const res = await postPaystubs(ctx.app, await withToken(db, company), {
      paystubs: ids.map((id) => ({
        id: String(id),
        pay_period_start: '2026-03-01',
        pay_period_end: '2026-03-31',
        taxable_income: 750_000,
        reimbursements: 0,
        other_allowances: 0,
      })),
    });
    expect(res.statusCode, res.body).toBe(201);
    const answered = res
      .json()
      .created_paystubs.map(({ paystub }: { paystub: Record<string, number> }) => [paystub.user_id, paystub.tax_withheld, paystub.net_pay]);
    expect(answered).toEqual(
      march.paystubs.map((p) => [p.item.userId, koboToNumber(p.figures.taxWithheld), koboToNumber(p.figures.netPay)]),
    );
  }
  // The year to date mattered: the cumulative company's February (after a lower January) is not the annualised one.
  const february = await queryRows<{ tax: string }>(
    db,
    sql`SELECT tax_withheld::text AS tax FROM paystubs WHERE pay_period_end = '2026-02-28' AND user_id = ANY(${`{${[companies[0].ids[0], companies[1].ids[0]].join(',')}}`}::int[]) ORDER BY id`,
  );
  expect(february[0].tax).not.toBe(february[1].tax);
}, 120_000);
