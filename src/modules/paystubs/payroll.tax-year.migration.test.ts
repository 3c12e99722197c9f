// Migration 0203 (the tax year's rules) on an existing database: a database is built as it was at
// 0190 (a company, employees with and without a state, one who moved, an expatriate, one paid below
// the minimum wage, paystubs with and without the 0088 snapshot in a paid P2 run), P2 figures are
// computed there as the service did then (the planner with that schema's context), the database is
// migrated to the head, and P2 through HTTP gives the same figures to the kobo, except where the new
// rules say otherwise (the expatriate's and the low earner's NHF). Existing paystubs keep every
// figure; paye_state and the state history are backfilled; the old paid P2 run files in the month of
// its paystubs' paid_at.
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers/database.js';
import { createCompanyAsOfOldMigration, type TestCompany, withToken } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { postPaystubs } from '../../../test/helpers/payroll.js';
import { type Executor, queryRows } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { koboToNumber } from '../../tax-engine/money.js';
import type { PlanContext, PlanCustom, PlanItem, PlanUser } from './paystubs.plan.types.js';
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
const OLD_RUN = 'PR-20260305-OLDP2X';

interface Person {
  key: string;
  state: string | null;
  expatriate?: boolean;
  t: number;
}
// Ada (Lagos), Bayo (Lagos until he moved to Ogun in March 2026), Chika (no state), Dele (an
// expatriate), Efe (paid ₦65,000 a month: below the minimum wage). All opted in to NHF.
const PEOPLE: Person[] = [
  { key: 'ada', state: 'LA', t: 450_000 },
  { key: 'bayo', state: 'OG', t: 375_000.5 },
  { key: 'chika', state: null, t: 820_000 },
  { key: 'dele', state: 'FC', expatriate: true, t: 610_000 },
  { key: 'efe', state: 'KN', t: 65_000 },
];
const ids: Record<string, number> = {};
let company: { id: number; code: string; domain: string };

async function user(db: Executor, p: Person, n: number) {
  const email = `${p.key}.${company.id}@old.test`;
  const { id } = await one<{ id: number }>(
    db,
    sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id, state_of_residence, nhf_opt_in,
          is_expatriate, pfa_code, rsa_pin, created_at)
        VALUES (${company.id}, ${`E-${n}`}, ${p.key}, 'Old', ${email}, ${`p.${email}`}, ${`uid-${company.id}-${n}`}, ${p.state}, true,
          ${p.expatriate ?? false}, 'LEADWAY', ${`PEN10000000000${n}`}, '2024-02-01T09:00:00Z') RETURNING id`,
  );
  return id;
}

/** What P2 loaded at 0190 (paystubs.run.service.ts then): no is_expatriate, no pension_exempt, no state history. */
async function contextBefore(db: Executor): Promise<PlanContext> {
  const row = await one<SettingsRow>(
    db,
    sql`SELECT tax_regime AS "taxRegime", basic_percentage AS "basicPercentage", housing_percentage AS "housingPercentage",
               transport_percentage AS "transportPercentage", pension_enabled AS "pensionEnabled", employee_pension_rate AS "employeePensionRate",
               employer_pension_rate AS "employerPensionRate", nhf_enabled AS "nhfEnabled", nhf_rate AS "nhfRate", nhis_enabled AS "nhisEnabled",
               nhis_employee_rate AS "nhisEmployeeRate", nhis_employer_rate AS "nhisEmployerRate", tax_method AS "taxMethod"
        FROM contribution_settings WHERE company_id = ${company.id}`,
  );
  const users = await queryRows<PlanUser>(
    db,
    sql`SELECT id, user_type_id, payment_frequency, annual_rent_paid::text AS annual_rent_paid, life_assurance_premium::text AS life_assurance_premium,
               nhf_opt_in, state_of_residence, pfa_code, rsa_pin, nhf_number
        FROM users WHERE company_id = ${company.id} AND deleted_at IS NULL`,
  );
  const customs = await queryRows<PlanCustom>(
    db,
    sql`SELECT id, name, type, apply_to, employee_value::text AS employee_value, employer_value::text AS employer_value, frequency, tax_deductible,
               ARRAY[]::int[] AS target_user_type_ids, ARRAY[]::int[] AS target_user_ids
        FROM custom_contributions WHERE company_id = ${company.id} AND is_active ORDER BY id`,
  );
  const existing = await queryRows<{ user_id: number; pay_period_start: string; pay_period_end: string }>(
    db,
    sql`SELECT user_id, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end FROM paystubs
        WHERE company_id = ${company.id} AND status <> 'cancelled'`,
  );
  return { settings: toEngineSettings(row), companyPaymentFrequency: 'monthly', sector: 'private', users, customs, applied: [], existing };
}

const items = (start: string, end: string): PlanItem[] =>
  PEOPLE.map((p, index) => ({
    index,
    rawId: String(ids[p.key]),
    userId: ids[p.key],
    start,
    end,
    taxableIncome: BigInt(Math.round(p.t * 100)),
    reimbursements: 0n,
    otherAllowances: 0n,
  }));

/** Writes a plan as 0190's service did (its columns; `snapshot` false: a paystub from before 0088). */
async function writeOld(db: Executor, plan: ReturnType<typeof planPaystubRun>, createdAt: string, snapshot: boolean) {
  for (const { paystub: p } of plan.paystubs) {
    await db.execute(
      sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances, gross_pay,
            net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions, employer_pension_contribution,
            nhis_employer_contribution, employer_cost, tax_regime, tax_deductions, state_of_residence, pfa_code, rsa_pin, basic_pay, housing_pay,
            transport_pay, status, transaction_id, paid_at, created_at)
          VALUES (${company.id}, ${p.userId}, ${p.start}, ${p.end}, ${p.taxableIncome}, ${p.reimbursements}, ${p.otherAllowances}, ${p.grossPay},
            ${p.netPay}, ${p.taxWithheld}, ${p.pension}, ${p.nhf}, ${p.nhis}, ${p.otherDeductions}, ${p.employerPension}, ${p.nhisEmployer},
            ${p.employerCost}, ${p.regime}, ${p.taxDeductions}, ${snapshot ? p.stateOfResidence : null}, ${snapshot ? p.pfaCode : null},
            ${snapshot ? p.rsaPin : null}, ${snapshot ? p.basicPay : null}, ${snapshot ? p.housingPay : null}, ${snapshot ? p.transportPay : null},
            'paid', ${OLD_RUN}, '2026-03-05T10:00:00Z', ${createdAt})`,
    );
  }
}

