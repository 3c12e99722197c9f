// The exactly-once argument of docs/payroll-runs.md, one test per step: concurrent pays, two runs
// racing for one balance, the database's own refusal of a negative balance, repeated settlement
// notifications, and a transfer job resumed after a crash between "sending" and "sent".
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../../test/helpers/factories.js';
import { as } from '../../../../test/helpers/http.js';
import { balance, drainJobs, fundWallet, ledger, runBody, runCountDrift, setBankAccounts } from '../../../../test/helpers/payroll-runs.js';
import { queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import { toKobo } from '../../../tax-engine/money.js';
import { createPayslipLinks } from '../../paystubs/index.js';
import { sendBatch } from './transfers.jobs.js';
import { settleTransfers } from './transfers.settle.service.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
});
afterAll(() => ctx?.close());

async function setup(salaries: string[]) {
  const company = await createCompany(ctx.db, { runApproval: 'token' }); // the token approves
  const [boss] = await createUsers(ctx.db, company.id, [{ roles: ['admin'], baseSalary: '0' }]);
  const staff = await createUsers(
    ctx.db,
    company.id,
    salaries.map((baseSalary) => ({ baseSalary })),
  );
  await setBankAccounts(
    ctx.db,
    staff.map((u) => u.id),
  );
  const approved = async (body: Record<string, unknown> = {}) => {
    const created = await as(ctx.app, company).post('/api/payroll-runs', runBody(body));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().run.id as string;
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
    return { id, net: created.json().run.totals.net_pay as number };
  };
  return { company, staff, approved };
}

const runStatus = async (id: string) =>
  (await queryRows<{ status: string }>(ctx.db, sql`SELECT status FROM payroll_runs WHERE id = ${id}`))[0].status;

/** What settleTransfers needs, from the test app. */
const settleDeps = () => ({ db: ctx.db, mailer: ctx.app.deps.mailer, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) });

/** A run of these salaries approved and paid (its jobs left queued), with its paystubs by id. */
async function payingRun(salaries: string[]) {
  const { company, approved } = await setup(salaries);
  const { id } = await approved();
  await fundWallet(ctx.app, ctx.db, company, 5_000_000);
  expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
  const stubs = await queryRows<{ payment_reference: string; net_pay: string; personal_email: string }>(
    ctx.db,
    sql`SELECT p.payment_reference, p.net_pay::text AS net_pay, u.personal_email FROM paystubs p JOIN users u ON u.id = p.user_id
        WHERE p.transaction_id = ${id} ORDER BY p.id`,
  );
  return { company, id, stubs };
}

