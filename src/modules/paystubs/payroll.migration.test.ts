// The statutory amendments change no existing employer's figures: a database is built as it was
// before migration 0082 (companies deducting NHF, one not, one without a settings row; users,
// existing paystubs and a custom contribution written with that schema's SQL), P2's figures are
// computed there the way the service did then (the planner with the context that schema could give
// it: no sector, no opt-in, no tax_deductible, no tax_method), the database is migrated to the head,
// and P2 through HTTP gives the same figures to the kobo. Existing paystubs are untouched.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import type { TestCompany } from '../../../test/helpers/factories.js';
import { postPaystubs } from '../../../test/helpers/payroll.js';
import { type Executor, queryRows } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { DEFAULT_SETTINGS, type EngineSettings } from '../../tax-engine/engine.types.js';
import { koboToNumber } from '../../tax-engine/money.js';
import type { PlanCustom, PlanItem, PlannedPaystub, PlanUser } from './paystubs.plan.types.js';
import { planPaystubRun } from './paystubs.planner.js';
import type { SettingsRow } from './settings.repo.js';
import { toEngineSettings } from './settings.service.js';

let testDb: TestDatabase;
let ctx: TestContext;
afterAll(async () => {
  await ctx?.close();
  await testDb?.close();
});

const one = async <T>(db: Executor, query: SQL) => (await queryRows<T>(db, query))[0];

async function company(db: Executor, name: string, settings: 'default' | 'none' | Record<string, string>) {
  const tag = `${name.toLowerCase()}${Math.random().toString(36).slice(2, 8)}`;
  const { id } = await one<{ id: number }>(
    db,
    sql`INSERT INTO companies (name, code, domain) VALUES (${name}, ${tag}, ${`${tag}.test`}) RETURNING id`,
  );
  if (settings !== 'none') {
    await db.execute(sql`INSERT INTO contribution_settings (company_id) VALUES (${id})`);
    for (const [column, value] of Object.entries(settings === 'default' ? {} : settings))
      await db.execute(sql`UPDATE contribution_settings SET ${sql.raw(column)} = ${value} WHERE company_id = ${id}`);
  }
  return id;
}

