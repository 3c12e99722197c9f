// All SQL of salary transfers: a batch's open transfers, their sending marks, the conditional
// settlement of paystubs and the conditional reversal of paid ones. companyId first; batch statements take whole columns as one array each.
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import type { PayrollRunStatus } from '../../../db/schema/index.js';
import { RUN_STATUS_SUMS } from '../payroll-runs.repo.js';

export interface BatchKey {
  companyId: number;
  runId: string;
  attempt: number;
  batch: number;
}

export interface OpenTransfer {
  reference: string;
  status: 'queued' | 'sending' | 'sent';
  amount: string;
  bank_name: string;
  account_number: string;
  bank_code: string;
  account_name: string;
  /** Seconds since the transfer was (last) handed to the provider; null while queued. */
  sent_seconds_ago: number | null;
}

export interface Outcome {
  reference: string;
  ok: boolean;
  reason: string | null;
  /** The money came back after success: a paid paystub fails too (transfersRepo.reversePaid). */
  reversed?: boolean;
}

/** What a provider notification is checked against before it may settle anything. */
export interface TransferRow {
  company_id: number;
  run_id: string;
  amount: string;
  status: string;
  provider: string;
}

export interface SettledPaystub {
  paystub_id: number;
  reference: string;
  status: 'paid' | 'failed';
  net_pay: string;
  failure_reason: string | null;
  pay_period_start: string;
  pay_period_end: string;
  personal_email: string;
  first_name: string;
}

/**
 * `named`: the paystubs of these payment references, found through their unique index alone, for a
 * settlement's statements to join by id and check the company on. Written with the company in the
 * same WHERE, the planner could read the company's paystubs by `paystubs_company_idx` and filter the
 * references: with statistics from before a run's paystubs existed (a run paid soon after it was
 * made, autovacuum not yet by) it chose that, and each batch of 100 outcomes read every paystub of
 * the company: at 100,000 employees ~1,500 rows fetched a paystub paid (docs/benchmarks.md,
 * "Paystack at scale"). A materialized CTE is read alone, so only the key can reach those rows. The company
 * check on `named` is the same check (a paystub's company never changes); the status is still
 * checked on the row being locked or updated, where a concurrent change is seen.
 */
function NAMED_PAYSTUBS(references: readonly string[]) {
  return sql`named AS MATERIALIZED (SELECT id, company_id, status FROM paystubs WHERE payment_reference = ANY(${pgArray([...references])}::text[]))`;
}

