// Paystack's transfer webhooks on the wallet's POST /webhooks/paystack, against the fake Paystack:
// before and after the verify job, duplicates, bad signatures, unknown references and amounts, a
// reversal after success (one refund, the run re-finished, paystub.failed), two instances racing
// (webhook on one, verify job on the other), and the crash re-send that asks Paystack first.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { drainJobs, ledger, makeTransfersOverdue, runBody, runCountDrift, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { type FakeTransfers, fakeTransfers, fundWalletPaystack, transferWebhook } from '../../../../test/helpers/paystack-transfers.js';
import { type FakePaystack, paystackSignature, startFakePaystack } from '../../../../test/helpers/wallet.js';
import { type Receiver, startReceiver, webhookTestConfig } from '../../../../test/helpers/webhooks.js';
import { queryRows } from '../../../db/client.js';
import { createPayslipLinks } from '../../paystubs/index.js';
import { REVERSED, toPaystackReference } from './paystack-transfers.provider.js';
import { sendBatch, settleBatch } from './transfers.jobs.js';
import type { BatchKey } from './transfers.repo.js';
import { settleTransfers } from './transfers.settle.service.js';
import { createWebhookPulse } from './webhook-pulse.service.js';

let fake: FakePaystack;
let transfers: FakeTransfers;
let receiver: Receiver;
let ctx: TestContext;
let other: TestContext;

beforeAll(async () => {
  fake = await startFakePaystack();
  transfers = fakeTransfers(fake);
  receiver = await startReceiver();
  const config = { ...webhookTestConfig, paymentProvider: 'paystack' as const, paystackSecretKey: fake.secret, paystackBaseUrl: fake.url };
  ctx = await createTestApp(config);
  other = await createTestApp(config, ctx.testDb); // a second instance on the same database
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
  await receiver?.close();
  await fake?.close();
});

/** A paid run of `size` employees whose transfers are at Paystack (send job done, settle job not yet due). */
async function inFlight(size: number, options: { send?: boolean } = {}) {
  const company = await createCompany(ctx.db, { runApproval: 'token' }); // the token approves
  const endpoint = await as(ctx.app, company).post('/api/webhook-endpoints', { url: receiver.url('/hooks'), events: ['*'] });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    ctx.db,
    company.id,
    Array.from({ length: size }, () => ({ baseSalary: '250000.00' })),
  );
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  await fundWalletPaystack(ctx.app, ctx.db, company, 300_000 * size, fake);
  const created = await as(ctx.app, company).post('/api/payroll-runs', runBody());
  const id = created.json().run.id as string;
  await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
  expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
  if (options.send !== false) await ctx.app.deps.jobs.runDue(100); // the send job; the settle job waits 60 s
  const stubs = await queryRows<{ reference: string; net_pay: string; email: string }>(
    ctx.db,
    sql`SELECT p.payment_reference AS reference, p.net_pay::text AS net_pay, u.personal_email AS email
        FROM paystubs p JOIN users u ON u.id = p.user_id WHERE p.transaction_id = ${id} ORDER BY p.id`,
  );
  return { company, id, stubs };
}

const event = (reference: string, netPay: string, status: string) => ({
  reference: toPaystackReference(reference),
  amount: Math.round(Number(netPay) * 100),
  currency: 'NGN',
  status,
  transfer_code: 'TRF_x',
  source: 'balance',
  reason: 'salary',
  recipient: { recipient_code: 'RCP_x', type: 'nuban' },
});
const state = (id: string) =>
  queryRows<{ status: string; failure_reason: string | null }>(
    ctx.db,
    sql`SELECT status, failure_reason FROM paystubs WHERE transaction_id = ${id} ORDER BY id`,
  );
const runStatus = async (id: string) =>
  (await queryRows<{ status: string }>(ctx.db, sql`SELECT status FROM payroll_runs WHERE id = ${id}`))[0].status;
const mails = async (to: string) =>
  (await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM outbox WHERE "to" = ${to}`))[0].n;
const kinds = async (companyId: number) => (await ledger(ctx.db, companyId)).map((e) => e.kind);
const makeSettleDue = async () => {
  await makeTransfersOverdue(ctx.db);
  await ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind = 'payroll-runs.settle' AND done_at IS NULL AND failed_at IS NULL`);
};