async function user(db: Executor, companyId: number, n: number, extra: { frequency?: string; rent?: string; life?: string } = {}) {
  const email = `u${n}.${companyId}@migration.test`;
  const { id } = await one<{ id: number }>(
    db,
    sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, payment_frequency, annual_rent_paid, life_assurance_premium)
        VALUES (${companyId}, ${`E-${n}`}, 'First', ${`Last${n}`}, ${email}, ${`p.${email}`}, ${`uid-${companyId}-${n}`},
                ${extra.frequency ?? null}, ${extra.rent ?? null}, ${extra.life ?? null}) RETURNING id`,
  );
  return id;
}

/** What the P2 service loaded before 0082, with that schema's columns only. */
async function contextBefore(db: Executor, companyId: number, userIds: number[]) {
  const row = await one<SettingsRow | undefined>(
    db,
    sql`SELECT tax_regime AS "taxRegime", basic_percentage AS "basicPercentage", housing_percentage AS "housingPercentage",
               transport_percentage AS "transportPercentage", pension_enabled AS "pensionEnabled", employee_pension_rate AS "employeePensionRate",
               employer_pension_rate AS "employerPensionRate", nhf_enabled AS "nhfEnabled", nhf_rate AS "nhfRate", nhis_enabled AS "nhisEnabled",
               nhis_employee_rate AS "nhisEmployeeRate", nhis_employer_rate AS "nhisEmployerRate"
        FROM contribution_settings WHERE company_id = ${companyId}`,
  );
  // A company without a settings row gets the default row (as at its creation) before its first P2.
  const settings: EngineSettings = row ? toEngineSettings(row) : { ...DEFAULT_SETTINGS, taxMethod: undefined };
  const { payment_frequency } = await one<{ payment_frequency: string }>(
    db,
    sql`SELECT payment_frequency FROM companies WHERE id = ${companyId}`,
  );
  const users = await queryRows<PlanUser>(
    db,
    sql`SELECT id, user_type_id, payment_frequency, annual_rent_paid::text AS annual_rent_paid, life_assurance_premium::text AS life_assurance_premium
        FROM users WHERE company_id = ${companyId} AND id = ANY(${`{${userIds.join(',')}}`}::int[])`,
  );
  const customs = await queryRows<PlanCustom>(
    db,
    sql`SELECT id, name, type, apply_to, employee_value::text AS employee_value, employer_value::text AS employer_value, frequency,
               ARRAY[]::int[] AS target_user_type_ids, ARRAY[]::int[] AS target_user_ids
        FROM custom_contributions WHERE company_id = ${companyId} AND is_active ORDER BY id`,
  );
  const existing = await queryRows<{ user_id: number; pay_period_start: string; pay_period_end: string }>(
    db,
    sql`SELECT user_id, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end FROM paystubs WHERE company_id = ${companyId}`,
  );
  return { settings, companyPaymentFrequency: payment_frequency, users, customs, applied: [], existing };
}

interface Item {
  user: number;
  start: string;
  end: string;
  t: number;
  r?: number;
  a?: number;
}
const planItems = (items: Item[]): PlanItem[] =>
  items.map((item, index) => ({
    index,
    rawId: String(item.user),
    userId: item.user,
    start: item.start,
    end: item.end,
    taxableIncome: BigInt(Math.round(item.t * 100)),
    reimbursements: BigInt(Math.round((item.r ?? 0) * 100)),
    otherAllowances: BigInt(Math.round((item.a ?? 0) * 100)),
  }));
const body = (items: Item[]) => ({
  paystubs: items.map((i) => ({
    id: String(i.user),
    pay_period_start: i.start,
    pay_period_end: i.end,
    taxable_income: i.t,
    reimbursements: i.r ?? 0,
    other_allowances: i.a ?? 0,
  })),
});

/** The wire figures of a planned paystub (what P2 answers), by request index. */
const expected = (planned: PlannedPaystub[]) =>
  planned
    .sort((a, b) => a.item.index - b.item.index)
    .map(({ item, figures: f }) => ({
      user_id: item.userId,
      pay_period_end: item.end,
      gross_pay: koboToNumber(f.grossPay),
      net_pay: koboToNumber(f.netPay),
      tax_withheld: koboToNumber(f.taxWithheld),
      pension_contribution: koboToNumber(f.pension),
      nhf_contribution: koboToNumber(f.nhf),
      nhis_contribution: koboToNumber(f.nhis),
      other_deductions: koboToNumber(f.otherDeductions),
      customs: f.customs.map((c) => [koboToNumber(c.employee), koboToNumber(c.employer)]),
    }));
type Answer = {
  paystub: Record<string, number | string>;
  custom_contributions: { employee_contribution: number; employer_contribution: number }[];
};
const answered = (created: Answer[]) =>
  created.map(({ paystub: p, custom_contributions }) => ({
    user_id: p.user_id,
    pay_period_end: p.pay_period_end,
    gross_pay: p.gross_pay,
    net_pay: p.net_pay,
    tax_withheld: p.tax_withheld,
    pension_contribution: p.pension_contribution,
    nhf_contribution: p.nhf_contribution,
    nhis_contribution: p.nhis_contribution,
    other_deductions: p.other_deductions,
    customs: custom_contributions.map((c) => [c.employee_contribution, c.employer_contribution]),
  }));

const PAYSTUB_COLUMNS = sql.raw(`id, user_id, pay_period_start::text AS s, pay_period_end::text AS e, taxable_income::text AS t,
  gross_pay::text AS g, net_pay::text AS n, tax_withheld::text AS tax, pension_contribution::text AS p, nhf_contribution::text AS nhf,
  nhis_contribution::text AS nhis, other_deductions::text AS o, employer_cost::text AS ec, tax_regime, status`);

beforeAll(async () => {
  testDb = await createTestDatabase({ migrateThrough: '0081' });
}, 120_000);

it('P2 figures of existing employers are identical to the kobo after migrating to the head', async () => {
  const db = testDb.database.db;
  const nhfOn = await company(db, 'NhfOn', { nhis_enabled: 'true' });
  const nhfOff = await company(db, 'NhfOff', { nhf_enabled: 'false', tax_regime: 'pita' });
  const noRow = await company(db, 'NoRow', 'none');
  const on = [
    await user(db, nhfOn, 1),
    await user(db, nhfOn, 2, { frequency: 'weekly' }),
    await user(db, nhfOn, 3, { rent: '2400000.00', life: '120000.00' }),
  ];
  const off = [await user(db, nhfOff, 1)];
  const none = [await user(db, noRow, 1)];
  await db.execute(
    sql`INSERT INTO custom_contributions (company_id, name, type, apply_to, employee_responsibility, employer_responsibility, employee_value, employer_value, frequency)
        VALUES (${nhfOn}, 'Welfare', 'percentage', 'gross_pay', true, true, 2, 1, 'per_paystub')`,
  );

  // Existing paystubs (January), written with the figures the service computed then.
  const january = (u: number, t: number): Item => ({ user: u, start: '2026-01-01', end: '2026-01-31', t });
  for (const [companyId, items] of [
    [nhfOn, [january(on[0], 450_000), january(on[2], 900_000)]],
    [nhfOff, [january(off[0], 300_000)]],
  ] as const) {
    const plan = planPaystubRun(await contextBefore(db, companyId, [...new Set(items.map((i) => i.user))]), planItems([...items]));
    expect(plan.failed).toEqual([]);
    for (const { paystub: p } of plan.paystubs) {
      await db.execute(
        sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances, gross_pay,
              net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions, employer_pension_contribution,
              nhis_employer_contribution, employer_cost, tax_regime, transaction_id)
            VALUES (${companyId}, ${p.userId}, ${p.start}, ${p.end}, ${p.taxableIncome}, ${p.reimbursements}, ${p.otherAllowances}, ${p.grossPay},
              ${p.netPay}, ${p.taxWithheld}, ${p.pension}, ${p.nhf}, ${p.nhis}, ${p.otherDeductions}, ${p.employerPension}, ${p.nhisEmployer},
              ${p.employerCost}, ${p.regime}, 'PR-20260131-OLDRUN')`,
      );
    }
  }
  const storedBefore = await queryRows(db, sql`SELECT ${PAYSTUB_COLUMNS} FROM paystubs ORDER BY id`);

  // The P2 calls to compare: February (a weekly employee's week too, a 2025 period under PITA, and a
  // reimbursement and allowance), for each company.
  const calls: [number, Item[]][] = [
    [
      nhfOn,
      [
        { user: on[0], start: '2026-02-01', end: '2026-02-28', t: 450_000, r: 12_500.5, a: 30_000 },
        { user: on[1], start: '2026-02-02', end: '2026-02-08', t: 95_000.25 },
        { user: on[2], start: '2026-02-01', end: '2026-02-28', t: 900_000 },
        { user: on[0], start: '2025-12-01', end: '2025-12-31', t: 450_000 },
      ],
    ],
    [nhfOff, [{ user: off[0], start: '2026-02-01', end: '2026-02-28', t: 300_000 }]],
    [noRow, [{ user: none[0], start: '2026-02-01', end: '2026-02-28', t: 650_000 }]],
  ];
  const before = [];
  for (const [companyId, items] of calls) {
    const plan = planPaystubRun(await contextBefore(db, companyId, [...new Set(items.map((i) => i.user))]), planItems(items));
    expect(plan.failed).toEqual([]);
    before.push(expected(plan.paystubs));
  }
  // Sanity: NHF was deducted where enabled (the opt-in migration must keep it).
  expect(before[0][0].nhf_contribution).toBeGreaterThan(0);
  expect(before[2][0].nhf_contribution).toBeGreaterThan(0);
  expect(before[1][0].nhf_contribution).toBe(0);

  await migrate(testDb.database);
  ctx = await createTestApp({}, testDb);
  const optIn = await queryRows<{ id: number; nhf_opt_in: boolean }>(db, sql`SELECT id, nhf_opt_in FROM users ORDER BY id`);
  expect(optIn).toEqual([...on, ...off, ...none].sort((a, b) => a - b).map((id) => ({ id, nhf_opt_in: !off.includes(id) })));
  // Existing paystubs: untouched, their exact deductions backfilled from the stored statutory ones.
  expect(await queryRows(db, sql`SELECT ${PAYSTUB_COLUMNS} FROM paystubs ORDER BY id`)).toEqual(storedBefore);
  const backfill = await queryRows<{ ok: boolean }>(
    db,
    sql`SELECT tax_deductions = (pension_contribution + nhf_contribution + nhis_contribution) * 100 * 156000000000000 AS ok FROM paystubs`,
  );
  expect(backfill.every((row) => row.ok)).toBe(true);

  const who = async (companyId: number) =>
    ({ id: companyId, auth: { authorization: `Bearer ${(await issueToken(db, companyId, ['all'])).token}` } }) as TestCompany;
  // The company without a settings row: P2 is refused as it was; its row is created with the defaults.
  const refused = await postPaystubs(ctx.app, await who(noRow), body(calls[2][1]));
  expect([refused.statusCode, refused.json()]).toEqual([404, { error: 'Paystub or company not found.' }]);
  await db.execute(sql`INSERT INTO contribution_settings (company_id) VALUES (${noRow})`);

  for (const [i, [companyId, items]] of calls.entries()) {
    const res = await postPaystubs(ctx.app, await who(companyId), body(items));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().failed_paystubs).toEqual([]);
    expect(answered(res.json().created_paystubs)).toEqual(before[i]);
  }
}, 120_000);
