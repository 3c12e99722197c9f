// The run-level pay tests (funding, transfers, settlement, refund, retry), shared by every transfer
// provider: payroll-runs.test.ts runs them on the sandbox, paystack-runs.test.ts on Paystack
// Transfers against the fake Paystack server. Same assertions, same outcomes.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.js';
import type { TestContext } from './app.js';
import { createCompany, createUsers, type TestCompany } from './factories.js';
import { drainJobs, ledger, runBody, runCountDrift, setBankAccounts } from './payroll-runs.js';

export interface PaySuiteEnv {
  ctx: TestContext;
  /** Tops the company's wallet up by `amount` naira through this provider's checkout. */
  fund(company: TestCompany, amount: number): Promise<void>;
  /** The failure_reason of a transfer to an account starting with 999 (refused by the provider). */
  rejectedReason: string;
}

export function payRunSuite(name: string, env: () => PaySuiteEnv): void {
  const ctxOf = () => env().ctx;
  const call = (who: TestCompany, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    ctxOf().app.inject({ method, url, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function newCompany(salaries: string[]) {
    const { db } = ctxOf();
    // The token approves (run_approval: token), as a platform with its own maker-checker would.
    const company = await createCompany(db, { runApproval: 'token' });
    const [boss] = await createUsers(db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(
      db,
      company.id,
      salaries.map((baseSalary) => ({ baseSalary })),
    );
    await setBankAccounts(
      db,
      staff.map((u) => u.id),
    );
    return { company, boss, staff };
  }

  async function approvedRun(company: TestCompany, boss: { email: string }) {
    const created = await call(company, 'POST', '/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().run.id as string;
    const approved = await call(company, 'POST', `/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect(approved.statusCode, approved.body).toBe(200);
    return id;
  }

  const stubsOf = (runId: string) =>
    queryRows<{
      user_id: number;
      status: string;
      net_pay: string;
      payment_reference: string | null;
      failure_reason: string | null;
      paid_at: Date | null;
    }>(
      ctxOf().db,
      sql`SELECT user_id, status, net_pay::text AS net_pay, payment_reference, failure_reason, paid_at FROM paystubs WHERE transaction_id = ${runId} ORDER BY user_id`,
    );
  const outboxTo = (address: string) =>
    queryRows<{ subject: string; text: string }>(ctxOf().db, sql`SELECT subject, text FROM outbox WHERE "to" = ${address} ORDER BY id`);

  describe(`pay: funding, transfers, settlement (${name})`, () => {
    it('409 with required/available/shortfall when the wallet is short, and nothing changes', async () => {
      const { company, boss } = await newCompany(['300000.00']);
      const id = await approvedRun(company, boss);
      await env().fund(company, 1000);
      const res = await call(company, 'POST', `/api/payroll-runs/${id}/pay`);
      expect(res.statusCode).toBe(409);
      const body = res.json();
      expect(body.error).toBe('Insufficient wallet balance.');
      expect(body.available).toBe('1000.00');
      expect(Number(body.shortfall)).toBeCloseTo(Number(body.required) - 1000, 2);
      expect((await call(company, 'GET', `/api/payroll-runs/${id}`)).json().run).toMatchObject({
        status: 'approved',
        counts: { unpaid: 1 },
      });
      expect((await ledger(ctxOf().db, company.id)).map((e) => e.kind)).toEqual(['top_up']);
    });

    it('pays every funded paystub once: one debit, transfers settle, e-mails, the run ends paid', async () => {
      const { company, boss, staff } = await newCompany(['300000.00', '450000.00']);
      const id = await approvedRun(company, boss);
      await env().fund(company, 2_000_000);
      const res = await call(company, 'POST', `/api/payroll-runs/${id}/pay`);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ message: 'Payment started.', run: { status: 'processing', counts: { processing: 2 } } });
      const net = (await stubsOf(id)).reduce((acc, s) => acc + Math.round(Number(s.net_pay) * 100), 0) / 100;
      await drainJobs(ctxOf().app);
      const stubs = await stubsOf(id);
      expect(stubs.map((s) => s.status)).toEqual(['paid', 'paid']);
      expect(stubs.every((s) => s.paid_at && /^PT-[0-9A-F]{8}-\d+$/.test(s.payment_reference ?? ''))).toBe(true);
      const run = (await call(company, 'GET', `/api/payroll-runs/${id}`)).json().run;
      expect(run).toMatchObject({ status: 'paid', counts: { paid: 2, processing: 0 } });
      expect(run.paid_at).toMatch(/Z$/);
      const entries = await ledger(ctxOf().db, company.id);
      expect(entries.map((e) => [e.kind, e.amount])).toEqual([
        ['top_up', '2000000.00'],
        ['payroll_debit', (-net).toFixed(2)],
      ]);
      expect(entries[1].balance_after).toBe((2_000_000 - net).toFixed(2));
      for (const user of staff) {
        const mail = await outboxTo(user.personalEmail);
        expect(mail).toHaveLength(1);
        expect(mail[0].subject).toContain('2026-03-01 to 2026-03-31');
        expect(mail[0].text).toContain('NGN ');
      }
      const listed = await call(company, 'GET', '/api/wallet/transactions');
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data.data.map((e: { type: string }) => e.type)).toEqual(['payroll_debit', 'top_up']);
      expect(listed.json().data.data[0]).toMatchObject({ amount: (-net).toFixed(2), reference: `${id}-A1` });
    });

    it('a rejected account fails and is refunded once; no bank account is never funded; retry funds only the failed', async () => {
      const { company, boss, staff } = await newCompany(['300000.00', '200000.00', '100000.00']);
      const [good, rejected, unbanked] = staff;
      await setBankAccounts(ctxOf().db, [rejected.id], '9990001112');
      await ctxOf().db.execute(sql`UPDATE users SET bank_name = NULL, account_number = NULL WHERE id = ${unbanked.id}`);
      const id = await approvedRun(company, boss);
      await env().fund(company, 1_000_000);
      expect((await call(company, 'POST', `/api/payroll-runs/${id}/retry`)).json()).toEqual({
        error: 'Only a failed or partially paid run can be retried.',
      });
      expect((await call(company, 'POST', `/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
      await drainJobs(ctxOf().app);
      const stubs = await stubsOf(id);
      expect(stubs.map((s) => [s.status, s.failure_reason])).toEqual([
        ['paid', null],
        ['failed', env().rejectedReason],
        ['failed', 'No valid bank account.'],
      ]);
      expect((await call(company, 'GET', `/api/payroll-runs/${id}`)).json().run.status).toBe('partially_paid');
      const entries = await ledger(ctxOf().db, company.id);
      expect(entries.map((e) => e.kind)).toEqual(['top_up', 'payroll_debit', 'payroll_refund']);
      // Debited good + rejected only (the unbanked was never funded), refunded the rejected's net pay.
      expect(Number(entries[1].amount)).toBeCloseTo(-(Number(stubs[0].net_pay) + Number(stubs[1].net_pay)), 2);
      expect(entries[2].amount).toBe(stubs[1].net_pay);
      expect(await outboxTo(rejected.personalEmail)).toEqual([]);

      await setBankAccounts(ctxOf().db, [rejected.id, unbanked.id], '0123456789');
      // The fixed accounts are new destinations: a retry sends there only once they are approved
      // (docs/payroll-runs.md, "Payment destinations").
      const ids = (
        await queryRows<{ id: number }>(
          ctxOf().db,
          sql`SELECT id FROM paystubs WHERE transaction_id = ${id} AND status = 'failed' ORDER BY id`,
        )
      ).map((r) => r.id);
      expect((await call(company, 'POST', `/api/payroll-runs/${id}/retry`)).json()).toEqual({
        error: 'These paystubs need approval of their new bank account first.',
        paystub_ids: ids,
      });
      const reapproved = await call(company, 'POST', `/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
      expect(reapproved.statusCode, reapproved.body).toBe(200);
      expect(reapproved.json().run.status).toBe('partially_paid');
      const retried = await call(company, 'POST', `/api/payroll-runs/${id}/retry`);
      expect(retried.statusCode, retried.body).toBe(202);
      expect(retried.json().run).toMatchObject({ status: 'processing', counts: { paid: 1, processing: 2 } });
      await drainJobs(ctxOf().app);
      expect((await stubsOf(id)).map((s) => s.status)).toEqual(['paid', 'paid', 'paid']);
      expect((await call(company, 'GET', `/api/payroll-runs/${id}`)).json().run.status).toBe('paid');
      const after = await ledger(ctxOf().db, company.id);
      expect(after.map((e) => e.kind)).toEqual(['top_up', 'payroll_debit', 'payroll_refund', 'payroll_debit']);
      expect(after[3].reference).toBe(`${id}-A2`);
      expect(Number(after[3].amount)).toBeCloseTo(-(Number(stubs[1].net_pay) + Number(stubs[2].net_pay)), 2);
      expect(await outboxTo(good.personalEmail)).toHaveLength(1);
      expect(await outboxTo(rejected.personalEmail)).toHaveLength(1);
    });
  });

  it(`after the pay flows above (${name}): every run's counts by status equal a GROUP BY of its paystubs`, async () => {
    expect(await runCountDrift(ctxOf().db)).toEqual([]);
  });
}
