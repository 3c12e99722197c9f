// Payroll runs through HTTP against a real database (PGlite, or PostgreSQL with DATABASE_URL):
// creation from salaries, the lifecycle and its 409s, funding, transfers and settlement.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { payRunSuite } from '../../../test/helpers/pay-suite.js';
import { paystubItem, postPaystubs } from '../../../test/helpers/payroll.js';
import { fundWallet, runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';

let ctx: TestContext;
let acme: TestCompany;
let admin: Awaited<ReturnType<typeof createUsers>>[number];

/** A company whose token approves (run_approval: token); person-mode approval is in approval/run-approval.test.ts. */
async function newCompany(salaries: string[], extra: Parameters<typeof createUsers>[2] = []) {
  const company = await createCompany(ctx.db, { runApproval: 'token' });
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(ctx.db, company.id, [...salaries.map((baseSalary) => ({ baseSalary })), ...extra]);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  return { company, boss, staff };
}

/** Creates, approves and (optionally) pays a run of `company`. */
async function approvedRun(company: TestCompany, boss: { email: string }, body: Record<string, unknown> = {}) {
  const created = await as(ctx.app, company).post('/api/payroll-runs', runBody(body));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().run.id as string;
  const approved = await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Acme Runs' });
  [admin] = await createUsers(ctx.db, acme.id, [{ firstName: 'Ada', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
});
afterAll(() => ctx?.close());

describe('POST /api/payroll-runs: paystubs from the employee records', () => {
  it('pays every eligible employee, pro rata for a mid-period starter, with overrides and the skipped listed', async () => {
    const { company, boss, staff } = await newCompany(['300000.00', '400000.00', '0', '500000.00', '250000.00', '600000.00']);
    const [full, starter, noSalary, inactive, suspended, overridden] = staff;
    await ctx.db.execute(sql`UPDATE users SET start_date = '2026-03-17', allowances = 31000 WHERE id = ${starter.id}`);
    await ctx.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${inactive.id}`);
    await ctx.db.execute(sql`UPDATE users SET is_suspended = true WHERE id = ${suspended.id}`);
    const res = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({
        user_ids: [full.id, starter.id, noSalary.id, inactive.id, suspended.id, overridden.id, 99_999_999],
        items: [{ user_id: overridden.id, taxable_income: 123456.78, reimbursements: 5000 }],
        created_by_email: boss.email,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { message, run } = res.json();
    expect(message).toBe('Payroll run created.');
    expect(run).toMatchObject({
      status: 'draft',
      pay_period_start: '2026-03-01',
      pay_period_end: '2026-03-31',
      payment_date: '2026-03-28',
    });
    expect(run.id).toMatch(/^PR-\d{8}-[A-Z0-9]{6}$/);
    expect(run.created_by_email).toBe(boss.email);
    expect(run.created_by_user_id).toBe(boss.id);
    expect(run.skipped).toEqual([
      { user_id: noSalary.id, reason: 'The employee has no base salary.' },
      { user_id: inactive.id, reason: 'The employee is not active.' },
      { user_id: suspended.id, reason: 'The employee is suspended.' },
      { user_id: 99_999_999, reason: 'User not found.' },
    ]);
    expect(run.counts).toEqual({ unpaid: 3, held: 0, processing: 0, paid: 0, failed: 0, cancelled: 0 });
    expect(run.totals.employees).toBe(3);

    const p1 = await as(ctx.app, company).get(`/api/paystubs?transaction_id=${run.id}&per_page=100`);
    const stubs = p1.json().data.data as Record<string, unknown>[];
    const byUser = new Map(stubs.map((s) => [s.user_id, s]));
    expect(byUser.get(full.id)).toMatchObject({
      taxable_income: 300000,
      other_allowances: 0,
      status: 'unpaid',
      paid_at: null,
      payment_reference: null,
      failure_reason: null,
    });
    // 15 of 31 days: 400,000 × 15 / 31 = 193,548.387 → 193,548.39; 31,000 × 15 / 31 = 15,000.
    expect(byUser.get(starter.id)).toMatchObject({ taxable_income: 193548.39, other_allowances: 15000 });
    expect(byUser.get(overridden.id)).toMatchObject({ taxable_income: 123456.78, reimbursements: 5000 });
    // Totals are the exact sums of the paystubs' rounded figures.
    const sum = (field: string) => Math.round(stubs.reduce((acc, s) => acc + Math.round((s[field] as number) * 100), 0)) / 100;
    expect(run.totals.net_pay).toBe(sum('net_pay'));
    expect(run.totals.gross_pay).toBe(sum('gross_pay'));
  });

  it('without user_ids takes every active employee; a second run of the period skips them; a per-item failure is skipped too', async () => {
    const { company, staff } = await newCompany(['300000.00', '200000.00']);
    const first = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(first.json().run.counts.unpaid).toBe(2);
    const again = await as(ctx.app, company).post('/api/payroll-runs', runBody({ user_ids: [staff[0].id] }));
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { user_ids: ['No paystub could be made for this run.'] } });
    const plan = await as(ctx.app, company).post(`/api/custom-contributions/${company.id}`, {
      name: 'Huge loan repayment',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 10_000_000,
      frequency: 'per_paystub',
      users: [staff[0].email],
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const failing = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30' }),
    );
    expect(failing.statusCode, failing.body).toBe(201);
    expect(failing.json().run.skipped).toContainEqual({ user_id: staff[0].id, reason: 'Deductions exceed pay.' });
    expect(failing.json().run.counts.unpaid).toBe(1);
  });

  it('refuses bad input with 422 and writes nothing', async () => {
    const before = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs`);
    for (const [body, field] of [
      [runBody({ pay_period_end: '2026-02-01' }), 'pay_period_end'],
      [runBody({ payment_date: '2026-02-30' }), 'payment_date'],
      [{ pay_period_start: '2026-03-01' }, 'pay_period_end'],
      [runBody({ items: [{ user_id: admin.id, taxable_income: 1.234 }] }), 'items.0.taxable_income'],
    ] as const) {
      const res = await as(ctx.app, acme).post('/api/payroll-runs', body);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().error)).toContain(field);
    }
    expect(await queryRows(ctx.db, sql`SELECT count(*)::int AS n FROM payroll_runs`)).toEqual(before);
  });

  it('every P2 call is a run too (draft), and P2 answers as before', async () => {
    const [user] = await createUsers(ctx.db, acme.id, [{}]);
    const res = await postPaystubs(ctx.app, acme, { paystubs: [paystubItem(user.id)] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['created_paystubs', 'failed_paystubs', 'message', 'transaction_id']);
    expect(body.created_paystubs[0].paystub).toMatchObject({
      status: 'unpaid',
      paid_at: null,
      payment_reference: null,
      failure_reason: null,
    });
    const shown = await as(ctx.app, acme).get(`/api/payroll-runs/${body.transaction_id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      message: 'Payroll run retrieved successfully',
      run: { id: body.transaction_id, status: 'draft', pay_period_start: '2026-01-01', pay_period_end: '2026-01-31', payment_date: null },
    });
    expect(shown.json().run.totals.net_pay).toBe(body.created_paystubs[0].paystub.net_pay);
  });
});

describe('approve (maker-checker) and cancel', () => {
  it('only an active admin of the company who did not create the run approves it, and only a draft', async () => {
    const { company, boss, staff } = await newCompany(['100000.00']);
    const id = (await as(ctx.app, company).post('/api/payroll-runs', runBody({ created_by_email: boss.email.toUpperCase() }))).json().run
      .id;
    const approve = (email: string) => as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: email });
    expect((await approve(boss.email)).json()).toEqual({
      error: { approver_email: ['The approver must be a different administrator from the creator.'] },
    });
    expect((await approve(staff[0].email)).json()).toEqual({
      error: { approver_email: ['The approver must be an active admin of the company.'] },
    });
    expect((await approve(admin.email)).statusCode).toBe(422); // an admin of another company
    const [second] = await createUsers(ctx.db, company.id, [{ roles: ['super-admin'], baseSalary: '0' }]);
    const ok = await approve(second.personalEmail);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      message: 'Payroll run approved.',
      run: { status: 'approved', approved_by_email: second.personalEmail, approved_by_user_id: second.id, approved_via: 'token' },
    });
    expect(ok.json().run.approved_at).toMatch(/Z$/);
    expect((await approve(second.email)).json()).toEqual({ error: 'Only a draft run can be approved.' });
    expect((await approve(second.email)).statusCode).toBe(409);
  });

  it('cancels a draft or approved run; its paystubs become cancelled and no longer block the period', async () => {
    const { company, boss, staff } = await newCompany(['100000.00', '120000.00']);
    const id = await approvedRun(company, boss, { created_by_email: staff[0].personalEmail });
    const res = await as(ctx.app, company).post(`/api/payroll-runs/${id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Payroll run cancelled.',
      run: { status: 'cancelled', counts: { cancelled: 2, unpaid: 0 } },
    });
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/cancel`)).json()).toEqual({
      error: 'Only a draft or approved run can be cancelled.',
    });
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).json()).toEqual({ error: 'Only an approved run can be paid.' });
    const p1 = await as(ctx.app, company).get('/api/paystubs?status=cancelled');
    expect(p1.json().data.total).toBe(2);
    const again = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().run.counts.unpaid).toBe(2);
  });

  it('lists newest first with filters, and 404s an unknown or malformed id', async () => {
    const list = await as(ctx.app, acme).get('/api/payroll-runs?status=draft&per_page=2');
    expect(list.statusCode).toBe(200);
    expect(list.json().message).toBe('Payroll runs retrieved successfully');
    expect(list.json().data.data.every((run: { status: string }) => run.status === 'draft')).toBe(true);
    // The page, its total and each run's counts come from one statement: each run as its own page
    // shows it, and a page past the end still carries the total.
    const all = (await as(ctx.app, acme).get('/api/payroll-runs?per_page=100')).json().data;
    expect(all.data.length).toBe(all.total);
    expect(all.total).toBeGreaterThan(0);
    for (const run of all.data) expect((await as(ctx.app, acme).get(`/api/payroll-runs/${run.id}`)).json().run.counts).toEqual(run.counts);
    const past = (await as(ctx.app, acme).get('/api/payroll-runs?per_page=100&page=9')).json().data;
    expect({ total: past.total, data: past.data }).toEqual({ total: all.total, data: [] });
    expect((await as(ctx.app, acme).get('/api/payroll-runs?status=bogus')).statusCode).toBe(422);
    expect((await as(ctx.app, acme).get('/api/payroll-runs/PR-20260101-ZZZZZZ')).json()).toEqual({ error: 'Payroll run not found.' });
    expect((await as(ctx.app, acme).get('/api/payroll-runs/nope')).statusCode).toBe(404);
  });
});

// The run-level pay tests, shared with the Paystack provider (transfers/paystack-transfers.test.ts).
payRunSuite('sandbox', () => ({
  ctx,
  fund: (company, amount) => fundWallet(ctx.app, ctx.db, company, amount),
  rejectedReason: 'Sandbox: account rejected.',
}));
