// A run's counts by status come from its counter (paystub_run_counts, moved by the triggers of
// migrations/0265_paystub_run_status_counts.sql), not from a scan of its paystubs: after every step
// of a run's life (creation, approval, a hold and its release, pay, settlement paid and failed, the
// refund and retry, cancel, a draft's paystubs deleted) the run's `counts` and every counter of the
// database equal a fresh GROUP BY of the paystubs. Also: statements that move several runs at once
// or change no status, the backfill of runs written before 0265, and on PostgreSQL that a writer
// never waits for another's counter (docs/payroll-runs.md, "Status counts").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createTestDatabase } from '../../../test/helpers/database.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, runBody, runCountDrift, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { type Executor, queryRows } from '../../db/client.js';
import { migrate } from '../../db/migrate.js';
import { pgArray } from '../../db/pg-array.js';
import { nubanFor } from '../banks/index.js';
import { payrollRunsRepo } from './payroll-runs.repo.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ sandboxTransferDelaySeconds: 0 });
});
afterAll(() => ctx?.close());

const STATUSES = ['unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled'] as const;

/** The run's paystubs counted by status, as counts() did before 0265. */
async function groupBy(db: Executor, runId: string): Promise<Record<string, number>> {
  const rows = await queryRows<{ status: string; n: number }>(
    db,
    sql`SELECT status, count(*)::int AS n FROM paystubs WHERE transaction_id = ${runId} GROUP BY status`,
  );
  const counts: Record<string, number> = Object.fromEntries(STATUSES.map((s) => [s, 0]));
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** The run as GET /api/payroll-runs/{id} shows it, after checking its counts and every counter of the database. */
async function checked(company: TestCompany, runId: string, expected: Partial<Record<(typeof STATUSES)[number], number>>) {
  const res = await as(ctx.app, company).get(`/api/payroll-runs/${runId}`);
  expect(res.statusCode, res.body).toBe(200);
  const run = res.json().run;
  expect(run.counts).toEqual(await groupBy(ctx.db, runId));
  expect(run.counts).toMatchObject(expected);
  expect(await runCountDrift(ctx.db)).toEqual([]);
  return run;
}

describe('a run’s counts follow every step of its life', () => {
  it('creation, approval, hold and release, pay, settlement, retry, release again, cancel, a deleted draft', async () => {
    const company = await createCompany(ctx.db, { runApproval: 'token' });
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(
      ctx.db,
      company.id,
      ['300000.00', '310000.00', '320000.00', '330000.00'].map((baseSalary) => ({ baseSalary })),
    );
    const [moved, held, ok, rejected] = staff;
    await setBankAccounts(ctx.db, [moved.id, held.id, ok.id], '0123456789');
    await setBankAccounts(ctx.db, [rejected.id], '9990000001'); // the sandbox refuses accounts starting with 999
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);

    const created = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().run.id as string;
    expect(created.json().run.counts).toEqual({ unpaid: 4, held: 0, processing: 0, paid: 0, failed: 0, cancelled: 0 });
    await checked(company, id, { unpaid: 4 });

    const approve = () => as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect((await approve()).statusCode).toBe(200);
    await checked(company, id, { unpaid: 4 });

    // A bank change after approval holds the paystub (0186's trigger); a new approval releases it.
    const changeBank = async (userId: number, prefix: string) => {
      const res = await as(ctx.app, company).put(`/api/users/${userId}`, { bank_code: '058', account_number: nubanFor('058', prefix) });
      expect(res.statusCode, res.body).toBe(200);
    };
    await changeBank(moved.id, '020000001');
    await checked(company, id, { unpaid: 3, held: 1 });
    expect((await approve()).statusCode).toBe(200);
    await checked(company, id, { unpaid: 4, held: 0 });
    await changeBank(held.id, '020000002');
    await checked(company, id, { unpaid: 3, held: 1 });

    // Pay claims the unpaid ones; settlement pays two and fails the refused account (refunded).
    const paid = await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    expect(paid.json().run.counts).toEqual({ unpaid: 0, held: 1, processing: 3, paid: 0, failed: 0, cancelled: 0 });
    await checked(company, id, { processing: 3, held: 1 });
    await drainJobs(ctx.app);
    expect((await checked(company, id, { paid: 2, failed: 1, held: 1 })).status).toBe('partially_paid');

    // Retry sends the failed one again (refused again); the held one's release then pays it.
    const retried = await as(ctx.app, company).post(`/api/payroll-runs/${id}/retry`);
    expect(retried.statusCode, retried.body).toBe(202);
    await checked(company, id, { paid: 2, processing: 1, held: 1 });
    await drainJobs(ctx.app);
    await checked(company, id, { paid: 2, failed: 1, held: 1 });
    expect((await approve()).statusCode).toBe(200);
    expect((await checked(company, id, { paid: 2, failed: 1, unpaid: 1 })).status).toBe('approved');
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    expect((await checked(company, id, { paid: 3, failed: 1, unpaid: 0, held: 0 })).status).toBe('partially_paid');

    // Cancel: a run of the next month, approved, then cancelled.
    const april = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }),
    );
    const aprilId = april.json().run.id as string;
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${aprilId}/approve`, { approver_email: boss.email })).statusCode).toBe(200);
    await changeBank(ok.id, '020000003');
    await checked(company, aprilId, { unpaid: 3, held: 1 });
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${aprilId}/cancel`)).statusCode).toBe(200);
    await checked(company, aprilId, { cancelled: 4, unpaid: 0, held: 0 });

    // No route deletes a run; its paystubs deleted by hand (an operator's cleanup) leave it at zero.
    const may = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-05-01', pay_period_end: '2026-05-31', payment_date: '2026-05-28' }),
    );
    const mayId = may.json().run.id as string;
    await checked(company, mayId, { unpaid: 4 });
    await ctx.db.execute(sql`DELETE FROM paystubs WHERE transaction_id = ${mayId} AND user_id = ${moved.id}`);
    await checked(company, mayId, { unpaid: 3 });
    await ctx.db.execute(sql`DELETE FROM paystubs WHERE transaction_id = ${mayId}`);
    await checked(company, mayId, { unpaid: 0 });
    // The runs list reads the same counters.
    const list = await as(ctx.app, company).get('/api/payroll-runs?per_page=10');
    for (const run of list.json().data.data as { id: string; counts: Record<string, number> }[])
      expect(run.counts).toEqual(await groupBy(ctx.db, run.id));
  });
});