describe('transfer webhooks', () => {
  it('before the verify job: transfer.success pays once; a duplicate and the later job change nothing', async () => {
    const { id, stubs } = await inFlight(1);
    const [stub] = stubs;
    expect(await state(id)).toEqual([{ status: 'processing', failure_reason: null }]);
    for (let i = 0; i < 2; i++) {
      const res = await transferWebhook(ctx.app, fake, 'transfer.success', event(stub.reference, stub.net_pay, 'success'));
      expect(res.statusCode).toBe(200);
    }
    expect(await state(id)).toEqual([{ status: 'paid', failure_reason: null }]);
    expect(await runStatus(id)).toBe('paid');
    await drainJobs(ctx.app);
    expect(await mails(stub.email)).toBe(1);
  });

  it('a settle look before the webhook is overdue asks Paystack nothing and comes back when it will be', async () => {
    const { id, stubs } = await inFlight(2);
    const verifies = () => fake.requests.filter((r) => r.url.startsWith('/transfer/verify/')).length;
    const before = verifies();
    // The job's first look, made due at once: the transfers went out a moment ago, their webhooks
    // have 60 s, so Paystack's rate limit is kept for sending (docs/payroll-runs.md).
    await ctx.db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind = 'payroll-runs.settle' AND done_at IS NULL`);
    await ctx.app.deps.jobs.runDue(100);
    expect(verifies()).toBe(before);
    expect((await state(id)).map((s) => s.status)).toEqual(['processing', 'processing']);
    const [job] = await queryRows<{ wait: number }>(
      ctx.db,
      sql`SELECT extract(epoch FROM run_at - now())::float8 AS wait FROM jobs
          WHERE kind = 'payroll-runs.settle' AND done_at IS NULL AND payload->>'runId' = ${id}`,
    );
    expect(job.wait).toBeGreaterThan(45);
    expect(job.wait).toBeLessThanOrEqual(60);
    // One webhook comes; a minute later the look asks only about the other transfer.
    await transferWebhook(ctx.app, fake, 'transfer.success', event(stubs[0].reference, stubs[0].net_pay, 'success'));
    await makeSettleDue();
    await ctx.app.deps.jobs.runDue(100);
    expect(verifies()).toBe(before + 1);
    expect((await state(id)).map((s) => s.status)).toEqual(['paid', 'paid']);
  });

  it("while the run's webhooks keep coming, a look waits for the late ones; it asks once they stop for a minute or half an hour after sending", async () => {
    const { id, stubs } = await inFlight(3);
    const verified = (reference: string) =>
      fake.requests.filter((r) => r.url === `/transfer/verify/${encodeURIComponent(toPaystackReference(reference))}`).length;
    const sentAgo = (seconds: number, references: string[]) =>
      ctx.db.execute(
        sql`UPDATE payroll_transfers SET sent_at = now() - make_interval(secs => ${seconds})
            WHERE run_id = ${id} AND reference = ANY(${`{${references.join(',')}}`}::text[])`,
      );
    // Through the app: one webhook settles the first transfer; the others, sent five minutes ago,
    // are overdue by the minute, yet the run's webhooks are coming, so the look asks nothing.
    await transferWebhook(ctx.app, fake, 'transfer.success', event(stubs[0].reference, stubs[0].net_pay, 'success'));
    await sentAgo(300, [stubs[1].reference, stubs[2].reference]);
    await ctx.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE kind = 'payroll-runs.settle' AND done_at IS NULL AND payload->>'runId' = ${id}`,
    );
    await ctx.app.deps.jobs.runDue(100);
    expect(verified(stubs[1].reference) + verified(stubs[2].reference)).toBe(0);
    expect((await state(id)).map((s) => s.status)).toEqual(['paid', 'processing', 'processing']);
    const [job] = await queryRows<{ wait: number; payload: BatchKey }>(
      ctx.db,
      sql`SELECT extract(epoch FROM run_at - now())::float8 AS wait, payload FROM jobs
          WHERE kind = 'payroll-runs.settle' AND done_at IS NULL AND payload->>'runId' = ${id}`,
    );
    expect(job.wait).toBeGreaterThan(45);
    expect(job.wait).toBeLessThanOrEqual(60); // the next look: a minute, in case the webhooks stop

    // The same look with a clock of its own: half an hour after sending, a transfer is asked about
    // even while the webhooks come; the other is asked once no webhook came for a minute.
    let now = 1_000_000;
    const webhooks = createWebhookPulse(() => now);
    const deps = { db: ctx.db, mailer: ctx.app.deps.mailer, provider: ctx.app.services.payrollRuns.provider, webhooks };
    const look = () => settleBatch({ ...deps, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) }, job.payload);
    webhooks.beat(id);
    await sentAgo(1_801, [stubs[1].reference]);
    now += 10_000;
    expect(await look()).toBeLessThanOrEqual(60);
    expect([verified(stubs[1].reference), verified(stubs[2].reference)]).toEqual([1, 0]);
    expect((await state(id)).map((s) => s.status)).toEqual(['paid', 'paid', 'processing']);
    now += 51_000; // 61 s since the last webhook
    expect(await look()).toBeUndefined();
    expect([verified(stubs[1].reference), verified(stubs[2].reference)]).toEqual([1, 1]);
    expect((await state(id)).map((s) => s.status)).toEqual(['paid', 'paid', 'paid']);
  });

  it('after the verify job: a late transfer.success or transfer.failed changes nothing', async () => {
    const { company, id, stubs } = await inFlight(1);
    await drainJobs(ctx.app);
    expect(await state(id)).toEqual([{ status: 'paid', failure_reason: null }]);
    await transferWebhook(ctx.app, fake, 'transfer.success', event(stubs[0].reference, stubs[0].net_pay, 'success'));
    await transferWebhook(ctx.app, fake, 'transfer.failed', event(stubs[0].reference, stubs[0].net_pay, 'failed'));
    expect(await state(id)).toEqual([{ status: 'paid', failure_reason: null }]);
    expect(await kinds(company.id)).toEqual(['top_up', 'payroll_debit']);
    expect(await mails(stubs[0].email)).toBe(1);
  });

  it('a bad signature is refused (401); an unknown reference or another amount is acknowledged and changes nothing', async () => {
    const { id, stubs } = await inFlight(1);
    const [stub] = stubs;
    const data = event(stub.reference, stub.net_pay, 'failed');
    const forged = paystackSignature('sk_test_someone_else', JSON.stringify({ event: 'transfer.failed', data }));
    expect((await transferWebhook(ctx.app, fake, 'transfer.failed', data, forged)).statusCode).toBe(401);
    expect((await transferWebhook(ctx.app, fake, 'transfer.failed', data, 'nope')).statusCode).toBe(401);
    const unknown = { ...data, reference: 'salary-pt-00000000-1' };
    expect((await transferWebhook(ctx.app, fake, 'transfer.failed', unknown)).statusCode).toBe(200);
    const moreMoney = { ...data, amount: data.amount + 1 };
    expect((await transferWebhook(ctx.app, fake, 'transfer.failed', moreMoney)).statusCode).toBe(200);
    const noAmount = { ...data, amount: undefined };
    expect((await transferWebhook(ctx.app, fake, 'transfer.failed', noAmount)).statusCode).toBe(200);
    expect(await state(id)).toEqual([{ status: 'processing', failure_reason: null }]);
  });

  it('transfer.failed fails and refunds once, however often it comes', async () => {
    const { company, id, stubs } = await inFlight(1);
    for (let i = 0; i < 3; i++)
      await transferWebhook(ctx.app, fake, 'transfer.failed', event(stubs[0].reference, stubs[0].net_pay, 'failed'));
    expect(await state(id)).toEqual([{ status: 'failed', failure_reason: 'Paystack could not pay this account (transfer failed).' }]);
    expect(await kinds(company.id)).toEqual(['top_up', 'payroll_debit', 'payroll_refund']);
    expect(await runStatus(id)).toBe('failed');
  });

  it('a reversal after success fails the paystub, refunds once, re-finishes the run and announces paystub.failed', async () => {
    const { company, id, stubs } = await inFlight(2);
    await drainJobs(ctx.app);
    expect(await runStatus(id)).toBe('paid');
    for (let i = 0; i < 2; i++) {
      const res = await transferWebhook(ctx.app, fake, 'transfer.reversed', event(stubs[0].reference, stubs[0].net_pay, 'reversed'));
      expect(res.statusCode).toBe(200);
    }
    expect(await state(id)).toEqual([
      { status: 'failed', failure_reason: REVERSED },
      { status: 'paid', failure_reason: null },
    ]);
    const entries = await ledger(ctx.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual(['top_up', 'payroll_debit', 'payroll_refund']);
    expect(entries[2]).toMatchObject({ amount: stubs[0].net_pay, reference: stubs[0].reference });
    expect(await runStatus(id)).toBe('partially_paid');
    const events = await queryRows<{ type: string; reference: string | null }>(
      ctx.db,
      sql`SELECT type, body::jsonb->'data'->>'reference' AS reference FROM webhook_events
          WHERE company_id = ${company.id} AND type IN ('paystub.failed', 'payroll_run.partially_paid') ORDER BY type`,
    );
    expect(events).toEqual([
      { type: 'payroll_run.partially_paid', reference: null },
      { type: 'paystub.failed', reference: stubs[0].reference },
    ]);
    // The other one reversed too: the run fails; a retry can fund both again.
    await transferWebhook(ctx.app, fake, 'transfer.reversed', event(stubs[1].reference, stubs[1].net_pay, 'reversed'));
    expect(await runStatus(id)).toBe('failed');
    expect(await kinds(company.id)).toEqual(['top_up', 'payroll_debit', 'payroll_refund', 'payroll_refund']);
  });
});