describe('funding is decided once', () => {
  it('five concurrent pays of one run: one 202, four 409, one debit', async () => {
    const { company, approved } = await setup(['300000.00', '200000.00']);
    const { id } = await approved();
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    const answers = await Promise.all(Array.from({ length: 5 }, () => as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409))
      expect(refused.json()).toEqual({ error: 'Only an approved run can be paid.' });
    expect((await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_debit')).toHaveLength(1);
    await drainJobs(ctx.app);
    expect(await runStatus(id)).toBe('paid');
  });

  it('two runs racing for a balance that covers one: one is paid, the other 409s, the balance never goes below zero', async () => {
    const { company, approved } = await setup(['300000.00']);
    const first = await approved();
    const second = await approved({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30' });
    await fundWallet(ctx.app, ctx.db, company, Math.ceil(first.net * 1.5));
    const answers = await Promise.all([
      as(ctx.app, company).post(`/api/payroll-runs/${first.id}/pay`),
      as(ctx.app, company).post(`/api/payroll-runs/${second.id}/pay`),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json().error).toBe('Insufficient wallet balance.');
    expect(Number(await balance(ctx.db, company.id))).toBeGreaterThanOrEqual(0);
    const statuses = [await runStatus(first.id), await runStatus(second.id)].sort();
    expect(statuses).toEqual(['approved', 'processing']);
  });

  it('the database itself refuses an entry that would make a balance negative', async () => {
    const { company } = await setup(['100000.00']);
    await fundWallet(ctx.app, ctx.db, company, 1000);
    const overdraw = ctx.db.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference) VALUES (${company.id}, -1000.01, 'payroll_debit', 'by-hand')`,
    );
    await expect(overdraw).rejects.toThrow();
    expect(await balance(ctx.db, company.id)).toBe('1000.00');
    await ctx.db.execute(
      sql`INSERT INTO wallet_entries (company_id, amount, kind, reference) VALUES (${company.id}, -1000, 'payroll_debit', 'by-hand-2')`,
    );
    expect(await balance(ctx.db, company.id)).toBe('0.00');
  });
});

describe('settlement is decided once', () => {
  it('repeated and concurrent notifications of one outcome: one refund, one e-mail, the run finished once', async () => {
    const { company, staff, approved } = await setup(['300000.00', '200000.00']);
    const { id } = await approved();
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
    const refs = await queryRows<{ payment_reference: string; user_id: number }>(
      ctx.db,
      sql`SELECT payment_reference, user_id FROM paystubs WHERE transaction_id = ${id} ORDER BY user_id`,
    );
    const deps = settleDeps();
    const outcomes = [
      { reference: refs[0].payment_reference, ok: true, reason: null },
      { reference: refs[1].payment_reference, ok: false, reason: 'Account closed.' },
    ];
    const results = await Promise.all([1, 2, 3].map(() => settleTransfers(deps, company.id, id, outcomes)));
    await settleTransfers(deps, company.id, id, outcomes);
    expect(results.reduce((acc, r) => acc + r.paid + r.failed, 0)).toBe(2);
    expect((await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_refund')).toHaveLength(1);
    const mails = await queryRows(ctx.db, sql`SELECT 1 FROM outbox WHERE "to" = ${staff[0].personalEmail}`);
    expect(mails).toHaveLength(1);
    expect(await runStatus(id)).toBe('partially_paid');
    // The provider's own later answer about the same transfers changes nothing either.
    await drainJobs(ctx.app);
    expect((await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_refund')).toHaveLength(1);
    expect(await runStatus(id)).toBe('partially_paid');
  });

  it('one settlement per paystub, twice each, all at once (webhooks and their repeats): the run finishes, each paystub moves once, one e-mail a payment, one refund a failure', async () => {
    // Settlements move their paystubs side by side and take turns only on the run's row after
    // (transfers.settle.service.ts): whichever takes it last sees every other's commit and finishes.
    const { company, id, stubs } = await payingRun(Array.from({ length: 12 }, (_, i) => `${100000 + i * 1000}.00`));
    const before = await balance(ctx.db, company.id);
    const deps = settleDeps();
    const outcome = (ref: string, i: number) =>
      i % 4 === 3 ? { reference: ref, ok: false, reason: 'Account closed.' } : { reference: ref, ok: true, reason: null };
    // Each outcome twice, as a webhook and its repeat arriving together.
    const calls = [...stubs, ...stubs].map((s, i) =>
      settleTransfers(deps, company.id, id, [outcome(s.payment_reference, i % stubs.length)]),
    );
    const results = await Promise.all(calls);
    expect(results.reduce((acc, r) => acc + r.paid, 0)).toBe(9);
    expect(results.reduce((acc, r) => acc + r.failed, 0)).toBe(3);
    expect(await runStatus(id)).toBe('partially_paid');
    // Finished, not left processing: the last to take the run's row saw every other's commit.
    const [run] = await queryRows<{ paid_at: string | null }>(
      ctx.db,
      sql`SELECT paid_at::text AS paid_at FROM payroll_runs WHERE id = ${id}`,
    );
    expect(run.paid_at).not.toBeNull();
    const paidEmails = stubs.filter((_, i) => i % 4 !== 3).map((s) => s.personal_email);
    expect(await queryRows(ctx.db, sql`SELECT 1 FROM outbox WHERE "to" = ANY(${pgArray(paidEmails)}::text[])`)).toHaveLength(9);
    const refunds = (await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_refund');
    expect(refunds).toHaveLength(3);
    const refunded = stubs.filter((_, i) => i % 4 === 3).reduce((sum, s) => sum + (toKobo(s.net_pay) ?? 0n), 0n);
    expect(toKobo(await balance(ctx.db, company.id))).toBe((toKobo(before) ?? 0n) + refunded);
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });

  it('the last two paystubs settled at once, five times over: each run finishes', async () => {
    // Without the run's row between the moves and the finish, each would read the other's paystub
    // as still processing and neither would finish the run: 8 rounds of 10 stayed processing so.
    for (let round = 0; round < 5; round++) {
      const { company, id, stubs } = await payingRun(['300000.00', '200000.00']);
      const deps = settleDeps();
      await Promise.all(
        stubs.map((r) => settleTransfers(deps, company.id, id, [{ reference: r.payment_reference, ok: true, reason: null }])),
      );
      expect(await runStatus(id)).toBe('paid');
    }
  });

  it('two batches of the same references in opposite orders, at once, five times over: no deadlock, each paystub moved once', async () => {
    // A send job's refusal and a settle job of one batch, say: each batch locks its paystubs by id
    // before moving them (transfersRepo.lockOutcomes), whatever order its outcomes come in. Without
    // it the two UPDATEs locked 40 paystubs from opposite ends: "deadlock detected" in the first round.
    for (let round = 0; round < 5; round++) {
      const { company, id, stubs } = await payingRun(Array.from({ length: 40 }, () => '100000.00'));
      const outcomes = stubs.map((s) => ({ reference: s.payment_reference, ok: true, reason: null }));
      const results = await Promise.all([
        settleTransfers(settleDeps(), company.id, id, outcomes),
        settleTransfers(settleDeps(), company.id, id, [...outcomes].reverse()),
      ]);
      expect(results[0].paid + results[1].paid).toBe(40);
      expect(await runStatus(id)).toBe('paid');
    }
  });

  it('a reversal racing a retry of the same run: both go through (no deadlock), each reference refunded once', async () => {
    // A reversal holds its paid paystub, then the run, then the balance; a retry holds the run, its
    // failed paystubs, then the balance: the run before the balance in both ("Lock order").
    for (let round = 0; round < 3; round++) {
      const {
        company,
        id,
        stubs: [a, b],
      } = await payingRun(['300000.00', '200000.00']);
      const deps = settleDeps();
      await settleTransfers(deps, company.id, id, [
        { reference: a.payment_reference, ok: true, reason: null },
        { reference: b.payment_reference, ok: false, reason: 'Account closed.' },
      ]);
      expect(await runStatus(id)).toBe('partially_paid');
      const [retry, reversal] = await Promise.all([
        as(ctx.app, company).post(`/api/payroll-runs/${id}/retry`),
        settleTransfers(deps, company.id, id, [{ reference: a.payment_reference, ok: false, reason: 'Reversed.', reversed: true }]),
      ]);
      expect(retry.statusCode, retry.body).toBe(202);
      expect(reversal).toEqual({ paid: 0, failed: 1 });
      const refunds = (await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_refund').map((e) => e.reference);
      expect(refunds.sort()).toEqual([a.payment_reference, b.payment_reference].sort());
    }
  });

  it('a second refund of one reference is refused by the unique index', async () => {
    const { company } = await setup(['100000.00']);
    await fundWallet(ctx.app, ctx.db, company, 1000);
    const refund = () =>
      ctx.db.execute(
        sql`INSERT INTO wallet_entries (company_id, amount, kind, reference) VALUES (${company.id}, 5, 'payroll_refund', 'PT-X-1')`,
      );
    await refund();
    await expect(refund()).rejects.toThrow();
  });
});

describe('transfers are sent once, across crashes', () => {
  it('a batch found "sending" after a crash asks the provider first: what it has is not sent again, the rest is', async () => {
    const { company, approved } = await setup(['300000.00', '200000.00']);
    const { id } = await approved();
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
    const refs = (
      await queryRows<{ reference: string; amount: string; account_number: string }>(
        ctx.db,
        sql`SELECT reference, amount::text AS amount, account_number FROM payroll_transfers WHERE run_id = ${id} ORDER BY reference`,
      )
    ).map((r) => r);
    // The crash: both marked sending (committed), only the first reached the provider.
    await ctx.db.execute(sql`UPDATE payroll_transfers SET status = 'sending', sent_at = now() WHERE run_id = ${id}`);
    const provider = ctx.app.services.payrollRuns.provider;
    await provider.sendBatch([
      {
        reference: refs[0].reference,
        amount: refs[0].amount,
        bankName: 'Test Bank',
        bankCode: '044',
        accountNumber: refs[0].account_number,
        accountName: 'Test Holder',
        reason: 'x',
      },
    ]);
    await sendBatch(
      { db: ctx.db, mailer: ctx.app.deps.mailer, provider, payslipLinks: createPayslipLinks(ctx.app.deps.config.publicUrl) },
      { companyId: company.id, runId: id, attempt: 1, batch: 0 },
    );
    const books = await queryRows<{ reference: string; requests: number }>(
      ctx.db,
      sql`SELECT reference, requests FROM payroll_sandbox_transfers WHERE reference IN (${refs[0].reference}, ${refs[1].reference}) ORDER BY reference`,
    );
    expect(books.map((b) => b.requests)).toEqual([1, 1]);
    await drainJobs(ctx.app);
    expect(await runStatus(id)).toBe('paid');
    const sent = await queryRows<{ requests: number }>(
      ctx.db,
      sql`SELECT requests FROM payroll_sandbox_transfers WHERE reference IN (${refs[0].reference}, ${refs[1].reference})`,
    );
    expect(sent.map((b) => b.requests)).toEqual([1, 1]);
    expect((await ledger(ctx.db, company.id)).filter((e) => e.kind === 'payroll_debit')).toHaveLength(1);
  });
});

describe('after every flow above', () => {
  it("every run's counts by status equal a GROUP BY of its paystubs (migrations/0265)", async () => {
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
