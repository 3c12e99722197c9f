// All SQL of payroll runs (headers, state changes, funding). Every method takes companyId first
// and an executor (the database or the caller's transaction). Each state change is ONE conditional
// UPDATE (`WHERE status = <from>`): of concurrent callers exactly one wins, the others get no row.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import type { PayrollRunStatus } from '../../db/schema/index.js';
import type { Candidate } from './payroll-runs.planner.js';
import { BATCH_SIZE } from './transfers/transfer.provider.js';

export const NO_BANK_ACCOUNT = 'No valid bank account.';

export interface RunRow {
  id: string;
  company_id: number;
  status: PayrollRunStatus;
  source: 'paystubs' | 'salaries';
  pay_period_start: string;
  pay_period_end: string;
  payment_date: string | null;
  created_by_email: string | null;
  created_by_user_id: number | null;
  approved_by_email: string | null;
  approved_by_user_id: number | null;
  approved_via: ApprovedVia | null;
  approved_at: Date | string | null;
  paid_at: Date | string | null;
  cancelled_at: Date | string | null;
  attempt: number;
  totals: Record<string, string | number>;
  skipped: { user_id: number; reason: string }[];
  /** 0200: a regular run (salaries or P2) or an off-cycle one, with its reason. */
  kind: 'regular' | 'off_cycle';
  reason: string | null;
  /** 0230: the pay schedule that created the run (docs/payroll-runs.md, "Pay schedules"). */
  schedule_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** How a run was approved (docs/payroll-runs.md, "Approval"). */
export type ApprovedVia = 'console' | 'email_link' | 'token';

/** Who approves, checked by the caller: an active administrator, and how they approved. */
export interface Approval {
  userId: number;
  email: string;
  via: ApprovedVia;
}

export interface NewRun {
  id: string;
  source: 'paystubs' | 'salaries';
  start: string;
  end: string;
  paymentDate: string | null;
  createdByEmail: string | null;
  createdByUserId: number | null;
  totals: Record<string, string | number>;
  skipped: { user_id: number; reason: string }[];
  /** Absent: regular. */
  kind?: 'regular' | 'off_cycle';
  reason?: string | null;
  scheduleId?: number | null;
}

export type StatusCounts = Record<'unpaid' | 'held' | 'processing' | 'paid' | 'failed' | 'cancelled', number>;

export const RUN_COLUMNS =
  sql.raw(`id, company_id, status, source, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end,
  payment_date::text AS payment_date, created_by_email, created_by_user_id, approved_by_email, approved_by_user_id, approved_via,
  approved_at, paid_at, cancelled_at, attempt, totals, skipped, kind, reason, schedule_id,
  created_at, updated_at`);

/**
 * One run's paystubs by status, one row: the sums of its counter slots (paystub_run_counts, 0265),
 * for the run's last settlement (finish; transfersRepo.refinish). Equal to a GROUP BY of its
 * paystubs in the same statement, whoever wrote them: 0265's triggers move the slots in the same
 * statement as every insert, delete and status change of paystubs, so a transaction's net change to
 * the slots is its net change to the paystubs, visible together at its commit or never (a statement
 * or savepoint rolled back takes its slot writes along); ours are visible to us on both sides. One
 * snapshot: a slot of a transaction committed before it is read with its paystubs; one updated by
 * a transaction still open (a bank change's hold, which locks no run) is read as last committed,
 * one it inserted not at all, as its paystubs are. A writer adds only to a slot no open transaction
 * holds (SKIP LOCKED, else its own), so each version of a slot adds one committed transaction's
 * difference to the one before. A settlement reads them after taking the run's row, which its
 * run's other settlements take after their moves ("Exactly once", step 4 of docs/payroll-runs.md):
 * one still open counts as processing and finishes the run itself; a hold lands either side.
 */
export const RUN_STATUS_SUMS = (companyId: number, runId: string) =>
  sql`SELECT COALESCE(sum(unpaid), 0) AS unpaid, COALESCE(sum(held), 0) AS held, COALESCE(sum(processing), 0) AS processing,
             COALESCE(sum(paid), 0) AS paid, COALESCE(sum(failed), 0) AS failed
      FROM paystub_run_counts WHERE company_id = ${companyId} AND transaction_id = ${runId}`;

/** Paystubs whose employee's bank account is usable (payablePaystubs in the planner decides which). */
const PAYABLE = (ids: number[]) => sql`p.id = ANY(${pgArray(ids)}::int[])`;

const one = async (rows: Promise<RunRow[]>) => (await rows)[0];

export const payrollRunsRepo = {
  async insert(tx: Executor, companyId: number, run: NewRun): Promise<RunRow> {
    return one(
      queryRows<RunRow>(
        tx,
        sql`INSERT INTO payroll_runs (id, company_id, source, pay_period_start, pay_period_end, payment_date, created_by_email,
                                      created_by_user_id, totals, skipped, kind, reason, schedule_id)
            VALUES (${run.id}, ${companyId}, ${run.source}, ${run.start}, ${run.end}, ${run.paymentDate}, ${run.createdByEmail},
                    ${run.createdByUserId}, ${JSON.stringify(run.totals)}::jsonb, ${JSON.stringify(run.skipped)}::jsonb,
                    ${run.kind ?? 'regular'}, ${run.reason ?? null}, ${run.scheduleId ?? null})
            RETURNING ${RUN_COLUMNS}`,
      ),
    );
  },

  async find(db: Executor, companyId: number, id: string): Promise<RunRow | undefined> {
    return one(queryRows<RunRow>(db, sql`SELECT ${RUN_COLUMNS} FROM payroll_runs WHERE company_id = ${companyId} AND id = ${id}`));
  },

  /** Locks the run's row until the transaction ends (settlements of one run take turns). */
  async lock(tx: Executor, companyId: number, id: string): Promise<RunRow | undefined> {
    return one(
      queryRows<RunRow>(tx, sql`SELECT ${RUN_COLUMNS} FROM payroll_runs WHERE company_id = ${companyId} AND id = ${id} FOR UPDATE`),
    );
  },

  /**
   * Paystubs by status, per run: the sums of each run's counter slots (paystub_run_counts, kept by
   * the triggers of migrations/0265_paystub_run_status_counts.sql), read by primary key whatever
   * the run's size; exact in the statement's snapshot, as a GROUP BY of the paystubs would be.
   */
  async counts(db: Executor, companyId: number, runIds: string[]): Promise<Map<string, StatusCounts>> {
    const result = new Map<string, StatusCounts>();
    if (runIds.length === 0) return result;
    for (const id of runIds) result.set(id, { unpaid: 0, held: 0, processing: 0, paid: 0, failed: 0, cancelled: 0 });
    const rows = await queryRows<StatusCounts & { transaction_id: string }>(
      db,
      sql`SELECT transaction_id, sum(unpaid)::int AS unpaid, sum(held)::int AS held, sum(processing)::int AS processing,
                 sum(paid)::int AS paid, sum(failed)::int AS failed, sum(cancelled)::int AS cancelled
          FROM paystub_run_counts WHERE company_id = ${companyId} AND transaction_id = ANY(${pgArray(runIds)}::text[])
          GROUP BY transaction_id`,
    );
    for (const { transaction_id, ...counts } of rows) if (result.has(transaction_id)) result.set(transaction_id, counts);
    return result;
  },

  async approve(tx: Executor, companyId: number, id: string, approval: Approval): Promise<RunRow | undefined> {
    return one(
      queryRows<RunRow>(
        tx,
        sql`UPDATE payroll_runs SET status = 'approved', approved_by_email = ${approval.email}, approved_by_user_id = ${approval.userId},
                   approved_via = ${approval.via}, approved_at = now(), updated_at = now()
            WHERE company_id = ${companyId} AND id = ${id} AND status = 'draft' RETURNING ${RUN_COLUMNS}`,
      ),
    );
  },

  /** draft/approved → cancelled, with the run's unpaid and held paystubs (and the one_time applications they used). */
  /** A leaver's final-pay runs that can still be cancelled (draft or approved), oldest first. */
  async openFinalPayRuns(tx: Executor, companyId: number, userId: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`SELECT r.id FROM payroll_runs r
          WHERE r.company_id = ${companyId} AND r.kind = 'off_cycle' AND r.reason = 'final_pay' AND r.status IN ('draft', 'approved')
            AND EXISTS (SELECT 1 FROM paystubs p WHERE p.company_id = r.company_id AND p.transaction_id = r.id AND p.user_id = ${userId})
          ORDER BY r.created_at, r.id`,
    );
    return rows.map((row) => row.id);
  },

