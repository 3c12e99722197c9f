// What is approved is what is paid (docs/payroll-runs.md, "Payment destinations"), through HTTP on
// Paystack Transfers against the fake Paystack server: approval pins each paystub's account; a bank
// change after approval (U4 with a token that may only update users, U9) holds the paystub and
// tells the employee; pay pays the others and neither account of the held one; a new approval
// releases it to the new account, paid exactly once; retry refuses a changed account until
// approved; the payslip shows where the money went and the employee as approved; a bank change
// racing a pay either holds the paystub or lets it go to its pinned account, never both.
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { drainJobs, runBody, runCountDrift, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { type FakeTransfers, fakeTransfers, fundWalletPaystack } from '../../../../test/helpers/paystack-transfers.js';
import { multipart, newUserBody, usersCsv } from '../../../../test/helpers/users.js';
import { type FakePaystack, startFakePaystack } from '../../../../test/helpers/wallet.js';
import { queryRows } from '../../../db/client.js';
import { issueToken } from '../../../platform/auth/tokens.js';
import { nubanFor } from '../../banks/index.js';

let fake: FakePaystack;
let transfers: FakeTransfers;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakePaystack();
  transfers = fakeTransfers(fake);
  ctx = await createTestApp({ paymentProvider: 'paystack', paystackSecretKey: fake.secret, paystackBaseUrl: fake.url });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const HELD = 'Bank account changed after approval.';
const NEEDS_APPROVAL = 'These paystubs need approval of their new bank account first.';

/** A distinct account per test and employee, so the fake's transfers say whose account was paid. */
let serial = 100_000;
const account = (bankCode = '044', prefix = '01') => nubanFor(bankCode, `${prefix}${String(serial++).padStart(7, '0')}`);

async function company(salaries: string[]) {
  // The token approves (run_approval: token): these tests are about destinations, not who approves.
  const c = await createCompany(ctx.db, { runApproval: 'token' });
  const [boss] = await createUsers(ctx.db, c.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    ctx.db,
    c.id,
    salaries.map((baseSalary) => ({ baseSalary })),
  );
  const accounts = staff.map(() => account());
  for (const [i, u] of staff.entries()) await setBankAccounts(ctx.db, [u.id], accounts[i]);
  await fundWalletPaystack(ctx.app, ctx.db, c, 10_000_000, fake);
  return { c, boss, staff, accounts };
}

/** The company's token becomes `scopes` (a company has one token at a time: the old one stops). */
async function swapToken(c: TestCompany, scopes: string[]): Promise<void> {
  const { token } = await issueToken(ctx.db, c.id, scopes);
  ctx.app.deps.authCache.clear();
  c.auth = { authorization: `Bearer ${token}` };
}

/** U4 (or U4s racing something else) with a token that may only update users (403 on everything else). */
async function asUsersOnly<T>(c: TestCompany, action: (auth: Record<string, string>) => Promise<T>): Promise<T> {
  const full = c.auth;
  await swapToken(c, ['users.update']);
  expect((await as(ctx.app, c).get('/api/users')).statusCode).toBe(403);
  try {
    return await action(c.auth);
  } finally {
    await swapToken(c, ['all']);
    expect(full).not.toEqual(c.auth);
  }
}
const updateUser = (c: TestCompany, id: number, body: Record<string, unknown>) =>
  asUsersOnly(c, (auth) => as(ctx.app, { auth }).put(`/api/users/${id}`, body));

async function approvedRun(c: TestCompany, boss: { email: string }, body: Record<string, unknown> = {}) {
  const created = await as(ctx.app, c).post('/api/payroll-runs', runBody(body));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().run.id as string;
  const approved = await as(ctx.app, c).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

const paystubs = async (c: TestCompany, runId: string) => {
  const res = await as(ctx.app, c).get(`/api/paystubs?transaction_id=${runId}&per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json().data.data as (Record<string, unknown> & { id: number; user_id: number; net_pay: number; status: string })[];
  return items.sort((a, b) => a.user_id - b.user_id);
};
const run = async (c: TestCompany, id: string) => (await as(ctx.app, c).get(`/api/payroll-runs/${id}`)).json().run;
/** Transfers the fake Paystack received to this account number, with how often each was received. */
const sentTo = (accountNumber: string) =>
  [...transfers.transfers.values()].filter((t) => t.account === accountNumber).map((t) => ({ amount: t.amount, received: t.received }));
const mailsTo = (address: string) =>
  queryRows<{ subject: string; text: string }>(ctx.db, sql`SELECT subject, text FROM outbox WHERE "to" = ${address} ORDER BY id`);
const kobo = (naira: number) => Math.round(naira * 100);

describe('a bank change after approval', () => {
  it('holds the paystub: pay pays the others and neither account; a new approval pays the new account exactly once', async () => {
    const { c, boss, staff, accounts } = await company(['300000.00', '400000.00']);
    const [moved, stays] = staff;
    const runId = await approvedRun(c, boss);

    // Approval pinned each account: the paystub shows it (last 4 digits only).
    const before = await paystubs(c, runId);
    expect(before[0]).toMatchObject({
      status: 'unpaid',
      hold_reason: null,
      payment_destination: { bank_code: '044', bank_name: 'Access Bank', account_last4: accounts[0].slice(-4) },
    });
    expect(JSON.stringify(before)).not.toContain(accounts[0]);

    // A token that may only update users moves the employee's salary to another bank.
    const newAccount = account('058', '02');
    const changed = await updateUser(c, moved.id, { bank_code: '058', account_number: newAccount });
    expect(changed.statusCode, changed.body).toBe(200);
    const held = await paystubs(c, runId);
    expect(held[0]).toMatchObject({ status: 'held', hold_reason: HELD, payment_destination: { account_last4: accounts[0].slice(-4) } });
    expect(held[1]).toMatchObject({ status: 'unpaid', hold_reason: null });
    expect((await run(c, runId)).counts).toMatchObject({ unpaid: 1, held: 1 });

    // The employee hears of it at both addresses: the bank and the new account's last 4 digits.
    for (const address of [moved.email, moved.personalEmail]) {
      const [mail] = await mailsTo(address);
      expect(mail.subject).toContain('bank account');
      expect(mail.text).toContain(`account ending ${newAccount.slice(-4)}`);
      expect(mail.text).toMatch(/Guaranty Trust Bank|GTBank/);
      expect(mail.text).not.toContain(newAccount);
    }

    // Pay pays the other employee; the held paystub is funded nowhere.
    const paid = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    await drainJobs(ctx.app);
    expect(sentTo(accounts[1])).toEqual([{ amount: kobo(Number(held[1].net_pay)), received: 1 }]);
    expect(sentTo(accounts[0])).toEqual([]);
    expect(sentTo(newAccount)).toEqual([]);
    const afterPay = await run(c, runId);
    expect(afterPay).toMatchObject({ status: 'partially_paid', counts: { paid: 1, held: 1, processing: 0, unpaid: 0 } });
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(409);

    // A new approval releases it with the new account; the next pay sends it there, once.
    const released = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().run).toMatchObject({ status: 'approved', counts: { unpaid: 1, paid: 1, held: 0 } });
    const [again] = await paystubs(c, runId);
    expect(again).toMatchObject({
      status: 'unpaid',
      hold_reason: null,
      payment_destination: { bank_code: '058', account_last4: newAccount.slice(-4) },
    });
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    await drainJobs(ctx.app);
    expect(sentTo(newAccount)).toEqual([{ amount: kobo(Number(again.net_pay)), received: 1 }]);
    expect(sentTo(accounts[0])).toEqual([]);
    expect(sentTo(accounts[1])).toHaveLength(1);
    expect(await run(c, runId)).toMatchObject({ status: 'paid', counts: { paid: 2, held: 0 } });
    expect(stays.id).toBe(held[1].user_id);
  });

  it('pay of a run whose every paystub is held is a 409 naming them, and changes nothing', async () => {
    const { c, boss, staff } = await company(['300000.00']);
    const runId = await approvedRun(c, boss);
    const res = await updateUser(c, staff[0].id, { account_number: account() });
    expect(res.statusCode, res.body).toBe(200);
    const [stub] = await paystubs(c, runId);
    const pay = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`);
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toEqual({ error: NEEDS_APPROVAL, paystub_ids: [stub.id] });
    expect(await run(c, runId)).toMatchObject({ status: 'approved', counts: { held: 1 } });
    // Cancelling the run cancels its held paystubs too.
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/cancel`)).statusCode).toBe(200);
    expect(await run(c, runId)).toMatchObject({ status: 'cancelled', counts: { held: 0, cancelled: 1 } });
  });

  it('U9 (bulk update) holds too and writes the e-mails; a change of other fields holds nothing', async () => {
    const { c, boss, staff } = await company(['300000.00', '300000.00']);
    const runId = await approvedRun(c, boss);
    const newAccount = account();
    const form = multipart({}, [
      {
        field: 'users_csv',
        filename: 'users.csv',
        contentType: 'text/csv',
        data: usersCsv(
          [
            { email: staff[0].email, bank_name: 'Access Bank', account_number: newAccount },
            { email: staff[1].email, title: 'Senior Accountant' },
          ],
          { update: true },
        ),
      },
    ]);
    const res = await as(ctx.app, c).post('/api/users/bulk-update', form.payload, { headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('success');
    expect((await paystubs(c, runId)).map((p) => p.status)).toEqual(['held', 'unpaid']);
    expect((await mailsTo(staff[0].personalEmail)).some((m) => m.text.includes(`account ending ${newAccount.slice(-4)}`))).toBe(true);
    expect((await mailsTo(staff[1].personalEmail)).some((m) => m.text.includes('account ending'))).toBe(false);
  });

  it('a re-invitation (U3 with the personal e-mail of an inactive employee) that replaces the account holds and e-mails too', async () => {
    const { c, boss, staff } = await company(['300000.00']);
    const runId = await approvedRun(c, boss);
    await ctx.db.execute(sql`UPDATE users SET is_active = false WHERE id = ${staff[0].id}`);
    const newAccount = account('058', '05');
    const res = await as(ctx.app, c).post(
      '/api/users',
      newUserBody(c, { personal_email: staff[0].personalEmail, bank_code: '058', account_number: newAccount, base_salary: 300000 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(staff[0].id);
    expect((await paystubs(c, runId))[0]).toMatchObject({ status: 'held', hold_reason: HELD });
    expect((await mailsTo(staff[0].personalEmail)).some((m) => m.text.includes(`account ending ${newAccount.slice(-4)}`))).toBe(true);
  });

  it('a change before approval holds nothing: approval pins the new account', async () => {
    const { c, boss, staff } = await company(['300000.00']);
    const created = await as(ctx.app, c).post('/api/payroll-runs', runBody());
    const runId = created.json().run.id as string;
    expect((await paystubs(c, runId))[0]).toMatchObject({ status: 'unpaid', payment_destination: null });
    const newAccount = account();
    expect((await updateUser(c, staff[0].id, { account_number: newAccount })).statusCode).toBe(200);
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
    expect((await paystubs(c, runId))[0]).toMatchObject({ status: 'unpaid', payment_destination: { account_last4: newAccount.slice(-4) } });
  });
});

describe('retry after a failed transfer', () => {
  it('answers 409 with the paystubs whose account changed, until they are approved; then pays the new account once', async () => {
    const { c, boss, staff } = await company(['300000.00']);
    const rejected = nubanFor('044', `999${String(serial++).padStart(6, '0')}`);
    await setBankAccounts(ctx.db, [staff[0].id], rejected);
    const runId = await approvedRun(c, boss);
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    const [failed] = await paystubs(c, runId);
    expect(failed.status).toBe('failed');

    const fixed = account();
    expect((await updateUser(c, staff[0].id, { account_number: fixed })).statusCode).toBe(200);
    const refused = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/retry`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: NEEDS_APPROVAL, paystub_ids: [failed.id] });
    expect(await run(c, runId)).toMatchObject({ status: 'failed' });

    const approved = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await paystubs(c, runId))[0]).toMatchObject({ status: 'failed', payment_destination: { account_last4: fixed.slice(-4) } });
    const retried = await as(ctx.app, c).post(`/api/payroll-runs/${runId}/retry`);
    expect(retried.statusCode, retried.body).toBe(202);
    await drainJobs(ctx.app);
    expect(sentTo(fixed)).toEqual([{ amount: kobo(Number(failed.net_pay)), received: 1 }]);
    expect(await run(c, runId)).toMatchObject({ status: 'paid' });
    // Nothing waits any more: approving again is the ordinary 409.
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/approve`, { approver_email: boss.email })).statusCode).toBe(409);
  });
});

describe('a bank change racing a pay', () => {
  it('each paystub is either sent to its pinned account or held, never both, and never to the new account', async () => {
    const { c, boss, staff, accounts } = await company(['300000.00', '300000.00', '300000.00', '300000.00']);
    const runId = await approvedRun(c, boss);
    const moved = staff.map(() => account('058', '03'));
    const results = await Promise.all([
      as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`),
      ...staff.map((u, i) => as(ctx.app, c).put(`/api/users/${u.id}`, { bank_code: '058', account_number: moved[i] })),
    ]);
    for (const r of results) expect([200, 202], r.body).toContain(r.statusCode);
    await drainJobs(ctx.app);
    const stubs = await paystubs(c, runId);
    for (const [i, stub] of stubs.entries()) {
      expect(sentTo(moved[i])).toEqual([]);
      if (stub.status === 'held') expect(sentTo(accounts[i])).toEqual([]);
      else {
        expect(stub.status).toBe('paid');
        expect(sentTo(accounts[i])).toEqual([{ amount: kobo(Number(stub.net_pay)), received: 1 }]);
      }
    }
    const counts = (await run(c, runId)).counts;
    expect(counts.paid + counts.held).toBe(4);
  });
});

