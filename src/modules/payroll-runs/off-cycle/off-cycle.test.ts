// Pay items and off-cycle runs through HTTP on a real database: items on P2 paystubs and on a
// regular run's overrides, an off-cycle bonus run through approval, funding, transfers and
// settlement, its place in the month's remittances, and every refusal as a 422 that writes nothing.
// Figures are the worked examples of docs/payroll.md, "Tax on irregular items" (₦500,000 a month,
// 2026: a ₦1,000,000 bonus is taxed once at 18 %).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { paystubItem, postPaystubs } from '../../../../test/helpers/payroll.js';
import { drainJobs, fundWallet, runBody, runCountDrift, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../../db/client.js';

let ctx: TestContext;

async function newCompany(salaries: string[]) {
  const company = await createCompany(ctx.db, { runApproval: 'token' });
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    ctx.db,
    company.id,
    salaries.map((baseSalary) => ({ baseSalary })),
  );
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  return { company, boss, staff };
}

const bonusRun = (users: { user_id: number; items: unknown[] }[], extra: Record<string, unknown> = {}) => ({
  kind: 'off_cycle',
  reason: 'bonus',
  payment_date: '2026-03-20',
  users,
  ...extra,
});

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
});
afterAll(() => ctx?.close());

describe('pay items on P2 paystubs and run overrides', () => {
  it('P2: a bonus on the paystub is taxed once, shown as an item, and split as irregular gross', async () => {
    const { company, staff } = await newCompany(['500000.00']);
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(staff[0].id, {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          taxable_income: 500000,
          other_allowances: 0,
          reimbursements: 0,
          items: [{ type: 'bonus', amount: 1000000, description: 'Q1 bonus' }],
        } as never),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { paystub } = res.json().created_paystubs[0];
    expect(paystub).toMatchObject({ gross_pay: 1500000, regular_gross: 500000, irregular_gross: 1000000, off_cycle: false });
    expect(paystub.items).toEqual([
      {
        type: 'bonus',
        name: 'Bonus',
        amount: 1000000,
        taxable_amount: 1000000,
        taxable: true,
        pensionable: false,
        regular: false,
        cash: true,
        treatment: 'earning',
        description: 'Q1 bonus',
        origin_period: null,
        loan_id: null,
        loan_balance_after: null,
      },
    ]);
    // Pension on salary only (8 % of 90 % of 500,000); the bonus adds 180,000 of tax at 18 %.
    expect(paystub.pension_contribution).toBe(36000);
    const alone = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(staff[0].id, { pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', taxable_income: 500000 } as never),
      ],
    });
    expect(paystub.tax_withheld - alone.json().created_paystubs[0].paystub.tax_withheld).toBe(180000);
    const listed = (await as(ctx.app, company).get(`/api/paystubs?transaction_id=${res.json().transaction_id}`)).json().data.data;
    expect(listed[0].items).toEqual(paystub.items);
    const run = (await as(ctx.app, company).get(`/api/payroll-runs/${res.json().transaction_id}`)).json().run;
    expect(run.totals).toMatchObject({ gross_pay: 1500000, regular_gross: 500000, irregular_gross: 1000000 });
  });

  it('P2: a bad or unknown item fails that paystub only, naming the field', async () => {
    const { company, staff } = await newCompany(['500000.00', '500000.00']);
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(staff[0].id, { items: [{ type: 'golden_handshake', amount: 5 }] } as never),
        paystubItem(staff[1].id, { items: [{ type: 'arrears', amount: '10.001' }] } as never),
        paystubItem(staff[1].id, {
          pay_period_start: '2026-02-01',
          pay_period_end: '2026-02-28',
          items: [{ type: 'bonus', amount: 10 }],
        } as never),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().failed_paystubs).toEqual([
      { id: String(staff[0].id), errors: { 'items.0.type': ['The selected type is invalid.'] } },
      {
        id: String(staff[1].id),
        errors: {
          'items.0.amount': ['The amount field must have at most 2 decimal places.'],
          'items.0.origin_period': ['The origin period field is required for arrears, as YYYY-MM.'],
        },
      },
    ]);
    expect(res.json().created_paystubs).toHaveLength(1);
  });

  it("a company's own type works like a built-in: a pensionable regular allowance in P2 and in an off-cycle run", async () => {
    const { company, staff } = await newCompany(['500000.00']);
    const created = await as(ctx.app, company).post('/api/pay-item-types', {
      code: 'acting_allowance',
      name: 'Acting allowance',
      treatment: 'earning',
      taxable: true,
      pensionable: true,
      nhf_base: false,
      nsitf_base: true,
      regular: true,
      cash: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(staff[0].id, {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          taxable_income: 500000,
          items: [{ type: 'acting_allowance', amount: 100000 }],
        } as never),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { paystub } = res.json().created_paystubs[0];
    // Pension on 90 % of salary plus the whole allowance: 8 % × (450,000 + 100,000).
    expect(paystub).toMatchObject({ gross_pay: 600000, pension_contribution: 44000, irregular_gross: 0 });
    expect(paystub.items[0]).toMatchObject({ type: 'acting_allowance', name: 'Acting allowance', pensionable: true, regular: true });
    const other = await newCompany(['500000.00']);
    const elsewhere = await postPaystubs(ctx.app, other.company, {
      paystubs: [paystubItem(other.staff[0].id, { items: [{ type: 'acting_allowance', amount: 1 }] } as never)],
    });
    expect(elsewhere.json().failed_paystubs[0].errors).toEqual({ 'items.0.type': ['The selected type is invalid.'] });
  });

  it('a regular run takes items in its overrides (overtime annualised with salary)', async () => {
    const { company, staff } = await newCompany(['500000.00', '500000.00']);
    const res = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ items: [{ user_id: staff[1].id, items: [{ type: 'overtime', amount: 50000 }] }] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const stubs = (await as(ctx.app, company).get(`/api/paystubs?transaction_id=${res.json().run.id}`)).json().data.data;
    const byUser = new Map(stubs.map((s: { user_id: number }) => [s.user_id, s]));
    const plain = byUser.get(staff[0].id) as { tax_withheld: number; items: unknown[] };
    const overtime = byUser.get(staff[1].id) as { gross_pay: number; tax_withheld: number; irregular_gross: number };
    expect(plain.items).toEqual([]);
    expect(overtime).toMatchObject({ gross_pay: 550000, irregular_gross: 0 });
    expect(overtime.tax_withheld).toBeGreaterThan(plain.tax_withheld);
    const bad = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({
        pay_period_start: '2026-04-01',
        pay_period_end: '2026-04-30',
        items: [{ user_id: staff[1].id, items: [{ type: 'nope', amount: 1 }] }],
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { 'items.0.items.0.type': ['The selected type is invalid.'] } });
  });
});