describe('verify answering reversed', () => {
  it('for a paystub a webhook just paid: it fails, refunded once even when two settlements race', async () => {
    const { company, id, stubs } = await inFlight(1);
    const [stub] = stubs;
    await transferWebhook(ctx.app, fake, 'transfer.success', event(stub.reference, stub.net_pay, 'success'));
    expect(await runStatus(id)).toBe('paid');
    const wire = transfers.transfers.get(toPaystackReference(stub.reference));
    if (wire) wire.status = 'reversed';
    const [answer] = await ctx.app.services.payrollRuns.provider.status([stub.reference]);
    expect(answer).toEqual({ reference: stub.reference, status: 'failed', reason: REVERSED, reversed: true });
    const outcome = { reference: stub.reference, ok: false, reason: REVERSED, reversed: true };
    const deps = { db: ctx.db, mailer: ctx.app.deps.mailer, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) };
    await Promise.all([settleTransfers(deps, company.id, id, [outcome]), settleTransfers(deps, company.id, id, [outcome])]);
    expect(await state(id)).toEqual([{ status: 'failed', failure_reason: REVERSED }]);
    expect(await kinds(company.id)).toEqual(['top_up', 'payroll_debit', 'payroll_refund']);
    expect(await runStatus(id)).toBe('failed');
  });
});

