// HTTP tests of the tax year's rules in P2 and payroll runs (docs/payroll.md, "The tax year"): NHF
// not below the minimum wage nor for expatriates, no pension for an exempt employee, and the PAYE
// state each paystub records (the state of residence on 1 January of its period's year), shown on the
// paystub object of P2 and P1. The employees' fields are set through U3/U4, as a client would.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { paystubItem, postPaystubs, setUserTaxFacts } from '../../../test/helpers/payroll.js';
import { runBody } from '../../../test/helpers/payroll-runs.js';
import { createUserViaApi } from '../../../test/helpers/users.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Tax Year Payroll' });
});
afterAll(() => ctx.close());

const api = () => as(ctx.app, acme);
/** An employee created through U3 (opted in to NHF, paid ₦500,000 a period), with `fields`. */
const employee = (fields: Record<string, unknown> = {}) =>
  createUserViaApi(ctx.app, acme, { nhf_opt_in: true, base_salary: '500000', is_active: true, ...fields });

type Paystub = {
  user_id: number;
  pay_period_end: string;
  nhf_contribution: number;
  pension_contribution: number;
  tax_withheld: number;
  paye_state: string | null;
};
async function p2(items: ReturnType<typeof paystubItem>[]): Promise<Paystub[]> {
  const res = await postPaystubs(ctx.app, acme, { paystubs: items });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().failed_paystubs).toEqual([]);
  return res.json().created_paystubs.map((c: { paystub: Paystub }) => c.paystub);
}
const month = (year: number, m: number) => {
  const mm = String(m).padStart(2, '0');
  return { pay_period_start: `${year}-${mm}-01`, pay_period_end: `${year}-${mm}-${new Date(Date.UTC(year, m, 0)).getUTCDate()}` };
};

describe('NHF below the minimum wage and for expatriates', () => {
  it('P2: no NHF under ₦70,000 a month (T + allowances) nor for an expatriate; NHF otherwise', async () => {
    const low = await employee();
    const expatriate = await employee({ is_expatriate: true });
    const weekly = await employee();
    await setUserTaxFacts(ctx.db, weekly.id, { paymentFrequency: 'weekly' });
    const paystubs = await p2([
      paystubItem(low.id, { ...month(2026, 1), taxable_income: 69_999.99 }),
      paystubItem(low.id, { ...month(2026, 2), taxable_income: 60_000, other_allowances: 10_000 }),
      paystubItem(expatriate.id, { ...month(2026, 1) }),
      // ₦16,000 a week is ₦69,333.33 a month; ₦17,000 is ₦73,666.67.
      paystubItem(weekly.id, { pay_period_start: '2026-01-05', pay_period_end: '2026-01-11', taxable_income: 16_000 }),
      paystubItem(weekly.id, { pay_period_start: '2026-01-12', pay_period_end: '2026-01-18', taxable_income: 17_000 }),
    ]);
    // NHF is 2.5 % of basic (40 % of T): 600 on ₦60,000, 170 on ₦17,000, 5,000 on ₦500,000.
    expect(paystubs.map((p) => [p.user_id, p.pay_period_end, p.nhf_contribution])).toEqual([
      [low.id, '2026-01-31', 0],
      [low.id, '2026-02-28', 600],
      [expatriate.id, '2026-01-31', 0],
      [weekly.id, '2026-01-11', 0],
      [weekly.id, '2026-01-18', 170],
    ]);
    // U4 makes the expatriate Nigerian again: NHF from the next paystub.
    await api().put(`/api/users/${expatriate.id}`, { is_expatriate: false });
    const [next] = await p2([paystubItem(expatriate.id, month(2026, 2))]);
    expect(next.nhf_contribution).toBe(5000);
  });
});

