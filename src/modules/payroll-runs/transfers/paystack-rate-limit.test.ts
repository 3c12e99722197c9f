// Paystack's rate limit (docs/payroll-runs.md, "Paystack's rate limit"): a 429 is refused
// unprocessed, so the transfers it carried go back to queued, and the job comes back after the
// answer's Retry-After plus a random spread (so refused jobs do not come back together) without
// spending an attempt. A run paid through the fake Paystack with a
// limit of a few requests a second sends every transfer exactly once and settles.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { drainJobs, makeTransfersOverdue, runBody, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { type FakeTransfers, fakeTransfers, fundWalletPaystack } from '../../../../test/helpers/paystack-transfers.js';
import { type FakePaystack, startFakePaystack } from '../../../../test/helpers/wallet.js';
import { queryRows } from '../../../db/client.js';
import { createPayslipLinks } from '../../paystubs/index.js';
import { ProviderRateLimited, retryAfterSeconds } from '../../wallet/index.js';
import { createPaystackTransferProvider } from './paystack-transfers.provider.js';
import { MAX_RATE_LIMIT_SPREAD_SECONDS, rateLimitedDelay } from './transfer.provider.js';
import { transferJobs } from './transfers.jobs.js';
import type { BatchKey } from './transfers.repo.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A run of two employees (one account number, the whole of `month`) approved and paid: its send job
 * is queued, not run, for the test to run by hand.
 */
async function payingRun(month: string, lastDay: number, accountNumber: string) {
  const company = await createCompany(ctx.db, { runApproval: 'token' });
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(ctx.db, company.id, [{ baseSalary: '100000.00' }, { baseSalary: '110000.00' }]);
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
    accountNumber,
  );
  await fundWalletPaystack(ctx.app, ctx.db, company, 1_000_000, fake);
  const body = runBody({ pay_period_start: `${month}-01`, pay_period_end: `${month}-${lastDay}`, payment_date: `${month}-28` });
  const id = (await as(ctx.app, company).post('/api/payroll-runs', body)).json().run.id as string;
  expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
  expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
  const [job] = await queryRows<{ id: number; payload: BatchKey }>(
    ctx.db,
    sql`SELECT id, payload FROM jobs WHERE kind = 'payroll-runs.send' AND payload->>'runId' = ${id}`,
  );
  return { company, id, job };
}