  async cancel(tx: Executor, companyId: number, id: string): Promise<RunRow | undefined> {
    const run = await one(
      queryRows<RunRow>(
        tx,
        sql`UPDATE payroll_runs SET status = 'cancelled', cancelled_at = now(), updated_at = now()
            WHERE company_id = ${companyId} AND id = ${id} AND status IN ('draft', 'approved') RETURNING ${RUN_COLUMNS}`,
      ),
    );
    if (!run) return undefined;
    await payrollRunsRepo.lockPaystubs(tx, companyId, id, ['unpaid', 'held']);
    // A cancelled paystub was never paid: its one_time contributions apply to the user's next one.
    await tx.execute(
      sql`WITH cancelled AS (
            UPDATE paystubs SET status = 'cancelled', updated_at = now()
            WHERE company_id = ${companyId} AND transaction_id = ${id} AND status IN ('unpaid', 'held') RETURNING id)
          DELETE FROM custom_contribution_applications WHERE paystub_id IN (SELECT id FROM cancelled)`,
    );
    return run;
  },

  /**
   * Locks the run's paystubs in these statuses by id, before the statements that move them (pay,
   * retry, cancel): a bank change takes the paystubs it holds by id too (usersRepo.patchMany), so
   * the two never wait for each other in a circle (docs/payroll-runs.md, "Lock order"). The
   * UPDATEs alone lock in the order of their scans.
   */
  async lockPaystubs(tx: Executor, companyId: number, runId: string, statuses: (keyof StatusCounts)[]): Promise<void> {
    await tx.execute(
      sql`SELECT id FROM paystubs WHERE company_id = ${companyId} AND transaction_id = ${runId} AND status = ANY(${pgArray(statuses)}::text[])
          ORDER BY id FOR NO KEY UPDATE`,
    );
  },