describe('off-cycle runs', () => {
  it('a bonus run pays items only, beside the month’s regular run, through approval, funding and settlement', async () => {
    const { company, boss, staff } = await newCompany(['500000.00', '500000.00']);
    await ctx.db.execute(sql`UPDATE users SET state_of_residence = 'LA' WHERE company_id = ${company.id}`);
    const regular = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(regular.statusCode, regular.body).toBe(201);
    // The regular run is approved first: the off-cycle paystubs overlap its period, and that is allowed.
    const approveRegular = await as(ctx.app, company).post(`/api/payroll-runs/${regular.json().run.id}/approve`, {
      approver_email: boss.email,
    });
    expect(approveRegular.statusCode, approveRegular.body).toBe(200);
    const created = await as(ctx.app, company).post(
      '/api/payroll-runs',
      bonusRun([
        { user_id: staff[0].id, items: [{ type: 'bonus', amount: 1000000 }] },
        {
          user_id: staff[1].id,
          items: [
            { type: 'thirteenth_month', amount: 500000 },
            { type: 'deduction', amount: 2500, description: 'Union dues' },
          ],
        },
      ]),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { run } = created.json();
    expect(run).toMatchObject({
      kind: 'off_cycle',
      reason: 'bonus',
      status: 'draft',
      payment_date: '2026-03-20',
      pay_period_start: '2026-03-20',
      pay_period_end: '2026-03-20',
    });
    expect(run.totals).toMatchObject({
      employees: 2,
      gross_pay: 1500000,
      regular_gross: 0,
      irregular_gross: 1500000,
      employee_pension: 0,
      nhf: 0,
    });
    const stubs = (await as(ctx.app, company).get(`/api/paystubs?transaction_id=${run.id}`)).json().data.data;
    const bonus = stubs.find((s: { user_id: number }) => s.user_id === staff[0].id);
    expect(bonus).toMatchObject({ off_cycle: true, taxable_income: 0, gross_pay: 1000000, tax_withheld: 180000, net_pay: 820000 });
    const thirteenth = stubs.find((s: { user_id: number }) => s.user_id === staff[1].id);
    expect(thirteenth).toMatchObject({ tax_withheld: 90000, other_deductions: 2500, net_pay: 407500 });

    const listed = (await as(ctx.app, company).get('/api/payroll-runs?kind=off_cycle')).json().data.data;
    expect(listed.map((r: { id: string }) => r.id)).toEqual([run.id]);

    expect((await as(ctx.app, company).post(`/api/payroll-runs/${run.id}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
    await fundWallet(ctx.app, ctx.db, company, 2_000_000);
    const paid = await as(ctx.app, company).post(`/api/payroll-runs/${run.id}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    await drainJobs(ctx.app);
    const settled = (await as(ctx.app, company).get(`/api/payroll-runs/${run.id}`)).json().run;
    expect(settled.status).toBe('paid');
    expect(settled.counts.paid).toBe(2);
    const [debit] = await queryRows<{ amount: string }>(
      ctx.db,
      sql`SELECT amount::text AS amount FROM wallet_entries WHERE company_id = ${company.id} AND kind = 'payroll_debit'`,
    );
    expect(debit.amount).toBe('-1227500.00');

    // PAYE of the month counts the bonus run's tax; NSITF's base leaves bonuses out.
    const month = (await as(ctx.app, company).get('/api/remittances?month=2026-03')).json();
    const paye = month.schedules.paye.reduce((sum: number, row: { amount: string | number }) => sum + Number(row.amount), 0);
    expect(paye).toBe(270000);
    expect(month.schedules.nsitf.amount).toBe(0);
  });

  it('refuses a bad off-cycle request with 422 naming each field, and writes nothing', async () => {
    const { company, staff } = await newCompany(['500000.00']);
    const before = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${company.id}`,
    );
    const cases: [Record<string, unknown>, string[]][] = [
      [{ kind: 'off_cycle' }, ['payment_date', 'reason', 'users']],
      [bonusRun([{ user_id: staff[0].id, items: [] }]), ['users.0.items']],
      [bonusRun([{ user_id: staff[0].id, items: [{ type: 'bonus', amount: 0 }] }]), ['users.0.items.0.amount']],
      [bonusRun([{ user_id: staff[0].id, items: [{ type: 'mystery', amount: 10 }] }]), ['users.0.items.0.type']],
      [
        bonusRun([{ user_id: staff[0].id, items: [{ type: 'bonus', amount: 10, origin_period: '2026-01' }] }]),
        ['users.0.items.0.origin_period'],
      ],
      [bonusRun([{ user_id: staff[0].id, items: [{ type: 'bonus', amount: 10 }] }], { reason: 'holiday' }), ['reason']],
      [bonusRun([{ user_id: staff[0].id, items: [{ type: 'bonus', amount: 10 }] }], { user_ids: [staff[0].id] }), ['user_ids']],
      [
        bonusRun([
          { user_id: staff[0].id, items: [{ type: 'bonus', amount: 10 }] },
          { user_id: staff[0].id, items: [{ type: 'bonus', amount: 10 }] },
        ]),
        ['users.1.user_id'],
      ],
      [runBody({ reason: 'bonus' }), ['reason']],
      [bonusRun([{ user_id: 99_999_999, items: [{ type: 'bonus', amount: 10 }] }]), ['users']],
    ];
    for (const [body, fields] of cases) {
      const res = await as(ctx.app, company).post('/api/payroll-runs', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(422);
      expect(Object.keys(res.json().error).sort()).toEqual([...fields].sort());
    }
    expect(await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs WHERE company_id = ${company.id}`)).toEqual(before);
  });
});

describe('after every flow above', () => {
  it("every run's counts by status equal a GROUP BY of its paystubs (migrations/0265)", async () => {
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
