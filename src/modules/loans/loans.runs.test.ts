// Loans on regular runs through HTTP (docs/payroll.md, "Loans and salary advances"): a run from
// salaries deducts each active loan's instalment plus interest as an item naming the loan, capped at
// a third of net pay; the balance falls only when the paystub is paid (sandbox transfers), stays
// when the transfer fails (an account starting 999); a loan repaid to 0 is paid_off (loan.paid_off).
// Skip, settle and write-off around runs. A reversal: payroll-runs/transfers-loans.test.ts.
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../db/client.js';
import { columnToKobo } from '../../tax-engine/money.js';
import { LOAN_MESSAGES } from './loans.service.js';

let ctx: TestContext;
let company: TestCompany;
let boss: { id: number; email: string };
let ada: { id: number };
let bola: { id: number };
let chidi: { id: number };
let dayo: { id: number };
const loanOf: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
  company = await createCompany(ctx.db, { name: 'Repay Ltd', runApproval: 'token' });
  [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  [ada, bola, chidi, dayo] = await createUsers(ctx.db, company.id, [
    { baseSalary: '300000.00' },
    { baseSalary: '60000.00' },
    { baseSalary: '300000.00' },
    { baseSalary: '300000.00' },
  ]);
  await setBankAccounts(ctx.db, [ada.id, bola.id, dayo.id]);
  await setBankAccounts(ctx.db, [chidi.id], '9990000001'); // the sandbox refuses it
  const give = async (name: string, userId: number, body: Record<string, unknown>) => {
    const res = await as(ctx.app, company).post(`/api/users/${userId}/loans`, { kind: 'loan', start_period: '2026-03', ...body });
    expect(res.statusCode, res.body).toBe(201);
    loanOf[name] = res.json().loan.id;
  };
  // 12 % a year on 100,000: 1,000 of interest in March, before the 40,000 instalment.
  await give('ada', ada.id, { principal: '100000', instalment: '40000', interest_rate_annual: '12' });
  await give('bola', bola.id, { principal: '200000', instalment: '50000' });
  await give('chidi', chidi.id, { principal: '100000', instalment: '40000' });
  await give('dayo', dayo.id, { principal: '30000', instalment: '30000' });
  // Starts later: nothing in March.
  await give('later', dayo.id, { principal: '10000', instalment: '5000', start_period: '2026-04' });
  await fundWallet(ctx.app, ctx.db, company, 5_000_000);
}, 180_000);
afterAll(() => ctx?.close());

const api = () => as(ctx.app, company);
const items = (runId: string) =>
  queryRows<{ user_id: number; code: string; amount: string; loan_id: number; loan_interest: string; net_pay: string }>(
    ctx.db,
    sql`SELECT p.user_id, i.code, i.amount::text AS amount, i.loan_id, i.loan_interest::text AS loan_interest, p.net_pay::text AS net_pay
        FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id WHERE p.transaction_id = ${runId} AND i.loan_id IS NOT NULL
        ORDER BY p.user_id, i.loan_id`,
  );