describe('the triggers', () => {
  it('a statement moving several runs, back and forth, or no status at all, moves each run by its difference', async () => {
    const company = await createCompany(ctx.db, { runApproval: 'token' });
    const staff = await createUsers(
      ctx.db,
      company.id,
      ['100000.00', '110000.00', '120000.00'].map((baseSalary) => ({ baseSalary })),
    );
    const runs: string[] = [];
    for (const [month, last] of [
      ['06', '30'],
      ['07', '31'],
    ]) {
      const res = await as(ctx.app, company).post(
        '/api/payroll-runs',
        runBody({ pay_period_start: `2026-${month}-01`, pay_period_end: `2026-${month}-${last}`, payment_date: `2026-${month}-27` }),
      );
      expect(res.statusCode, res.body).toBe(201);
      runs.push(res.json().run.id);
    }
    const both = sql`company_id = ${company.id} AND transaction_id IN (${runs[0]}, ${runs[1]})`;
    // Both runs at once, each paystub to a status of its own.
    await ctx.db.execute(
      sql`UPDATE paystubs SET status = CASE user_id WHEN ${staff[0].id} THEN 'paid' WHEN ${staff[1].id} THEN 'failed' ELSE 'held' END WHERE ${both}`,
    );
    // Rows swapped between two statuses in one statement: no net move for the run's counts.
    await ctx.db.execute(
      sql`UPDATE paystubs SET status = CASE status WHEN 'paid' THEN 'failed' ELSE 'paid' END
          WHERE transaction_id = ${runs[0]} AND status IN ('paid', 'failed')`,
    );
    // Anything but the status: nothing moves.
    await ctx.db.execute(sql`UPDATE paystubs SET updated_at = now(), hold_reason = 'x' WHERE ${both}`);
    const counts = await payrollRunsRepo.counts(ctx.db, company.id, [...runs, 'PR-20990101-NOTHER']);
    expect(counts.get(runs[0])).toEqual({ unpaid: 0, held: 1, processing: 0, paid: 1, failed: 1, cancelled: 0 });
    expect(counts.get(runs[1])).toEqual({ unpaid: 0, held: 1, processing: 0, paid: 1, failed: 1, cancelled: 0 });
    expect(counts.get('PR-20990101-NOTHER')).toEqual({ unpaid: 0, held: 0, processing: 0, paid: 0, failed: 0, cancelled: 0 });
    // Another company's counts are not this company's.
    const other = await createCompany(ctx.db, {});
    expect((await payrollRunsRepo.counts(ctx.db, other.id, runs)).get(runs[0])).toMatchObject({ paid: 0, held: 0 });
    // A rolled-back change leaves the counters as they were.
    await ctx.db
      .transaction(async (tx) => {
        await tx.execute(sql`UPDATE paystubs SET status = 'cancelled' WHERE ${both}`);
        expect((await payrollRunsRepo.counts(tx, company.id, runs)).get(runs[0])).toMatchObject({ cancelled: 3, paid: 0 });
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    expect((await payrollRunsRepo.counts(ctx.db, company.id, runs)).get(runs[0])).toMatchObject({ cancelled: 0, paid: 1 });
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });

  it('backfills the runs written before 0265 from their paystubs', async () => {
    const old = await createTestDatabase({ migrateThrough: '0264' });
    try {
      const db = old.database.db;
      const [{ id: companyId }] = await queryRows<{ id: number }>(
        db,
        sql`INSERT INTO companies (name, code, domain) VALUES ('Old Runs', 'oldruns', 'oldruns.test') RETURNING id`,
      );
      await db.execute(
        sql`INSERT INTO users (company_id, employee_id, first_name, last_name, email, personal_email, unique_id)
            SELECT ${companyId}, 'E-' || n, 'Old', 'User' || n, 'old' || n || '@oldruns.test', 'old' || n || '@home.test', 'uid-oldruns-' || n
            FROM generate_series(1, 6) AS n`,
      );
      // The first run has one paystub of each status, the second two each of three.
      const statuses = pgArray(['unpaid', 'held', 'processing', 'paid', 'failed', 'cancelled']);
      for (const [r, runId] of ['PR-20260101-OLDRN1', 'PR-20260101-OLDRN2'].entries())
        await db.execute(
          sql`INSERT INTO paystubs (company_id, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements, other_allowances,
                gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
                employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, status, transaction_id)
              SELECT ${companyId}, u.id, ${`2026-0${r + 1}-01`}, ${`2026-0${r + 1}-28`}, 100000, 0, 0, 100000, 90000, 5000, 5000, 0, 0, 0,
                     5000, 0, 105000, 'nta2025', (${statuses}::text[])[1 + u.n % (6 - 3 * ${r}::int)], ${runId}
              FROM (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM users WHERE company_id = ${companyId}) u`,
        );
      expect(await migrate(old.database)).toContain('0265_paystub_run_status_counts.sql');
      expect(await runCountDrift(db)).toEqual([]);
      const counts = await payrollRunsRepo.counts(db, companyId, ['PR-20260101-OLDRN1', 'PR-20260101-OLDRN2']);
      expect(Object.values(counts.get('PR-20260101-OLDRN1') ?? {})).toEqual([1, 1, 1, 1, 1, 1]);
      expect(counts.get('PR-20260101-OLDRN2')).toEqual({ unpaid: 2, held: 2, processing: 2, paid: 0, failed: 0, cancelled: 0 });
      // And the triggers keep them from there.
      await db.execute(sql`UPDATE paystubs SET status = 'paid' WHERE transaction_id = 'PR-20260101-OLDRN2'`);
      expect((await payrollRunsRepo.counts(db, companyId, ['PR-20260101-OLDRN2'])).get('PR-20260101-OLDRN2')).toMatchObject({ paid: 6 });
      expect(await runCountDrift(db)).toEqual([]);
    } finally {
      await old.close();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('on PostgreSQL: no writer waits for another’s counter', () => {
  it('a second transaction moves the run while the first holds its slot, then both count', async () => {
    const company = await createCompany(ctx.db, { runApproval: 'token' });
    const staff = await createUsers(
      ctx.db,
      company.id,
      ['100000.00', '110000.00'].map((baseSalary) => ({ baseSalary })),
    );
    const created = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-08-01', pay_period_end: '2026-08-31' }),
    );
    const id = created.json().run.id as string;
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = () => {};
    const firstHolds = new Promise<void>((resolve) => {
      held = resolve;
    });
    const first = ctx.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE paystubs SET status = 'held' WHERE transaction_id = ${id} AND user_id = ${staff[0].id}`);
      held();
      await holding;
    });
    await Promise.race([firstHolds, first]);
    // Would wait for the first transaction's commit on a single counter row: a lock wait fails within 2 s instead.
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL lock_timeout = '2s'`);
      await tx.execute(sql`UPDATE paystubs SET status = 'failed' WHERE transaction_id = ${id} AND user_id = ${staff[1].id}`);
    });
    expect((await payrollRunsRepo.counts(ctx.db, company.id, [id])).get(id)).toMatchObject({ unpaid: 1, failed: 1, held: 0 });
    release();
    await first;
    expect((await payrollRunsRepo.counts(ctx.db, company.id, [id])).get(id)).toMatchObject({ unpaid: 0, failed: 1, held: 1 });
    const slots = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM paystub_run_counts WHERE transaction_id = ${id}`,
    );
    expect(slots[0].n).toBe(2);
    expect(await runCountDrift(ctx.db)).toEqual([]);
  });
});