describe('the payslip of a paid paystub', () => {
  it('shows the account it was paid to and the employee as approved, whatever changed since', async () => {
    const { c, boss, staff, accounts } = await company(['300000.00']);
    await ctx.db.execute(sql`UPDATE users SET first_name = 'Adaeze', last_name = 'Okafor', title = 'Accountant' WHERE id = ${staff[0].id}`);
    const runId = await approvedRun(c, boss);
    expect((await as(ctx.app, c).post(`/api/payroll-runs/${runId}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    const [stub] = await paystubs(c, runId);
    expect(stub.status).toBe('paid');
    const later = account('058', '04');
    const res = await updateUser(c, staff[0].id, {
      bank_code: '058',
      account_number: later,
      first_name: 'Renamed',
      title: 'Director',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await paystubs(c, runId);
    expect(after).toMatchObject({ status: 'paid', payment_destination: { bank_code: '044', account_last4: accounts[0].slice(-4) } });
    const [row] = await queryRows<{ first_name: string; title: string; bank_name: string; account_number: string }>(
      ctx.db,
      sql`SELECT p.employee_snapshot->>'first_name' AS first_name, p.employee_snapshot->>'title' AS title,
                 p.destination_bank_name AS bank_name, p.destination_account_number AS account_number
          FROM paystubs p WHERE p.id = ${stub.id}`,
    );
    expect(row).toEqual({ first_name: 'Adaeze', title: 'Accountant', bank_name: 'Access Bank', account_number: accounts[0] });
    const pdf = await as(ctx.app, c).get(`/api/paystubs/${stub.id}/payslip`);
    expect(pdf.statusCode).toBe(200);
    const text = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf.rawPayload }).stdout.toString();
    for (const shown of ['Adaeze Okafor', 'Accountant', 'Access Bank', `•••• ${accounts[0].slice(-4)}`]) expect(text).toContain(shown);
    for (const hidden of ['Renamed', 'Director', later.slice(-4)]) expect(text).not.toContain(hidden);
  });
});

describe('after every flow above', () => {
  it("every run's counts by status equal a GROUP BY of its paystubs (migrations/0265)", async () => {
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
