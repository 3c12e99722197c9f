// Payroll-run test helpers: fund a wallet through the real top-up and sandbox checkout, give
// employees bank details, drive a run through its states, and read the ledger.
import { sql } from 'drizzle-orm';
import type { App } from '../../src/app.js';
import { type Executor, queryRows } from '../../src/db/client.js';
import { bankByCode, nubanFor } from '../../src/modules/banks/index.js';
import type { TestCompany } from './factories.js';
import { allowRedirectHosts, makeVerifyJobsDue } from './wallet.js';

/** Starts a top-up of `amount` naira (W1, whatever the provider) and answers its checkout URL. */
export async function startTopUp(app: App, db: Executor, company: TestCompany, amount: number): Promise<URL> {
  await allowRedirectHosts(db, company.id, ['funds.example']);
  const res = await app.inject({
    method: 'POST',
    url: '/api/wallet/top-up',
    headers: company.auth,
    payload: { amount, customer_email: 'finance@funds.example', redirect_url: 'https://funds.example/done' },
  });
  if (res.statusCode !== 200) throw new Error(`top-up: ${res.statusCode} ${res.body}`);
  return new URL(res.json().checkoutUrl);
}

/** Tops the company's wallet up by `amount` naira (W1, the sandbox checkout's Pay, the verification job). */
export async function fundWallet(app: App, db: Executor, company: TestCompany, amount: number): Promise<void> {
  const checkout = await startTopUp(app, db, company, amount);
  const paid = await app.inject({
    method: 'POST',
    url: `${checkout.pathname}${checkout.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'outcome=success',
  });
  if (paid.statusCode !== 303) throw new Error(`checkout: ${paid.statusCode} ${paid.body}`);
  await makeVerifyJobsDue(db);
  await app.deps.jobs.runDue(100);
}

/**
 * Gives the users a payable account at Access Bank (044): `accountNumber`'s first nine digits with
 * the NUBAN check digit (runs pay only valid NUBANs of known banks), so "999..." stays a sandbox refusal.
 */
export async function setBankAccounts(db: Executor, userIds: number[], accountNumber = '0123456789', bankCode = '044'): Promise<void> {
  const bankName = bankByCode(bankCode)?.name ?? 'Unknown Bank';
  const nuban = nubanFor(bankCode, accountNumber.slice(0, 9));
  await db.execute(
    sql`UPDATE users SET bank_name = ${bankName}, bank_code = ${bankCode}, account_number = ${nuban} WHERE id IN (${sql.join(
      userIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

/**
 * Time passes for the transfers sent so far: each was sent an hour ago at least, so its webhook is
 * overdue and a settle look asks the provider about it (Paystack's wait is 60 s; transfers.jobs.ts
 * `settleBatch`). Tests that make settle jobs due say with this that the time has passed.
 */
export async function makeTransfersOverdue(db: Executor): Promise<void> {
  await db.execute(sql`UPDATE payroll_transfers SET sent_at = LEAST(sent_at, now() - interval '1 hour') WHERE status = 'sent'`);
}

/**
 * Runs jobs until no payroll-runs job is open, making the ones that asked to look again later due
 * at once, and the transfers sent overdue (the settle job may run before its batch's send job and
 * then waits a second).
 */
export async function drainJobs(app: App): Promise<void> {
  const db = app.deps.db;
  for (let i = 0; i < 50; i++) {
    await app.deps.jobs.runDue(100);
    await makeTransfersOverdue(db);
    const open = await queryRows<{ n: number }>(
      db,
      sql`UPDATE jobs SET run_at = now() WHERE kind LIKE 'payroll-runs.%' AND done_at IS NULL AND failed_at IS NULL RETURNING 1 AS n`,
    );
    if (open.length === 0) break;
  }
  await app.deps.jobs.runDue(100); // the e-mails queued by the last settlement
}

export async function ledger(db: Executor, companyId: number) {
  return queryRows<{ kind: string; amount: string; balance_after: string; reference: string | null }>(
    db,
    sql`SELECT kind, amount::text AS amount, balance_after::text AS balance_after, COALESCE(reference, transaction_reference) AS reference
        FROM wallet_entries WHERE company_id = ${companyId} ORDER BY ledger_seq`,
  );
}

export async function balance(db: Executor, companyId: number): Promise<string> {
  const rows = await queryRows<{ balance: string }>(
    db,
    sql`SELECT balance::text AS balance FROM wallet_balances WHERE company_id = ${companyId}`,
  );
  return rows[0]?.balance ?? '0.00';
}

/** March 2026 (one monthly period); `created_by_email`, when given, must name a user of the company. */
export const runBody = (overrides: Record<string, unknown> = {}) => ({
  pay_period_start: '2026-03-01',
  pay_period_end: '2026-03-31',
  payment_date: '2026-03-28',
  ...overrides,
});

const STATUS_SUMS = (alias: string) =>
  sql.raw(
    ['paystubs', 'unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled']
      .map((column) => `COALESCE(${alias}.${column}, 0) AS ${column}`)
      .join(', '),
  );

/**
 * Every run of the database whose counters (paystub_run_counts: the sums of its slots, migrations/
 * 0265_paystub_run_status_counts.sql) differ from a fresh GROUP BY of its paystubs, with both
 * sides; empty when each run's total and number per status are exact.
 */
export async function runCountDrift(db: Executor) {
  return queryRows<{ transaction_id: string; counted: Record<string, number>; kept: Record<string, number> }>(
    db,
    sql`WITH counted AS (
          SELECT company_id, transaction_id, count(*)::int AS paystubs, (count(*) FILTER (WHERE status = 'unpaid'))::int AS unpaid,
                 (count(*) FILTER (WHERE status = 'held'))::int AS held, (count(*) FILTER (WHERE status = 'processing'))::int AS processing,
                 (count(*) FILTER (WHERE status = 'paid'))::int AS paid, (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
                 (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled
          FROM paystubs GROUP BY company_id, transaction_id),
        kept AS (
          SELECT company_id, transaction_id, sum(paystubs)::int AS paystubs, sum(unpaid)::int AS unpaid, sum(held)::int AS held,
                 sum(processing)::int AS processing, sum(paid)::int AS paid, sum(failed)::int AS failed, sum(cancelled)::int AS cancelled
          FROM paystub_run_counts GROUP BY company_id, transaction_id),
        sides AS (
          SELECT transaction_id, (SELECT to_jsonb(x) FROM (SELECT ${STATUS_SUMS('c')}) x) AS counted,
                 (SELECT to_jsonb(x) FROM (SELECT ${STATUS_SUMS('k')}) x) AS kept
          FROM counted c FULL JOIN kept k USING (company_id, transaction_id))
        SELECT transaction_id, counted, kept FROM sides WHERE counted <> kept ORDER BY transaction_id`,
  );
}

/**
 * A run of one month with one paystub for each user of the company, written straight into the
 * tables (no engine, no jobs): for tests of how runs and paystubs are read at a size. `paid` is a
 * paid run of paid paystubs; `draft` a draft of unpaid ones.
 */
export async function insertRunOfEveryone(
  db: Executor,
  companyId: number,
  runId: string,
  run: { status: 'paid' | 'draft'; start: string; end: string; paymentDate: string },
): Promise<void> {
  const paid = run.status === 'paid';
  await db.execute(
    sql`INSERT INTO payroll_runs (id, company_id, status, source, pay_period_start, pay_period_end, payment_date, paid_at, totals)
        VALUES (${runId}, ${companyId}, ${run.status}, 'salaries', ${run.start}, ${run.end}, ${run.paymentDate},
                ${paid ? sql`now()` : sql`NULL`}, '{}'::jsonb)`,
  );
  await db.execute(
    sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
          gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
          employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id, paid_at)
        SELECT ${companyId}, id, ${run.start}, ${run.end}, 200000, 0, 0, 200000, 170000, 15000, 15000, 0, 0, 0, 18000, 0, 218000,
          'pita', ${paid ? 'paid' : 'unpaid'}, ${runId}, ${paid ? sql`now()` : sql`NULL`}
        FROM users WHERE company_id = ${companyId}`,
  );
}