  /** `from` → processing and one more funding attempt; returns the attempt number, or undefined if `from` did not hold. */
  async startFunding(tx: Executor, companyId: number, id: string, from: PayrollRunStatus[]): Promise<RunRow | undefined> {
    return one(
      queryRows<RunRow>(
        tx,
        sql`UPDATE payroll_runs SET status = 'processing', attempt = attempt + 1, paid_at = NULL, updated_at = now()
            WHERE company_id = ${companyId} AND id = ${id} AND status = ANY(${pgArray(from)}::text[]) RETURNING ${RUN_COLUMNS}`,
      ),
    );
  },

  /** The destinations pinned at approval of the paystubs in `from` (never the users' current bank details). */
  async paystubAccounts(
    tx: Executor,
    companyId: number,
    runId: string,
    from: 'unpaid' | 'failed',
  ): Promise<{ id: number; bank_code: string | null; account_number: string | null }[]> {
    return queryRows(
      tx,
      sql`SELECT p.id, p.destination_bank_code AS bank_code, p.destination_account_number AS account_number FROM paystubs p
          WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status = ${from}`,
    );
  },

  /** Paystubs in `from` other than the payable ones: failed (no usable bank account), never funded. */
  async failUnbankable(tx: Executor, companyId: number, runId: string, from: 'unpaid' | 'failed', payable: number[]): Promise<void> {
    await tx.execute(
      sql`UPDATE paystubs p SET status = 'failed', failure_reason = ${NO_BANK_ACCOUNT}, updated_at = now()
          WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status = ${from} AND NOT (${PAYABLE(payable)})`,
    );
  },