describe('pension exemption', () => {
  it('P2 and a payroll run: no employee or employer pension for an exempt employee (engine golden: tax 71,600)', async () => {
    const exempt = await employee({ pension_exempt: true, pension_exempt_reason: 'Covered by another scheme' });
    const member = await employee();
    const paystubs = await p2([paystubItem(exempt.id, month(2026, 1)), paystubItem(member.id, month(2026, 1))]);
    expect(paystubs.map((p) => [p.user_id, p.pension_contribution, p.tax_withheld])).toEqual([
      [exempt.id, 0, 71_600],
      [member.id, 36_000, 65_120],
    ]);
    const employer = await queryRows<{ user_id: number; employer: string }>(
      ctx.db,
      sql`SELECT user_id, employer_pension_contribution::text AS employer FROM paystubs
          WHERE user_id IN (${exempt.id}, ${member.id}) AND pay_period_end = '2026-01-31' ORDER BY user_id`,
    );
    expect(employer.map((row) => row.employer)).toEqual(['0.00', '45000.00']);

    const run = await api().post('/api/payroll-runs', runBody({ user_ids: [exempt.id, member.id] }));
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json().run.totals).toMatchObject({ employees: 2, employee_pension: 36_000, employer_pension: 45_000 });
  });
});

describe('the PAYE state: the state of residence on 1 January', () => {
  it('a joiner of this year: the first state known; P2 and P1 show it', async () => {
    const joiner = await employee({ state_of_residence: 'KN' });
    const [paystub] = await p2([paystubItem(joiner.id, month(2026, 10))]);
    expect(paystub.paye_state).toBe('KN');
    const listed = (await api().get(`/api/paystubs?user_id=${joiner.id}`)).json();
    expect(listed.data.data.map((p: Paystub) => p.paye_state)).toEqual(['KN']);
  });

  it('a move during the year changes the state from the next 1 January; the snapshot keeps the current state', async () => {
    const mover = await employee({ state_of_residence: 'LA' });
    // Resident in Lagos since 2025 (the history as a user created then would have it).
    await ctx.db.execute(sql`UPDATE user_state_history SET effective_from = '2025-03-01' WHERE user_id = ${mover.id}`);
    const moved = await api().put(`/api/users/${mover.id}`, { state_of_residence: 'OG' });
    expect(moved.statusCode, moved.body).toBe(200);
    const paystubs = await p2([
      paystubItem(mover.id, month(2026, 10)),
      paystubItem(mover.id, month(2026, 12)),
      paystubItem(mover.id, month(2027, 1)),
    ]);
    expect(paystubs.map((p) => [p.pay_period_end, p.paye_state])).toEqual([
      ['2026-10-31', 'LA'],
      ['2026-12-31', 'LA'],
      ['2027-01-31', 'OG'],
    ]);
    const stored = await queryRows<{ end: string; paye: string; snapshot: string }>(
      ctx.db,
      sql`SELECT pay_period_end::text AS end, paye_state AS paye, state_of_residence AS snapshot FROM paystubs
          WHERE user_id = ${mover.id} ORDER BY pay_period_end`,
    );
    expect(stored.map((row) => [row.end, row.paye, row.snapshot])).toEqual([
      ['2026-10-31', 'LA', 'OG'],
      ['2026-12-31', 'LA', 'OG'],
      ['2027-01-31', 'OG', 'OG'],
    ]);
  });

  it('a payroll run records it too; no state known: null', async () => {
    const mover = await employee({ state_of_residence: 'FC' });
    await ctx.db.execute(sql`UPDATE user_state_history SET effective_from = '2024-06-01' WHERE user_id = ${mover.id}`);
    await api().put(`/api/users/${mover.id}`, { state_of_residence: 'NI' });
    const unknown = await employee();
    const run = await api().post(
      '/api/payroll-runs',
      runBody({ ...month(2026, 4), payment_date: '2026-04-28', user_ids: [mover.id, unknown.id] }),
    );
    expect(run.statusCode, run.body).toBe(201);
    const rows = await queryRows<{ user_id: number; paye_state: string | null }>(
      ctx.db,
      sql`SELECT user_id, paye_state FROM paystubs WHERE transaction_id = ${run.json().run.id} ORDER BY user_id`,
    );
    expect(rows).toEqual([
      { user_id: mover.id, paye_state: 'FC' },
      { user_id: unknown.id, paye_state: null },
    ]);
  });
});