describe("Paystack's rate limit", () => {
  it('Retry-After is read as seconds or an HTTP date, bounded; absent or unreadable waits 5 s', () => {
    const now = Date.parse('2026-03-01T10:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('86400', now)).toBe(600);
    expect(retryAfterSeconds('Sun, 01 Mar 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds(null, now)).toBe(5);
    expect(retryAfterSeconds('soon', now)).toBe(5);
  });

  it('a run paid under a limit of a few requests a second: every transfer sent once, the run settles', async () => {
    const size = 101; // two batches: 100 + 1
    const company = await createCompany(ctx.db, { runApproval: 'token' });
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(
      ctx.db,
      company.id,
      Array.from({ length: size }, () => ({ baseSalary: '100000.00' })),
    );
    for (const [i, user] of staff.entries()) await setBankAccounts(ctx.db, [user.id], `${String(i).padStart(3, '0')}7654321`);
    await fundWalletPaystack(ctx.app, ctx.db, company, 200_000 * size, fake);
    const created = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-06-01', pay_period_end: '2026-06-30', payment_date: '2026-06-28' }),
    );
    const id = created.json().run.id as string;
    const approved = await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect(approved.statusCode, approved.body).toBe(200);

    // One transfer request a second while sending (the second batch's requests meet 429s), more once
    // every transfer is in, so that the verifies (one request per transfer) finish in seconds.
    transfers.rateLimit = 1;
    const limitedBefore = transfers.limited;
    const paid = await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    const ours = () => [...transfers.transfers.values()].filter((t) => t.reason.includes('2026-06-01'));
    const deadline = Date.now() + 90_000;
    let sawComeBack = false;
    for (;;) {
      await ctx.app.deps.jobs.runDue(100);
      if (ours().length === size) transfers.rateLimit = 25;
      // A rate-limited send job waits for its Retry-After (not forced here), its attempt given back.
      const waiting = await queryRows<{ attempts: number }>(
        ctx.db,
        sql`SELECT attempts FROM jobs WHERE kind = 'payroll-runs.send' AND done_at IS NULL AND run_at > now() AND payload->>'runId' = ${id}`,
      );
      if (waiting.length > 0) {
        sawComeBack = true;
        expect(waiting.every((job) => job.attempts === 0)).toBe(true);
      }
      // The settle jobs' first look is a minute away: bring only that forward, not a Retry-After,
      // and let a minute pass for the transfers sent, whose webhooks (none here) are then overdue.
      await makeTransfersOverdue(ctx.db);
      await ctx.db.execute(
        sql`UPDATE jobs SET run_at = now() WHERE kind = 'payroll-runs.settle' AND done_at IS NULL AND run_at > now() + interval '5 seconds'`,
      );
      const open = await queryRows<{ n: number }>(
        ctx.db,
        sql`SELECT count(*)::int AS n FROM paystubs WHERE transaction_id = ${id} AND status <> 'paid'`,
      );
      if (open[0].n === 0) break;
      if (Date.now() > deadline) {
        const jobs = await queryRows(
          ctx.db,
          sql`SELECT kind, payload, run_at, attempts, last_error, done_at FROM jobs WHERE payload->>'runId' = ${id}`,
        );
        const t = await queryRows(ctx.db, sql`SELECT status, count(*) FROM payroll_transfers WHERE run_id = ${id} GROUP BY 1`);
        console.log(
          JSON.stringify(
            { jobs, t, reqs: fake.requests.slice(-30).map((r) => r.url), limited: transfers.limited, n: ours().length },
            null,
            1,
          ),
        );
        throw new Error(`run not settled: ${open[0].n} paystubs open`);
      }
      await sleep(200);
    }
    transfers.rateLimit = undefined;
    expect(sawComeBack).toBe(true);
    expect(transfers.limited).toBeGreaterThan(limitedBefore);
    expect(ours()).toHaveLength(size);
    expect(ours().every((t) => t.received === 1)).toBe(true);
    const run = await as(ctx.app, company).get(`/api/payroll-runs/${id}`);
    expect(run.json().run.status).toBe('paid');
    const failedJobs = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE kind LIKE 'payroll-runs.%' AND failed_at IS NOT NULL AND payload->>'runId' = ${id}`,
    );
    expect(failedJobs[0].n).toBe(0);
  }, 120_000);
  it('a refused job comes back after Retry-After plus a random point of Retry-After × √(open transfer jobs)', async () => {
    // The window: [Retry-After, Retry-After × (1 + √waiting)], the spread at most 600 s, the random point clamped to [0, 1].
    expect(rateLimitedDelay(3, 1, 0)).toBe(3);
    expect(rateLimitedDelay(3, 1, 0.5)).toBe(4.5);
    expect(rateLimitedDelay(3, 0, 0.999)).toBeLessThan(6);
    expect(rateLimitedDelay(1, 100, 0.5)).toBe(6);
    expect(rateLimitedDelay(2, 16, 7)).toBe(10);
    expect(rateLimitedDelay(2, 16, -1)).toBe(2);
    expect(rateLimitedDelay(600, 10_000, 0.999_999)).toBeCloseTo(600 + MAX_RATE_LIMIT_SPREAD_SECONDS, 2);

    // The send job of a run whose every request is refused (Retry-After: 1), with the random point given.
    const { company, id, job } = await payingRun('2026-07', 31, '0337654321');
    const [{ waiting }] = await queryRows<{ waiting: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS waiting FROM jobs WHERE kind IN ('payroll-runs.send', 'payroll-runs.settle') AND done_at IS NULL AND failed_at IS NULL`,
    );
    expect(waiting).toBeGreaterThanOrEqual(2);
    transfers.rateLimit = 0;
    const deps = {
      db: ctx.db,
      mailer: ctx.app.deps.mailer,
      provider: ctx.app.services.payrollRuns.provider,
      payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl),
    };
    const limitedBefore = transfers.limited;
    for (const [random, expected] of [
      [0, 1],
      [0.5, 1 + 0.5 * Math.sqrt(waiting)],
      [0.999_999, 1 + Math.sqrt(waiting)],
    ]) {
      const [send] = transferJobs({ ...deps, random: () => random });
      const outcome = await send.handler(job.payload, { db: ctx.db, log: ctx.app.log, jobId: job.id, attempt: 1 });
      expect(outcome).toEqual({ retryInSeconds: expect.closeTo(expected, 4) });
    }
    expect(transfers.limited).toBeGreaterThan(limitedBefore);
    // Nothing was sent: the run pays in full once the provider answers again, and its Retry-After
    // (1 s) has passed: until then the provider is not asked.
    transfers.rateLimit = undefined;
    await sleep(1_100);
    await drainJobs(ctx.app);
    expect((await as(ctx.app, company).get(`/api/payroll-runs/${id}`)).json().run).toMatchObject({ status: 'paid', counts: { paid: 2 } });
  });

  it("within a 429's Retry-After a send job asks Paystack nothing and writes no row; the run pays once it has passed", async () => {
    const { company, id, job } = await payingRun('2026-08', 31, '0447654321');
    // A provider of its own, so that the app's (which pays the run at the end) knows of no limit.
    const provider = createPaystackTransferProvider({ db: ctx.db, secretKey: fake.secret, baseUrl: fake.url });
    const deps = { db: ctx.db, mailer: ctx.app.deps.mailer, provider, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) };
    const [send] = transferJobs({ ...deps, random: () => 0 });
    const runSend = () => send.handler(job.payload, { db: ctx.db, log: ctx.app.log, jobId: job.id, attempt: 1 });
    const rows = () =>
      queryRows<{ reference: string; status: string; version: string }>(
        ctx.db,
        sql`SELECT reference, status, xmin::text AS version FROM payroll_transfers WHERE run_id = ${id} ORDER BY reference`,
      );

    transfers.bulkAnswer = {
      kind: 'json',
      httpStatus: 429,
      headers: { 'retry-after': '30' },
      body: { status: false, message: 'Too many' },
    };
    expect(await runSend()).toEqual({ retryInSeconds: 30 });
    const refused = await rows();
    expect(refused.map((row) => row.status)).toEqual(['queued', 'queued']);
    expect(provider.limitedFor?.()).toBeGreaterThanOrEqual(29);
    const asked = fake.requests.length;

    for (let i = 0; i < 3; i++) {
      const outcome = await runSend();
      expect(outcome).toEqual({ retryInSeconds: expect.any(Number) });
      expect((outcome as { retryInSeconds: number }).retryInSeconds).toBeGreaterThanOrEqual(29);
      expect((outcome as { retryInSeconds: number }).retryInSeconds).toBeLessThanOrEqual(30);
    }
    expect(fake.requests.length).toBe(asked);
    expect(await rows()).toEqual(refused);

    transfers.bulkAnswer = undefined;
    await drainJobs(ctx.app);
    expect((await as(ctx.app, company).get(`/api/payroll-runs/${id}`)).json().run).toMatchObject({ status: 'paid', counts: { paid: 2 } });
    expect([...transfers.transfers.values()].filter((t) => t.reason.includes('2026-08-01')).every((t) => t.received === 1)).toBe(true);
  });

  it('a 429 is a ProviderRateLimited carrying its Retry-After, and the bulk it refused is not recorded', async () => {
    const provider = createPaystackTransferProvider({ db: ctx.db, secretKey: fake.secret, baseUrl: fake.url });
    transfers.bulkAnswer = { kind: 'json', httpStatus: 429, headers: { 'retry-after': '3' }, body: { status: false, message: 'Too many' } };
    const sent = provider.sendBatch([
      {
        reference: 'PT-RATE0001-1',
        amount: '1000.00',
        bankName: 'Access Bank',
        bankCode: '044',
        accountNumber: '0690000099',
        accountName: 'Ada Obi',
        reason: 'salary',
      },
    ]);
    await expect(sent).rejects.toBeInstanceOf(ProviderRateLimited);
    await expect(sent).rejects.toMatchObject({ retryAfterSeconds: 3 });
    transfers.bulkAnswer = undefined;
    expect(transfers.transfers.has('salary-pt-rate0001-1')).toBe(false);
  });
});
