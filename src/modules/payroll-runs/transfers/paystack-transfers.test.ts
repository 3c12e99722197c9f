// Paystack Transfers against the fake Paystack server: the adapter's requests and answers, the
// run-level pay tests shared with the sandbox, recipients created once, batches of more than 100,
// Paystack failing to answer, and the OTP case.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { payRunSuite } from '../../../../test/helpers/pay-suite.js';
import { drainJobs, ledger, makeTransfersOverdue, runBody, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { type FakeTransfers, fakeTransfers, fundWalletPaystack } from '../../../../test/helpers/paystack-transfers.js';
import { type FakePaystack, startFakePaystack } from '../../../../test/helpers/wallet.js';
import { queryRows } from '../../../db/client.js';
import { ProviderError } from '../../wallet/index.js';
import {
  createPaystackTransferProvider,
  fromPaystackReference,
  koboOf,
  OTP_REQUIRED,
  REVERSED,
  stateOf,
  toPaystackReference,
} from './paystack-transfers.provider.js';
import { pollDelay } from './transfer.provider.js';

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

payRunSuite('paystack', () => ({
  ctx,
  fund: (company, amount) => fundWalletPaystack(ctx.app, ctx.db, company, amount, fake),
  rejectedReason: 'Paystack could not pay this account (transfer failed).',
}));

const provider = (timeoutMs = 5000) => createPaystackTransferProvider({ db: ctx.db, secretKey: fake.secret, baseUrl: fake.url, timeoutMs });
const request = (over: Partial<Parameters<ReturnType<typeof provider>['sendBatch']>[0][number]> = {}) => ({
  reference: 'PT-ABCDEF12-1',
  amount: '125000.50',
  bankName: 'Access Bank',
  bankCode: '044',
  accountNumber: '0690000031',
  accountName: 'Ada Obi',
  reason: 'Acme salary 2026-03-01 to 2026-03-31',
  ...over,
});

describe('the adapter', () => {
  it('maps references to Paystack’s rules and back, and amounts to integer kobo without floats', () => {
    expect(toPaystackReference('PT-ABCDEF12-42')).toBe('salary-pt-abcdef12-42');
    expect(toPaystackReference('PT-ABCDEF12-1')).toMatch(/^[a-z0-9_-]{16,50}$/);
    expect(fromPaystackReference('salary-pt-abcdef12-42')).toBe('PT-ABCDEF12-42');
    for (const wire of ['pt-abcdef12-42', 'salary-PT-1', 42, null, `salary-${'x'.repeat(60)}`])
      expect(fromPaystackReference(wire)).toBeUndefined();
    expect(koboOf('125000.50')).toBe(12500050);
    expect(koboOf('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(koboOf('1234567.05')).toBe(123456705);
    expect(() => koboOf('1.234')).toThrow();
  });

  it('maps every Paystack transfer status; OTP and reversals fail with their reasons; an unknown status is not an answer', () => {
    const kinds = Object.fromEntries(
      ['success', 'failed', 'reversed', 'pending', 'processing', 'received', 'queued', 'otp', 'abandoned', 'blocked', 'rejected'].map(
        (s) => [s, stateOf('R', s).status],
      ),
    );
    expect(kinds).toEqual({
      success: 'success',
      failed: 'failed',
      reversed: 'failed',
      pending: 'pending',
      processing: 'pending',
      received: 'pending',
      queued: 'pending',
      otp: 'failed',
      abandoned: 'failed',
      blocked: 'failed',
      rejected: 'failed',
    });
    expect(stateOf('R', 'otp')).toEqual({ reference: 'R', status: 'failed', reason: OTP_REQUIRED });
    expect(stateOf('R', 'reversed')).toEqual({ reference: 'R', status: 'failed', reason: REVERSED, reversed: true });
    expect(() => stateOf('R', 'weird')).toThrow(ProviderError);
  });

  it('creates the recipient once (nuban, NGN), sends one bulk request (balance, NGN, kobo, reference, reason), verifies', async () => {
    fake.requests.length = 0;
    const first = await provider().sendBatch([request()]);
    expect(first).toEqual([{ reference: 'PT-ABCDEF12-1', accepted: true }]);
    const [recipients, bulk] = fake.requests;
    expect(recipients.url).toBe('/transferrecipient/bulk');
    expect(JSON.parse(recipients.body)).toEqual({
      batch: [{ type: 'nuban', name: 'Ada Obi', account_number: '0690000031', bank_code: '044', currency: 'NGN' }],
    });
    expect(bulk.url).toBe('/transfer/bulk');
    const code = transfers.recipients.get('044:0690000031');
    expect(JSON.parse(bulk.body)).toEqual({
      currency: 'NGN',
      source: 'balance',
      transfers: [{ amount: 12500050, reference: 'salary-pt-abcdef12-1', reason: 'Acme salary 2026-03-01 to 2026-03-31', recipient: code }],
    });
    fake.requests.length = 0;
    await provider().sendBatch([request({ reference: 'PT-ABCDEF12-2' })]);
    expect(fake.requests.map((r) => r.url)).toEqual(['/transfer/bulk']); // the stored recipient is reused
    expect(await provider().status(['PT-ABCDEF12-1', 'PT-NOPE0000-1'])).toEqual([
      { reference: 'PT-ABCDEF12-1', status: 'success' },
      { reference: 'PT-NOPE0000-1', status: 'unknown' },
    ]);
  });

  it('timeouts, 5xx and malformed answers are ProviderErrors (retried later), never an outcome', async () => {
    const answers = [
      { kind: 'hang' as const, ms: 1500 },
      { kind: 'json' as const, httpStatus: 503, body: { status: false, message: 'down' } },
      { kind: 'raw' as const, httpStatus: 502, text: '<html>Bad gateway</html>' },
      { kind: 'raw' as const, httpStatus: 200, text: '{"status": true, "data": {' },
      { kind: 'json' as const, body: { status: true, data: null } },
      { kind: 'json' as const, body: { status: true, data: { reference: 'salary-pt-other-1', status: 'success' } } },
      { kind: 'json' as const, httpStatus: 429, body: { status: false, message: 'Too many requests' } },
    ];
    for (const answer of answers) {
      transfers.verifyAnswer = answer;
      await expect(provider(500).status(['PT-ABCDEF12-1'])).rejects.toBeInstanceOf(ProviderError);
      transfers.bulkAnswer = answer;
      await expect(provider(500).sendBatch([request({ reference: 'PT-ABCDEF12-3' })])).rejects.toBeInstanceOf(ProviderError);
    }
    transfers.verifyAnswer = undefined;
    transfers.bulkAnswer = undefined;
    expect(transfers.transfers.has('salary-pt-abcdef12-3')).toBe(false);
  });

  it('polls back off with the time waited, bounded', () => {
    const paystack = { settleAfterSeconds: 60, maxPollSeconds: 1800 };
    expect([0, 60, 300, 1200, 3600, 86_400].map((s) => pollDelay(paystack, s))).toEqual([60, 60, 150, 600, 1800, 1800]);
    const sandbox = { settleAfterSeconds: 5, maxPollSeconds: 5 };
    expect([0, 600].map((s) => pollDelay(sandbox, s))).toEqual([5, 5]);
  });
});

/** The last day of a `YYYY-MM` month. */
const monthEnd = (period: string) => {
  const [y, m] = period.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

async function paidRun(size: number, accountFor: (i: number) => string = () => '0123456789') {
  const company = await createCompany(ctx.db, { runApproval: 'token' }); // the token approves
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    ctx.db,
    company.id,
    Array.from({ length: size }, () => ({ baseSalary: '100000.00' })),
  );
  for (const [i, user] of staff.entries()) await setBankAccounts(ctx.db, [user.id], accountFor(i));
  await fundWalletPaystack(ctx.app, ctx.db, company, 200_000 * size, fake); // two runs
  const pay = async (period: string) => {
    const created = await as(ctx.app, company).post(
      '/api/payroll-runs',
      // One calendar month: a run from salaries pays one pay period of the company (monthly).
      runBody({ pay_period_start: `${period}-01`, pay_period_end: monthEnd(period), payment_date: `${period}-28` }),
    );
    const id = created.json().run.id as string;
    await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    const paid = await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    return id;
  };
  return { company, staff, pay };
}
const statuses = (runId: string) =>
  queryRows<{ status: string; failure_reason: string | null }>(
    ctx.db,
    sql`SELECT status, failure_reason FROM paystubs WHERE transaction_id = ${runId} ORDER BY id`,
  );

describe('runs on Paystack', () => {
  it('recipients are created once per account and reused by the next run; 101 transfers go as 100 + 1', async () => {
    const { pay } = await paidRun(101, (i) => `${String(i).padStart(3, '0')}1234567`);
    const created = transfers.recipientRequests.length;
    const bulks = transfers.bulks.length;
    const first = await pay('2026-01');
    await drainJobs(ctx.app);
    expect((await statuses(first)).every((s) => s.status === 'paid')).toBe(true);
    const bySize = (counts: number[]) => [...counts].sort((a, b) => a - b); // batches may go in either order
    expect(bySize(transfers.recipientRequests.slice(created))).toEqual([1, 100]);
    expect(bySize(transfers.bulks.slice(bulks).map((b) => b.length))).toEqual([1, 100]);

    const second = await pay('2026-02');
    await drainJobs(ctx.app);
    expect((await statuses(second)).every((s) => s.status === 'paid')).toBe(true);
    expect(transfers.recipientRequests.length).toBe(created + 2); // no recipient request for the second run
    expect(bySize(transfers.bulks.slice(bulks + 2).map((b) => b.length))).toEqual([1, 100]);
  });

  it('Paystack unreachable or answering garbage settles nothing; the jobs retry and pay once it answers', async () => {
    const { company, pay } = await paidRun(2);
    transfers.bulkAnswer = { kind: 'json', httpStatus: 500, body: { status: false, message: 'oops' } };
    const id = await pay('2026-03');
    await ctx.app.deps.jobs.runDue(100);
    expect((await statuses(id)).map((s) => s.status)).toEqual(['processing', 'processing']);
    transfers.bulkAnswer = undefined;
    transfers.verifyAnswer = { kind: 'raw', httpStatus: 200, text: 'not json' };
    await ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind LIKE 'payroll-runs.%' AND done_at IS NULL`);
    await ctx.app.deps.jobs.runDue(100);
    // The webhooks are overdue: the settle job asks Paystack, and gets garbage.
    await makeTransfersOverdue(ctx.db);
    await ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind LIKE 'payroll-runs.%' AND done_at IS NULL`);
    await ctx.app.deps.jobs.runDue(100);
    expect((await statuses(id)).map((s) => s.status)).toEqual(['processing', 'processing']);
    transfers.verifyAnswer = undefined;
    await drainJobs(ctx.app);
    expect((await statuses(id)).map((s) => s.status)).toEqual(['paid', 'paid']);
    expect((await ledger(ctx.db, company.id)).map((e) => e.kind)).toEqual(['top_up', 'payroll_debit']);
    const sent = [...transfers.transfers.values()].filter((t) => t.reason.includes('2026-03-01'));
    expect(sent.every((t) => t.received === 1)).toBe(true);
  });

  it('transfer OTP enabled: the bulk request is refused, every paystub fails with the OTP reason and is refunded', async () => {
    const { company, pay } = await paidRun(2);
    transfers.bulkAnswer = {
      kind: 'json',
      httpStatus: 400,
      body: { status: false, message: 'You need to disable the Transfers OTP requirement to use this endpoint' },
    };
    const id = await pay('2026-04');
    await drainJobs(ctx.app);
    transfers.bulkAnswer = undefined;
    expect(await statuses(id)).toEqual([
      { status: 'failed', failure_reason: OTP_REQUIRED },
      { status: 'failed', failure_reason: OTP_REQUIRED },
    ]);
    const run = await as(ctx.app, company).get(`/api/payroll-runs/${id}`);
    expect(run.json().run.status).toBe('failed');
    expect((await ledger(ctx.db, company.id)).map((e) => e.kind)).toEqual(['top_up', 'payroll_debit', 'payroll_refund', 'payroll_refund']);
  });

  it('a transfer Paystack holds for an OTP fails with the OTP reason and is refunded', async () => {
    const { company, pay } = await paidRun(1);
    transfers.outcome = () => 'otp';
    const id = await pay('2026-05');
    await drainJobs(ctx.app);
    transfers.outcome = (account) => (account.startsWith('999') ? 'failed' : 'success');
    expect(await statuses(id)).toEqual([{ status: 'failed', failure_reason: OTP_REQUIRED }]);
    expect((await ledger(ctx.db, company.id)).map((e) => e.kind)).toEqual(['top_up', 'payroll_debit', 'payroll_refund']);
  });
});