export const transfersRepo = {
  /** The batch's transfers that still decide a paystub: its current reference, the paystub processing. */
  async open(db: Executor, key: BatchKey): Promise<OpenTransfer[]> {
    return queryRows<OpenTransfer>(
      db,
      sql`SELECT t.reference, t.status, t.amount::text AS amount, t.bank_name, t.account_number,
                 COALESCE(t.bank_code, p.destination_bank_code, '') AS bank_code,
                 COALESCE(t.account_name, p.destination_account_name, '') AS account_name,
                 extract(epoch FROM now() - t.sent_at)::float8 AS sent_seconds_ago
          FROM payroll_transfers t JOIN paystubs p ON p.payment_reference = t.reference AND p.status = 'processing'
          WHERE t.run_id = ${key.runId} AND t.attempt = ${key.attempt} AND t.batch = ${key.batch} AND t.company_id = ${key.companyId}
            AND t.status IN ('queued', 'sending', 'sent')
          ORDER BY t.reference`,
    );
  },

  /** The batches of a run that still have a transfer to send or settle, oldest attempt first. */
  async openBatches(db: Executor, companyId: number, runId: string): Promise<BatchKey[]> {
    const rows = await queryRows<{ attempt: number; batch: number }>(
      db,
      sql`SELECT DISTINCT attempt, batch FROM payroll_transfers
          WHERE company_id = ${companyId} AND run_id = ${runId} AND status IN ('queued', 'sending', 'sent') ORDER BY attempt, batch`,
    );
    return rows.map((row) => ({ companyId, runId, attempt: row.attempt, batch: row.batch }));
  },

  /** Written (and committed) BEFORE the provider is called: after a crash, these are asked about before any resend. */
  async markSending(db: Executor, companyId: number, references: string[]): Promise<void> {
    if (references.length === 0) return;
    await db.execute(
      sql`UPDATE payroll_transfers SET status = 'sending', sent_at = now()
          WHERE company_id = ${companyId} AND reference = ANY(${pgArray(references)}::text[]) AND status IN ('queued', 'sending')`,
    );
  },

  /**
   * Back to queued: the provider refused the request carrying them unprocessed (its rate limit,
   * ProviderRateLimited), so they were not received and the next attempt sends them without asking.
   */
  async markQueued(db: Executor, companyId: number, references: string[]): Promise<void> {
    if (references.length === 0) return;
    await db.execute(
      sql`UPDATE payroll_transfers SET status = 'queued', sent_at = NULL
          WHERE company_id = ${companyId} AND reference = ANY(${pgArray(references)}::text[]) AND status = 'sending'`,
    );
  },

  async markSent(db: Executor, companyId: number, references: string[]): Promise<void> {
    if (references.length === 0) return;
    await db.execute(
      sql`UPDATE payroll_transfers SET status = 'sent'
          WHERE company_id = ${companyId} AND reference = ANY(${pgArray(references)}::text[]) AND status IN ('queued', 'sending')`,
    );
  },

  /**
   * The paystubs a settlement may move (processing ones to settle, paid ones to reverse), locked by
   * id before any statement moves them: two settlements of overlapping references (a send job's
   * refusal and a settle job of one batch, say) then wait for each other in one order, never in a
   * circle (docs/payroll-runs.md, "Lock order").
   */
  async lockOutcomes(tx: Executor, companyId: number, outcomes: readonly Outcome[]): Promise<void> {
    await tx.execute(
      sql`WITH ${NAMED_PAYSTUBS(outcomes.map((o) => o.reference))}
          SELECT p.id FROM named n JOIN paystubs p ON p.id = n.id
          WHERE n.company_id = ${companyId} AND n.status IN ('processing', 'paid') ORDER BY p.id FOR NO KEY UPDATE OF p`,
    );
  },

  /**
   * THE exactly-once step: processing → paid | failed for each reference that is still the
   * paystub's current one and still processing. Returns only the paystubs this call moved; a
   * repeated or concurrent notification of the same reference moves nothing.
   */
  async settlePaystubs(tx: Executor, companyId: number, outcomes: readonly Outcome[]): Promise<SettledPaystub[]> {
    if (outcomes.length === 0) return [];
    const col = (pick: (o: Outcome) => string | boolean | null) => pgArray(outcomes.map(pick));
    const won = await queryRows<SettledPaystub>(
      tx,
      sql`WITH o AS (SELECT * FROM unnest(${col((o) => o.reference)}::text[], ${col((o) => o.ok)}::boolean[], ${col((o) => o.reason)}::text[]) AS o(ref, ok, reason))
          , ${NAMED_PAYSTUBS(outcomes.map((o) => o.reference))}
          UPDATE paystubs p
          SET status = CASE WHEN o.ok THEN 'paid' ELSE 'failed' END,
              paid_at = CASE WHEN o.ok THEN now() END,
              failure_reason = CASE WHEN o.ok THEN NULL ELSE o.reason END,
              updated_at = now()
          FROM o, named n, users u
          WHERE n.company_id = ${companyId} AND p.id = n.id AND p.payment_reference = o.ref AND p.status = 'processing' AND u.id = p.user_id
          RETURNING p.id AS paystub_id, p.payment_reference AS reference, p.status, p.net_pay::text AS net_pay, p.failure_reason,
                    p.pay_period_start::text AS pay_period_start, p.pay_period_end::text AS pay_period_end, u.personal_email, u.first_name`,
    );
    if (won.length > 0) {
      // `reference = ANY(...)` names the rows by their key, so they are read through it whatever the
      // statistics say: joined on `w` alone, a run's stale statistics (a table analysed before its
      // transfers existed) made each settlement scan every transfer once per reference.
      const references = pgArray(won.map((w) => w.reference));
      await tx.execute(
        sql`WITH w AS (SELECT * FROM unnest(${references}::text[], ${pgArray(won.map((w) => w.status))}::text[],
                ${pgArray(won.map((w) => w.failure_reason))}::text[]) AS w(ref, status, reason))
            UPDATE payroll_transfers t SET status = w.status, failure_reason = w.reason, settled_at = now()
            FROM w WHERE t.reference = ANY(${references}::text[]) AND t.company_id = ${companyId} AND t.reference = w.ref`,
      );
    }
    return won;
  },

  /**
   * A reversal after success: paid → failed for each reference that is still the paystub's
   * current one and still paid. Returns only the paystubs this call moved (the ones to refund once).
   */
  async reversePaid(tx: Executor, companyId: number, outcomes: readonly Outcome[]): Promise<SettledPaystub[]> {
    if (outcomes.length === 0) return [];
    const won = await queryRows<SettledPaystub>(
      tx,
      sql`WITH o AS (SELECT * FROM unnest(${pgArray(outcomes.map((o) => o.reference))}::text[], ${pgArray(outcomes.map((o) => o.reason))}::text[]) AS o(ref, reason))
          , ${NAMED_PAYSTUBS(outcomes.map((o) => o.reference))}
          UPDATE paystubs p SET status = 'failed', paid_at = NULL, failure_reason = o.reason, updated_at = now()
          FROM o, named n, users u
          WHERE n.company_id = ${companyId} AND p.id = n.id AND p.payment_reference = o.ref AND p.status = 'paid' AND u.id = p.user_id
          RETURNING p.id AS paystub_id, p.payment_reference AS reference, p.status, p.net_pay::text AS net_pay, p.failure_reason,
                    p.pay_period_start::text AS pay_period_start, p.pay_period_end::text AS pay_period_end, u.personal_email, u.first_name`,
    );
    if (won.length > 0) {
      await tx.execute(
        sql`UPDATE payroll_transfers t SET status = 'failed', failure_reason = p.failure_reason, settled_at = now()
            FROM paystubs p WHERE t.company_id = ${companyId} AND p.payment_reference = t.reference
              AND t.reference = ANY(${pgArray(won.map((w) => w.reference))}::text[])`,
      );
    }
    return won;
  },

  /** A finished run whose paid paystub was reversed: paid → partially_paid | failed (the run row locked). */
  async refinish(tx: Executor, companyId: number, runId: string): Promise<PayrollRunStatus | undefined> {
    const rows = await queryRows<{ status: PayrollRunStatus }>(
      tx,
      sql`UPDATE payroll_runs r
          SET status = CASE WHEN c.paid = 0 THEN 'failed' ELSE 'partially_paid' END, updated_at = now()
          FROM (${RUN_STATUS_SUMS(companyId, runId)}) c
          WHERE r.company_id = ${companyId} AND r.id = ${runId} AND r.status IN ('paid', 'partially_paid')
            AND c.processing = 0 AND c.failed > 0 AND r.status <> CASE WHEN c.paid = 0 THEN 'failed' ELSE 'partially_paid' END
          RETURNING r.status`,
    );
    return rows[0]?.status;
  },

  /** The transfer a provider notification names (any company: the reference is the provider's key). */
  async findByReference(db: Executor, reference: string): Promise<TransferRow | undefined> {
    const [row] = await queryRows<TransferRow>(
      db,
      sql`SELECT company_id, run_id, amount::text AS amount, status, provider FROM payroll_transfers WHERE reference = ${reference}`,
    );
    return row;
  },

  async companyName(db: Executor, companyId: number): Promise<string> {
    const [row] = await queryRows<{ name: string }>(db, sql`SELECT name FROM companies WHERE id = ${companyId}`);
    return row?.name ?? '';
  },

  /**
   * The open jobs of these kinds (every company's: the provider's rate limit is the deployment's
   * account's), claimed, due or coming back later; read from the open jobs' partial index.
   */
  async openJobs(db: Executor, kinds: readonly string[]): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE done_at IS NULL AND failed_at IS NULL AND kind = ANY(${pgArray([...kinds])}::text[])`,
    );
    return row.n;
  },

  /** One job row per batch, one statement (a 10,000-paystub run queues 100 of each kind). */
  async enqueueBatches(
    tx: Executor,
    jobs: readonly { kind: string; payload: BatchKey; delaySeconds: number; maxAttempts: number }[],
  ): Promise<void> {
    if (jobs.length === 0) return;
    await tx.execute(
      sql`INSERT INTO jobs (kind, payload, run_at, max_attempts)
          SELECT j->>'kind', j->'payload', now() + make_interval(secs => (j->>'delay')::int), (j->>'max')::int
          FROM jsonb_array_elements(${JSON.stringify(
            jobs.map((j) => ({ kind: j.kind, payload: j.payload, delay: j.delaySeconds, max: j.maxAttempts })),
          )}::jsonb) AS j`,
    );
  },
};
