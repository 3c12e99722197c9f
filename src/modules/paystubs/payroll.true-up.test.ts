// HTTP tests of the year-end true-up under annualised tax (docs/payroll.md, "Year-end true-up"): a
// July joiner's payroll runs July to December, December's paystub refunds what annualised tax
// over-withheld, on the paystub (P1), the run's totals and the payslip; with the setting off,
// nothing is adjusted. The worked example is the engine's (src/tax-engine/true-up.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { paystubItem, postPaystubs, setSettings } from '../../../test/helpers/payroll.js';
import { createUserViaApi } from '../../../test/helpers/users.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type Paystub = { pay_period_end: string; tax_withheld: number; tax_true_up: number; net_pay: number };

/** A company on annualised tax without NHF (as in the engine's example), one July joiner on ₦500,000. */
async function world(name: string, trueUp: boolean, startDate = '2026-07-01') {
  const company = await createCompany(ctx.db, { name });
  await setSettings(ctx.db, company.id, { nhfEnabled: 'false' });
  const api = as(ctx.app, company);
  const patch = await api.patch(`/api/contribution-settings/${company.id}`, { tax_method: 'annualised', year_end_true_up: String(trueUp) });
  expect(patch.statusCode, patch.body).toBe(200);
  expect(patch.json().data.year_end_true_up).toBe(String(trueUp));
  const user = await createUserViaApi(ctx.app, company, { base_salary: '500000', is_active: true, start_date: startDate });
  return { company, api, user };
}

async function runMonths(company: TestCompany, api: ReturnType<typeof as>) {
  const runs: { totals: Record<string, number> }[] = [];
  for (let m = 7; m <= 12; m++) {
    const mm = String(m).padStart(2, '0');
    const end = `2026-${mm}-${new Date(Date.UTC(2026, m, 0)).getUTCDate()}`;
    const res = await api.post('/api/payroll-runs', { pay_period_start: `2026-${mm}-01`, pay_period_end: end, payment_date: end });
    expect(res.statusCode, `${company.id} ${res.body}`).toBe(201);
    runs.push(res.json().run);
  }
  return runs;
}

async function paystubsOf(api: ReturnType<typeof as>, userId: number): Promise<Paystub[]> {
  const res = await api.get(`/api/paystubs?user_id=${userId}&per_page=50`);
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json().data.data as Paystub[];
  return [...list].sort((a, b) => (a.pay_period_end < b.pay_period_end ? -1 : 1));
}

const sum = (values: number[]) => values.reduce((total, value) => Math.round((total + value) * 100) / 100, 0);

describe('year-end true-up (annualised)', () => {
  it('a July joiner on ₦500,000: December refunds 98,520.00 and the year withholds 297,600.00', async () => {
    const { company, api, user } = await world('True-up on', true);
    const runs = await runMonths(company, api);
    const paystubs = await paystubsOf(api, user.id);
    expect(paystubs.map((p) => [p.pay_period_end, p.tax_withheld, p.tax_true_up])).toEqual([
      ['2026-07-31', 66020, 0],
      ['2026-08-31', 66020, 0],
      ['2026-09-30', 66020, 0],
      ['2026-10-31', 66020, 0],
      ['2026-11-30', 66020, 0],
      ['2026-12-31', 66020 - 98520, -98520],
    ]);
    expect(sum(paystubs.map((p) => p.tax_withheld))).toBe(297600);
    // Net pay: 500,000 − pension 36,000 (8 % of 90 %) − (−32,500).
    expect(paystubs[5].net_pay).toBe(496500);
    expect(runs.slice(0, 5).map((run) => run.totals.tax_true_up)).toEqual([0, 0, 0, 0, 0]);
    expect(runs[5].totals).toMatchObject({ tax_true_up: -98520, tax_withheld: -32500 });
  });

  it('with year_end_true_up off, December withholds like every month and the year 396,120.00', async () => {
    const { company, api, user } = await world('True-up off', false);
    const runs = await runMonths(company, api);
    const paystubs = await paystubsOf(api, user.id);
    expect(paystubs.map((p) => [p.tax_withheld, p.tax_true_up])).toEqual(Array(6).fill([66020, 0]));
    expect(sum(paystubs.map((p) => p.tax_withheld))).toBe(396120);
    expect(runs[5].totals.tax_true_up).toBe(0);
  });

  it('a leaver: the paystub covering the exit date trues up (₦500,000 January to March: the year 88,800.00, March −109,260.00)', async () => {
    const { company, api, user } = await world('True-up leaver', true, '2026-01-01');
    const exit = await api.post(`/api/users/${user.id}/terminate`, { exit_date: '2026-03-31', reason: 'resignation' });
    expect(exit.statusCode, exit.body).toBe(200);
    const months = [1, 2, 3].map((m) => {
      const mm = String(m).padStart(2, '0');
      const end = `2026-${mm}-${new Date(Date.UTC(2026, m, 0)).getUTCDate()}`;
      return paystubItem(user.id, { pay_period_start: `2026-${mm}-01`, pay_period_end: end, taxable_income: 500_000 });
    });
    const res = await postPaystubs(ctx.app, company, { paystubs: months });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().failed_paystubs).toEqual([]);
    const paystubs = await paystubsOf(api, user.id);
    expect(paystubs.map((p) => [p.pay_period_end, p.tax_true_up])).toEqual([
      ['2026-01-31', 0],
      ['2026-02-28', 0],
      ['2026-03-31', -109260],
    ]);
    expect(sum(paystubs.map((p) => p.tax_withheld))).toBe(88800);
  });
});
