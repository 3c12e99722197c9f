// Runs without a payment_date (P2) in the remittances (docs/compliance.md, "What a month holds"):
// their paystubs fall in the month of their own paid_at in Nigeria. A P2 run approved and paid
// through the sandbox appears in that month's PAYE, pension, NHF and NSITF schedules, its downloads,
// the year's annual return and ITF; the PAYE schedules group by the state each paystub recorded (the
// state on 1 January), not by the state the employee has moved to since.
import { parse } from 'csv-parse/sync';
import { createUsers } from '../../../test/helpers/factories.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { drainJobs, fundWallet, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { type Executor, queryRows, sql } from '../../db/client.js';

const test = shared.extend('appConfig', { scope: 'file' }, { sandboxTransferDelaySeconds: 0 });

let staff: Awaited<ReturnType<typeof createUsers>>;
/** The month and year the P2 run was paid in (Nigerian time), and the day. */
let paid: { month: string; year: number; day: string };

const OCTOBER = { pay_period_start: '2026-10-01', pay_period_end: '2026-10-31' };

// The fixture company's token approves (run_approval: token).
test.beforeAll(async ({ ctx, company, api }) => {
  await ctx.db.execute(sql`UPDATE companies SET tax_ids = '{"LA": "LIRS-1"}'::jsonb WHERE id = ${company.id}`);
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  staff = await createUsers(ctx.db, company.id, [
    { firstName: 'Ada', lastName: 'Lagos' },
    { firstName: 'Bayo', lastName: 'Mover' },
    { firstName: 'Chika', lastName: 'Kano' },
  ]);
  for (const [index, state] of ['LA', 'LA', 'KN'].entries()) {
    await ctx.db.execute(
      sql`UPDATE users SET state_of_residence = ${state}, pfa_code = 'LEADWAY', rsa_pin = ${`PEN10000000000${index}`},
          nhf_number = ${`NHF-${index}`}, nhf_opt_in = true WHERE id = ${staff[index].id}`,
    );
  }
  // Bayo lived in Lagos on 1 January and has moved to Ogun since: his 2026 PAYE stays Lagos's.
  await ctx.db.execute(sql`UPDATE user_state_history SET effective_from = '2025-01-15' WHERE user_id = ${staff[1].id}`);
  await ctx.db.execute(sql`UPDATE users SET state_of_residence = 'OG' WHERE id = ${staff[1].id}`);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  await fundWallet(ctx.app, ctx.db, company, 5_000_000);

  // A P2 run (no payment_date), approved and paid; a second P2 run left a draft counts for nothing.
  const res = await postPaystubs(ctx.app, company, {
    paystubs: [
      paystubItem(staff[0].id, { ...OCTOBER, taxable_income: 450_000 }),
      paystubItem(staff[1].id, { ...OCTOBER, taxable_income: 375_000.5 }),
      paystubItem(staff[2].id, { ...OCTOBER, taxable_income: 610_000 }),
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  const runId = res.json().transaction_id as string;
  const draft = await postPaystubs(ctx.app, company, {
    paystubs: [paystubItem(staff[0].id, { pay_period_start: '2026-09-01', pay_period_end: '2026-09-30' })],
  });
  expect(draft.statusCode, draft.body).toBe(201);
  expect((await api.post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
  expect((await api.post(`/api/payroll-runs/${runId}/pay`, {})).statusCode).toBe(202);
  await drainJobs(ctx.app);
  const run = (await api.get(`/api/payroll-runs/${runId}`)).json().run;
  expect([run.status, run.payment_date]).toEqual(['paid', null]);
  const [day] = await queryRows<{ day: string }>(
    ctx.db,
    sql`SELECT DISTINCT to_char((paid_at AT TIME ZONE 'UTC') + interval '1 hour', 'YYYY-MM-DD') AS day FROM paystubs WHERE transaction_id = ${runId}`,
  );
  paid = { day: day.day, month: day.day.slice(0, 7), year: Number(day.day.slice(0, 4)) };
});

/** The paid paystubs of the P2 run, per PAYE state, in kobo. */
const sums = async (db: Executor, companyId: number) =>
  queryRows<{ paye_state: string; n: number; tax: string; ee: string; er: string; nhf: string; gross: string }>(
    db,
    sql`SELECT paye_state, count(*)::int AS n, sum(tax_withheld * 100)::bigint::text AS tax, sum(pension_contribution * 100)::bigint::text AS ee,
               sum(employer_pension_contribution * 100)::bigint::text AS er, sum(nhf_contribution * 100)::bigint::text AS nhf,
               sum(gross_pay * 100)::bigint::text AS gross
        FROM paystubs WHERE company_id = ${companyId} AND status = 'paid' GROUP BY paye_state ORDER BY paye_state`,
  );
const naira = (kobo: string | bigint) => Number(BigInt(kobo)) / 100;

describe('a P2 run approved and paid', () => {
  test("is in the month of its paystubs' paid_at: PAYE by recorded state, pension, NHF and NSITF", async ({ ctx, company, api }) => {
    const res = await api.get(`/api/remittances?month=${paid.month}`);
    expect(res.statusCode, res.body).toBe(200);
    const { schedules, missing } = res.json();
    const [kn, la] = await sums(ctx.db, company.id);
    expect([kn.paye_state, kn.n, la.paye_state, la.n]).toEqual(['KN', 1, 'LA', 2]);
    expect(schedules.paye.map((e: Record<string, unknown>) => [e.state, e.employees, e.amount])).toEqual([
      ['KN', 1, naira(kn.tax)],
      ['LA', 2, naira(la.tax)],
    ]);
    const all = (field: 'ee' | 'er' | 'nhf' | 'gross') => BigInt(kn[field]) + BigInt(la[field]);
    expect(schedules.pension).toEqual([
      expect.objectContaining({ pfa_code: 'LEADWAY', employees: 3, employee_amount: naira(all('ee')), employer_amount: naira(all('er')) }),
    ]);
    expect(schedules.pension[0].due_date > paid.day).toBe(true);
    expect(schedules.nhf).toMatchObject({ employees: 3, amount: naira(all('nhf')) });
    expect(schedules.nsitf.amount).toBe(naira((all('gross') + 50n) / 100n));
    expect(missing).toEqual([]);
  });

  test('is in no other month: not the month of its pay period', async ({ api }) => {
    const other = paid.month === '2026-10' ? '2026-09' : '2026-10';
    const { schedules } = (await api.get(`/api/remittances?month=${other}`)).json();
    expect([schedules.paye, schedules.pension, schedules.nhf.employees]).toEqual([[], [], 0]);
  });

  test("the PAYE download of Lagos lists the mover, with the paystub's payment date", async ({ api }) => {
    const res = await api.get(`/api/remittances/paye.csv?month=${paid.month}&state=LA`);
    expect(res.statusCode, res.body).toBe(200);
    const lines: string[][] = parse(res.body, { relax_column_count: true });
    const surnames = lines.filter((line) => line[2] === 'Lagos' || line[2] === 'Mover');
    expect(surnames.map((line) => [line[2], line.at(-1)])).toEqual([
      ['Lagos', paid.day],
      ['Mover', paid.day],
    ]);
    const ogun = (await api.get(`/api/remittances/paye.csv?month=${paid.month}&state=OG`)).body;
    expect(ogun).not.toContain('Mover');
  });

  test("is in the year's annual return (by recorded state) and ITF", async ({ ctx, company, api }) => {
    const lagos = (await api.get(`/api/annual-returns/${paid.year}?state=LA`)).json();
    expect(lagos.data.map((row: { user_id: number; months_employed: number }) => [row.user_id, row.months_employed])).toEqual([
      [staff[0].id, 1],
      [staff[1].id, 1],
    ]);
    const [, la] = await sums(ctx.db, company.id);
    expect(lagos.totals.tax_deducted).toBe(naira(la.tax));
    expect((await api.get(`/api/annual-returns/${paid.year}?state=OG`)).json().employees).toBe(0);
    const itf = (await api.get(`/api/annual-returns/${paid.year}/itf`)).json();
    const gross = (await sums(ctx.db, company.id)).reduce((sum, row) => sum + BigInt(row.gross), 0n);
    expect([itf.employees, itf.annual_payroll, itf.eligible]).toEqual([3, naira(gross), false]);
  });
});