const FIGURES = sql.raw(`id, user_id, pay_period_end::text AS e, gross_pay::text AS g, net_pay::text AS n, tax_withheld::text AS tax,
  pension_contribution::text AS p, nhf_contribution::text AS nhf, employer_pension_contribution::text AS ep, employer_cost::text AS ec,
  tax_deductions::text AS td, state_of_residence, status`);
let storedBefore: unknown[];
let before: Record<string, number>[];
let acme: TestCompany;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrateThrough: '0190' });
  const db = testDb.database.db;
  company = await createCompanyAsOfOldMigration(db, 'Old Tax Year Ltd');
  await db.execute(sql`INSERT INTO contribution_settings (company_id) VALUES (${company.id})`);
  for (const [n, p] of PEOPLE.entries()) ids[p.key] = await user(db, p, n + 1);

  // December 2025 without the snapshot (as before 0088), computed on 2025-12-20, Bayo then in Lagos;
  // February 2026 with it, computed on 2026-03-04 after Bayo's move. One P2 run, paid on 2026-03-05.
  await db.execute(sql`UPDATE users SET state_of_residence = 'LA' WHERE id = ${ids.bayo}`);
  await writeOld(db, planPaystubRun(await contextBefore(db), items('2025-12-01', '2025-12-31')), '2025-12-20T08:00:00Z', false);
  await db.execute(
    sql`UPDATE paystubs SET state_of_residence = 'LA', basic_pay = taxable_income * 0.4 WHERE user_id = ${ids.bayo} AND pay_period_end = '2025-12-31'`,
  );
  await db.execute(sql`UPDATE users SET state_of_residence = 'OG' WHERE id = ${ids.bayo}`);
  await writeOld(db, planPaystubRun(await contextBefore(db), items('2026-02-01', '2026-02-28')), '2026-03-04T08:00:00Z', true);
  await db.execute(
    sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, paid_at, totals)
        VALUES (${OLD_RUN}, ${company.id}, 'paid', 'paystubs', '2025-12-01', '2026-02-28', '2026-03-05T10:00:00Z', '{}'::jsonb)`,
  );
  storedBefore = await queryRows(db, sql`SELECT ${FIGURES} FROM paystubs ORDER BY id`);

  // April 2026 as 0190's service would compute it.
  const plan = planPaystubRun(await contextBefore(db), items('2026-04-01', '2026-04-30'));
  expect(plan.failed).toEqual([]);
  before = plan.paystubs
    .sort((a, b) => a.item.index - b.item.index)
    .map(({ figures: f }) => ({
      gross_pay: koboToNumber(f.grossPay),
      net_pay: koboToNumber(f.netPay),
      tax_withheld: koboToNumber(f.taxWithheld),
      pension_contribution: koboToNumber(f.pension),
      nhf_contribution: koboToNumber(f.nhf),
    }));

  await migrate(testDb.database);
  ctx = await createTestApp({}, testDb);
  acme = await withToken(db, company);
}, 120_000);

it('existing paystubs keep every figure; paye_state is their snapshot, else the current state', async () => {
  const db = testDb.database.db;
  expect(await queryRows(db, sql`SELECT ${FIGURES} FROM paystubs ORDER BY id`)).toEqual(storedBefore);
  const rows = await queryRows<{ user_id: number; e: string; paye_state: string | null }>(
    db,
    sql`SELECT user_id, pay_period_end::text AS e, paye_state FROM paystubs ORDER BY pay_period_end, user_id`,
  );
  const of = (key: string, end: string) => rows.find((r) => r.user_id === ids[key] && r.e === end)?.paye_state;
  expect(['ada', 'bayo', 'chika', 'dele', 'efe'].map((key) => of(key, '2025-12-31'))).toEqual(['LA', 'LA', null, 'FC', 'KN']);
  expect(['ada', 'bayo', 'chika', 'dele', 'efe'].map((key) => of(key, '2026-02-28'))).toEqual(['LA', 'OG', null, 'FC', 'KN']);
});

it('the state history is backfilled from the snapshots and the current state', async () => {
  const history = await queryRows<{ user_id: number; state: string; effective_from: string }>(
    testDb.database.db,
    sql`SELECT user_id, state, effective_from::text AS effective_from FROM user_state_history ORDER BY user_id, effective_from, id`,
  );
  const of = (key: string) => history.filter((h) => h.user_id === ids[key]).map((h) => [h.state, h.effective_from]);
  // Bayo: Lagos from his creation (his first snapshot), Ogun from the day the paystub showing it was computed.
  expect(of('bayo')).toEqual([
    ['LA', '2024-02-01'],
    ['OG', '2026-03-04'],
  ]);
  expect(of('ada')).toEqual([['LA', '2024-02-01']]);
  expect(of('dele')).toEqual([['FC', '2024-02-01']]);
  expect(of('chika')).toEqual([]);
});

it('P2 after the migration: the same figures to the kobo, but no NHF for the expatriate or below the minimum wage; the PAYE state of 1 January', async () => {
  const res = await postPaystubs(ctx.app, acme, {
    paystubs: PEOPLE.map((p) => ({
      id: String(ids[p.key]),
      pay_period_start: '2026-04-01',
      pay_period_end: '2026-04-30',
      taxable_income: p.t,
      reimbursements: 0,
      other_allowances: 0,
    })),
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json().created_paystubs.map(({ paystub: p }: { paystub: Record<string, number | string> }) => p);
  const figures = (p: Record<string, number | string>) => ({
    gross_pay: p.gross_pay,
    net_pay: p.net_pay,
    tax_withheld: p.tax_withheld,
    pension_contribution: p.pension_contribution,
    nhf_contribution: p.nhf_contribution,
  });
  expect(created.slice(0, 3).map(figures)).toEqual(before.slice(0, 3));
  // The new rules. Dele, an expatriate, no longer pays NHF (2.5 % of basic, 40 % of T: 6,100): D without
  // NHF = 7.2 % × 7,320,000 = 527,040; chargeable 6,792,960 → 330,000 + 18 % × 3,792,960 (682,732.80)
  // = 1,012,732.80 ÷ 12 = 84,394.40 (83,296.40 with NHF in D); net 610,000 − 84,394.40 − 43,920.
  expect([before[3].nhf_contribution, before[3].tax_withheld]).toEqual([6100, 83_296.4]);
  expect(figures(created[3])).toEqual({ ...before[3], nhf_contribution: 0, tax_withheld: 84_394.4, net_pay: 481_685.6 });
  // Efe, on ₦65,000 a month (below ₦70,000): 0190 deducted NHF 650 (net 65,000 − 4,680 pension − 650 =
  // 59,670; no tax: ₦780,000 a year is exempt); now none, so net 60,320. (The planner above already
  // applies the new rule, so his "before" is the hand-computed figure.)
  expect(figures(created[4])).toEqual({
    gross_pay: 65_000,
    net_pay: 60_320,
    tax_withheld: 0,
    pension_contribution: 4680,
    nhf_contribution: 0,
  });
  expect(created.slice(3).map((p: { user_id: number }) => p.user_id)).toEqual([ids.dele, ids.efe]);
  // Bayo lived in Lagos on 1 January 2026: his April PAYE goes to Lagos though he lives in Ogun now.
  expect(created.map((p: { paye_state: string | null }) => p.paye_state)).toEqual(['LA', 'LA', null, 'FC', 'KN']);
});

it('the old paid P2 run files in the month of its paystubs’ paid_at, by the backfilled state', async () => {
  const { schedules, missing } = (await as(ctx.app, acme).get('/api/remittances?month=2026-03')).json();
  expect(schedules.paye.map((e: { state: string; employees: number }) => [e.state, e.employees])).toEqual([
    ['FC', 1],
    ['KN', 1],
    ['LA', 2],
    ['OG', 1],
  ]);
  expect(schedules.pension[0]).toMatchObject({ pfa_code: 'LEADWAY', employees: 5 });
  expect(missing.map((m: { user_id: number; fields: string[] }) => [m.user_id, m.fields.includes('state_of_residence')])).toContainEqual([
    ids.chika,
    true,
  ]);
});