  /**
   * Paystubs in `from` with a usable pinned destination → processing, each with a fresh reference
   * (the claim: conditional on `from`, so a paystub held meanwhile is not claimed, and a claimed
   * one is no longer held: docs/payroll-runs.md, "Held paystubs")
   * (`<prefix><paystub id>`), and one queued transfer row per paystub to its pinned destination, numbered into batches.
   */
  async fundPaystubs(
    tx: Executor,
    companyId: number,
    runId: string,
    input: { from: 'unpaid' | 'failed'; prefix: string; attempt: number; provider: string; payable: number[] },
  ): Promise<{ transfers: number; total: string; batches: number }> {
    const [row] = await queryRows<{ transfers: number; total: string; batches: number }>(
      tx,
      sql`WITH moved AS (
            UPDATE paystubs p SET status = 'processing', payment_reference = ${input.prefix}::text || p.id::text, failure_reason = NULL, updated_at = now()
            WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status = ${input.from} AND ${PAYABLE(input.payable)}
            RETURNING p.id, p.net_pay, p.payment_reference, COALESCE(p.destination_bank_name, '') AS bank_name,
                      p.destination_account_number AS account_number, p.destination_bank_code AS bank_code,
                      p.destination_account_name AS account_name),
          queued AS (
            INSERT INTO payroll_transfers (reference, company_id, run_id, paystub_id, attempt, batch, amount, bank_name, account_number,
                                           bank_code, account_name, provider)
            SELECT payment_reference, ${companyId}::int, ${runId}::text, id, ${input.attempt}::int,
                   ((row_number() OVER (ORDER BY id) - 1) / ${BATCH_SIZE}::int)::int, net_pay, bank_name, account_number,
                   bank_code, account_name, ${input.provider}::text
            FROM moved RETURNING batch, amount)
          SELECT count(*)::int AS transfers, COALESCE(sum(amount), 0)::text AS total, (COALESCE(max(batch), -1) + 1)::int AS batches FROM queued`,
    );
    return row;
  },

  /**
   * processing → paid | partially_paid | failed once no paystub of the run is processing. Call
   * with the run row locked (lock) so that concurrent settlements see each other's results. Held
   * paystubs keep a run from being `paid`; paystubs released while it was processing (unpaid
   * again) turn it back to `approved`, ready for `pay` (docs/payroll-runs.md, "Held paystubs").
   */
  async finish(tx: Executor, companyId: number, runId: string): Promise<PayrollRunStatus | undefined> {
    // The run's numbers by status are the sums of its counter slots (RUN_STATUS_SUMS): one read by
    // primary key, not a count of the run's paystubs at every settlement, and the same answers.
    const rows = await queryRows<{ status: PayrollRunStatus }>(
      tx,
      sql`UPDATE payroll_runs r
          SET status = CASE WHEN c.unpaid > 0 THEN 'approved' WHEN c.paid = 0 THEN 'failed'
                            WHEN c.failed = 0 AND c.held = 0 THEN 'paid' ELSE 'partially_paid' END,
              paid_at = CASE WHEN c.unpaid > 0 THEN NULL ELSE now() END, updated_at = now()
          FROM (${RUN_STATUS_SUMS(companyId, runId)}) c
          WHERE r.company_id = ${companyId} AND r.id = ${runId} AND r.status = 'processing' AND c.processing = 0
          RETURNING r.status`,
    );
    return rows[0]?.status;
  },

  /** Non-deleted users of the company (all, or these ids), with their pay data. */
  async candidates(db: Executor, companyId: number, userIds?: number[]) {
    return queryRows<Candidate>(
      db,
      sql`SELECT id, is_active, is_suspended, start_date::text AS start_date, exit_date::text AS exit_date,
                 base_salary::text AS base_salary, allowances::text AS allowances
          FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL
          ${userIds ? sql`AND id = ANY(${pgArray(userIds)}::int[])` : sql``}`,
    );
  },
};
