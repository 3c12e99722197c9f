// The company's max_deduction_ratio through HTTP (docs/payroll.md, "Loans and salary advances", "The
// cap"): S2 shows the default 1/3, S3 refuses anything outside (0, 1] naming the setting and writes
// nothing, and a run caps repayments at the ratio the company set, rounded down to the kobo.
import { sql } from 'drizzle-orm';
import { createUsers } from '../../../test/helpers/factories.js';
import { describe, expect, test } from '../../../test/helpers/fixtures.js';
import { runBody } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';
import { columnToKobo } from '../../tax-engine/money.js';
import { DEDUCTION_RATIO_MESSAGE } from '../paystubs/index.js';

// The fixture company (its token approves runs) with one employee repaying a loan.
test.beforeAll(async ({ ctx, company, api }) => {
  const [user] = await createUsers(ctx.db, company.id, [{ baseSalary: '60000.00' }]);
  const loan = await api.post(`/api/users/${user.id}/loans`, {
    kind: 'loan',
    principal: '200000',
    instalment: '50000',
    start_period: '2026-03',
  });
  expect(loan.statusCode, loan.body).toBe(201);
}, 180_000);

/** S2/S3 of the company. */
const settingsOf = (company: { id: number }) => `/api/contribution-settings/${company.id}`;

describe('max_deduction_ratio', () => {
  test('defaults to 1/3 and is listed with the other settings', async ({ api, company }) => {
    const res = await api.get(settingsOf(company));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.max_deduction_ratio).toBe('1/3');
  });

  test('refuses 0, more than 1, negatives, words and too many places (422), writing nothing', async ({ api, company }) => {
    for (const bad of ['0', '0/5', '1.5', '4/3', '-0.2', 'half', '0.12345', true])
      expect((await api.patch(settingsOf(company), { max_deduction_ratio: bad, nhf_rate: '3' })).json(), String(bad)).toEqual({
        error: DEDUCTION_RATIO_MESSAGE,
      });
    const after = (await api.get(settingsOf(company))).json().data;
    expect([after.max_deduction_ratio, after.nhf_rate]).toEqual(['1/3', '2.5']);
  });

  test('stores a fraction reduced and a decimal without trailing zeros', async ({ api, company }) => {
    expect((await api.patch(settingsOf(company), { max_deduction_ratio: '2/4' })).json().data.max_deduction_ratio).toBe('1/2');
    expect((await api.patch(settingsOf(company), { max_deduction_ratio: 1 })).json().data.max_deduction_ratio).toBe('1');
    expect((await api.patch(settingsOf(company), { max_deduction_ratio: '0.10' })).json().data.max_deduction_ratio).toBe('0.1');
  });

  test("caps a run's repayments at the company's ratio of net pay before loans", async ({ ctx, api }) => {
    const created = await api.post('/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await queryRows<{ amount: string; net_pay: string }>(
      ctx.db,
      sql`SELECT i.amount::text AS amount, p.net_pay::text AS net_pay FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
          WHERE p.transaction_id = ${created.json().run.id} AND i.loan_id IS NOT NULL`,
    );
    const amount = columnToKobo(row.amount);
    const before = columnToKobo(row.net_pay) + amount;
    expect(amount).toBe(before / 10n);
  });
});