const loan = async (name: string) => (await api().get(`/api/loans/${loanOf[name]}`)).json().loan;
const pay = async (runId: string) => {
  const approved = await api().post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email });
  expect(approved.statusCode, approved.body).toBe(200);
  expect((await api().post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(202);
  await drainJobs(ctx.app);
};

describe('the March run', () => {
  let march: string;

  it('deducts instalment plus interest as an item naming the loan; the balance does not move yet', async () => {
    const created = await api().post('/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    march = created.json().run.id;
    const rows = await items(march);
    expect(rows.map((r) => [r.user_id, r.code, r.loan_id])).toEqual([
      [ada.id, 'loan_repayment', loanOf.ada],
      [bola.id, 'loan_repayment', loanOf.bola],
      [chidi.id, 'loan_repayment', loanOf.chidi],
      [dayo.id, 'loan_repayment', loanOf.dayo],
    ]);
    expect(rows[0]).toMatchObject({ amount: '41000.00', loan_interest: '1000.00' });
    expect(rows[2]).toMatchObject({ amount: '40000.00', loan_interest: '0.00' });
    // Dayo repays the whole loan in one instalment.
    expect(rows[3]).toMatchObject({ amount: '30000.00', loan_interest: '0.00' });
    expect((await loan('ada')).balance).toBe('100000.00');
  });

  it('caps the deduction at a third of net pay before loans: the rest waits', async () => {
    const [row] = (await items(march)).filter((r) => r.user_id === bola.id);
    const amount = columnToKobo(row.amount);
    const before = columnToKobo(row.net_pay) + amount;
    expect(amount).toBe(before / 3n);
    expect(amount).toBeLessThan(5_000_000n);
  });

  it('paid: balances fall by the principal part; a failed transfer moves nothing; a loan repaid to 0 is paid_off', async () => {
    const endpoint = await api().post('/api/webhook-endpoints', { url: 'https://93.184.215.14/loans', events: ['loan.paid_off'] });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    await pay(march);
    const stubs = await queryRows<{ user_id: number; status: string }>(
      ctx.db,
      sql`SELECT user_id, status FROM paystubs WHERE transaction_id = ${march} ORDER BY user_id`,
    );
    expect(stubs.map((s) => s.status)).toEqual(['paid', 'paid', 'failed', 'paid']);
    expect((await loan('ada')).balance).toBe('60000.00');
    const [bolaRow] = (await items(march)).filter((r) => r.user_id === bola.id);
    expect(columnToKobo((await loan('bola')).balance)).toBe(20_000_000n - columnToKobo(bolaRow.amount));
    expect(await loan('chidi')).toMatchObject({ balance: '100000.00', status: 'active' });
    expect(await loan('dayo')).toMatchObject({ balance: '0.00', status: 'paid_off', closed_balance: null });
    const events = await queryRows<{ type: string; id: number }>(
      ctx.db,
      sql`SELECT type, (body::jsonb->'data'->>'id')::int AS id FROM webhook_events WHERE company_id = ${company.id} AND type = 'loan.paid_off'`,
    );
    expect(events).toEqual([{ type: 'loan.paid_off', id: loanOf.dayo }]);
    expect((await api().delete(`/api/webhook-endpoints/${endpoint.json().endpoint.id}`)).statusCode).toBe(200);
  });

  it("shows each loan's balance after the paystub on the JSON paystub and the PDF payslip", async () => {
    const [stub] = await queryRows<{ id: number }>(
      ctx.db,
      sql`SELECT id FROM paystubs WHERE transaction_id = ${march} AND user_id = ${ada.id}`,
    );
    const json = await api().get(`/api/paystubs?transaction_id=${march}&user_id=${ada.id}`);
    expect(json.statusCode, json.body).toBe(200);
    const repayment = json.json().data.data[0].items.find((i: { type: string }) => i.type === 'loan_repayment');
    expect(repayment).toMatchObject({ amount: 41000, loan_id: loanOf.ada, loan_balance_after: 60000 });
    const pdf = await api().get(`/api/paystubs/${stub.id}/payslip`);
    expect(pdf.statusCode).toBe(200);
    const text = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf.rawPayload }).stdout.toString();
    expect(text).toContain('LOANS AND ADVANCES');
    expect(text).toMatch(new RegExp(`Loan #${loanOf.ada}, balance after\\s+₦60,000\\.00`));
    // Chidi's transfer failed: his payslip shows the balance this paystub would have left once paid.
    const [failed] = await queryRows<{ id: number }>(
      ctx.db,
      sql`SELECT id FROM paystubs WHERE transaction_id = ${march} AND user_id = ${chidi.id}`,
    );
    const chidiItem = (await api().get(`/api/paystubs?transaction_id=${march}&user_id=${chidi.id}`)).json().data.data[0].items[0];
    expect(failed.id).toBeGreaterThan(0);
    expect(chidiItem).toMatchObject({ loan_id: loanOf.chidi, loan_balance_after: 60000 });
  });

  it('skip: refused for a month already repaid, before the start, or twice; the skipped month deducts nothing', async () => {
    const skip = (name: string, body: unknown) => api().post(`/api/loans/${loanOf[name]}/skip`, body);
    expect((await skip('ada', { period: '2026-03' })).json()).toEqual({ error: { period: [LOAN_MESSAGES.periodRepaid] } });
    expect((await skip('ada', { period: '2026-02' })).json()).toEqual({ error: { period: [LOAN_MESSAGES.periodBeforeStart] } });
    expect((await skip('ada', { period: 'April' })).statusCode).toBe(422);
    expect((await skip('ada', {})).json()).toEqual({ error: { period: [LOAN_MESSAGES.periodRequired] } });
    const ok = await skip('ada', { period: '2026-04' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().loan.skipped_periods).toEqual(['2026-04']);
    expect((await skip('ada', { period: '2026-04' })).json()).toEqual({ error: { period: [LOAN_MESSAGES.periodSkipped] } });
  });
});

describe('the April run, settle and write-off', () => {
  let april: string;

  it('skips the skipped loan, starts the later one, and leaves the paid-off one out', async () => {
    const created = await api().post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    april = created.json().run.id;
    const rows = await items(april);
    expect(rows.map((r) => [r.user_id, r.loan_id])).toEqual([
      [bola.id, loanOf.bola],
      [chidi.id, loanOf.chidi],
      [dayo.id, loanOf.later],
    ]);
  });

  it('settle and write-off wait while a paystub not paid yet repays the loan (409), then close it at 0', async () => {
    const settle = await api().post(`/api/loans/${loanOf.bola}/settle`);
    expect([settle.statusCode, settle.json()]).toEqual([409, { error: LOAN_MESSAGES.waiting }]);
    expect((await api().post(`/api/loans/${loanOf.chidi}/write-off`)).statusCode).toBe(409);
    expect((await api().post(`/api/payroll-runs/${april}/cancel`)).statusCode).toBe(200);
    const balance = (await loan('bola')).balance;
    const settled = await api().post(`/api/loans/${loanOf.bola}/settle`, {});
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().loan).toMatchObject({ status: 'paid_off', balance: '0.00', closed_balance: balance });
    const written = await api().post(`/api/loans/${loanOf.chidi}/write-off`);
    expect(written.json().loan).toMatchObject({ status: 'written_off', balance: '0.00', closed_balance: '100000.00' });
    expect((await api().post(`/api/loans/${loanOf.chidi}/settle`)).json()).toEqual({ error: LOAN_MESSAGES.notActive });
    expect((await api().post(`/api/loans/${loanOf.chidi}/skip`, { period: '2026-05' })).statusCode).toBe(409);
  });

  it('a closed loan deducts nothing in the next run', async () => {
    const created = await api().post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect((await items(created.json().run.id)).map((r) => r.loan_id)).toEqual([loanOf.later]);
  });

  it('a request may not put a loan repayment on a paystub itself', async () => {
    const res = await api().post('/api/payroll-runs', {
      ...runBody({ pay_period_start: '2026-05-01', pay_period_end: '2026-05-31', payment_date: '2026-05-28' }),
      items: [{ user_id: ada.id, items: [{ type: 'loan_repayment', amount: '10' }] }],
    });
    expect(res.statusCode).toBe(422);
  });
});