describe('two instances racing on one outcome', () => {
  it('webhook on one, verify job on the other, at once: one settlement, one e-mail; one refund for a failure', async () => {
    const paid = await inFlight(3);
    await makeSettleDue();
    await Promise.all([
      ...paid.stubs.map((s) => transferWebhook(ctx.app, fake, 'transfer.success', event(s.reference, s.net_pay, 'success'))),
      other.app.deps.jobs.runDue(100),
    ]);
    await drainJobs(ctx.app);
    expect((await state(paid.id)).map((s) => s.status)).toEqual(['paid', 'paid', 'paid']);
    for (const s of paid.stubs) expect(await mails(s.email)).toBe(1);

    transfers.outcome = () => 'failed';
    const failed = await inFlight(2);
    await makeSettleDue();
    await Promise.all([
      ...failed.stubs.map((s) => transferWebhook(other.app, fake, 'transfer.failed', event(s.reference, s.net_pay, 'failed'))),
      ctx.app.deps.jobs.runDue(100),
    ]);
    transfers.outcome = (account) => (account.startsWith('999') ? 'failed' : 'success');
    expect((await state(failed.id)).map((s) => s.status)).toEqual(['failed', 'failed']);
    expect(await kinds(failed.company.id)).toEqual(['top_up', 'payroll_debit', 'payroll_refund', 'payroll_refund']);
    expect(await runStatus(failed.id)).toBe('failed');
  });
});

describe('a crash between "sending" and "sent"', () => {
  it('the send job asks Paystack about each reference: what Paystack has is not sent again, the rest is', async () => {
    const { company, id, stubs } = await inFlight(2, { send: false });
    const rows = await queryRows<{ reference: string; amount: string; account_number: string }>(
      ctx.db,
      sql`SELECT reference, amount::text AS amount, account_number FROM payroll_transfers WHERE run_id = ${id} ORDER BY reference`,
    );
    // The crash: both marked sending (committed), only the first reached Paystack.
    await ctx.db.execute(sql`UPDATE payroll_transfers SET status = 'sending', sent_at = now() WHERE run_id = ${id}`);
    const provider = ctx.app.services.payrollRuns.provider;
    await provider.sendBatch([
      {
        reference: rows[0].reference,
        amount: rows[0].amount,
        bankName: 'Access Bank',
        bankCode: '044',
        accountNumber: rows[0].account_number,
        accountName: 'Crash Test',
        reason: 'x',
      },
    ]);
    fake.requests.length = 0;
    await sendBatch(
      { db: ctx.db, mailer: ctx.app.deps.mailer, provider, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) },
      { companyId: company.id, runId: id, attempt: 1, batch: 0 },
    );
    expect(fake.requests.filter((r) => r.url.startsWith('/transfer/verify/')).map((r) => r.url)).toEqual(
      rows.map((r) => `/transfer/verify/${toPaystackReference(r.reference)}`),
    );
    const bulk = fake.requests.filter((r) => r.url === '/transfer/bulk');
    expect(bulk.map((r) => JSON.parse(r.body).transfers.map((t: { reference: string }) => t.reference))).toEqual([
      [toPaystackReference(rows[1].reference)],
    ]);
    await drainJobs(ctx.app);
    expect((await state(id)).map((s) => s.status)).toEqual(['paid', 'paid']);
    for (const s of stubs) expect(transfers.transfers.get(toPaystackReference(s.reference))?.received).toBe(1);
    expect((await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_debit')).toHaveLength(1);
  });
});

describe('after every flow above', () => {
  it("every run's counts by status equal a GROUP BY of its paystubs (migrations/0265)", async () => {
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
