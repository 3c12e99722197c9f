// All SQL of run approval (docs/payroll-runs.md, "Approval"): the company's mode, creators and
// approvers as users, approval requests, and the overlap check of one regular salary per person
// per period. Every method takes companyId first and an executor (the database or a transaction).
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import { exitedSql, LAGOS_TODAY_SQL } from '../../users/index.js';

/** A user who names a creator or an approver, found by company or personal e-mail in any case. */
export interface NamedUser {
  id: number;
  company_id: number;
  email: string;
}

export interface ApprovalRequestRow {
  approver_user_id: number;
  approver_email: string;
  token_hash: string;
  expires_at: Date | string;
}

export interface OverlapRow {
  paystub_id: number;
  user_id: number;
  other_paystub_id: number;
  pay_period_start: string;
  pay_period_end: string;
}

/** How long an e-mailed approval link works. */
export const APPROVAL_LINK_HOURS = 72;

/**
 * Paystubs the overlap rule applies to (regular salary): off-cycle paystubs (bonuses, corrections,
 * final pay) may overlap a regular one (docs/payroll-runs.md, "Off-cycle runs").
 */
const isRegular = (alias: 'p' | 'o'): SQL => sql.raw(`NOT ${alias}.off_cycle`);

/** Runs whose paystubs count as approved (paid, being paid, or ready to be paid or retried). */
const APPROVED_RUN_STATUSES = ['approved', 'processing', 'paid', 'partially_paid', 'failed'];

/** Matches an e-mail against the company e-mail, then the personal e-mail (company e-mails come first). */
const namedBy = (email: string) => sql`(lower(email) = lower(${email}) OR lower(personal_email) = lower(${email}))`;
const companyEmailFirst = (email: string) => sql`CASE WHEN lower(email) = lower(${email}) THEN 0 ELSE 1 END`;
// An exited administrator (docs/users.md, "Leavers") approves nothing, as a deactivated one.
const ACTIVE_ADMIN = sql`deleted_at IS NULL AND is_active AND NOT is_suspended AND NOT ${exitedSql(sql`exit_date`, LAGOS_TODAY_SQL)}
  AND roles && ARRAY['admin', 'super-admin']::text[]`;

export const runApprovalRepo = {
  async mode(db: Executor, companyId: number): Promise<'person' | 'token'> {
    const rows = await queryRows<{ run_approval: 'person' | 'token' }>(db, sql`SELECT run_approval FROM companies WHERE id = ${companyId}`);
    return rows[0]?.run_approval ?? 'person';
  },

  /** The company's payment frequency (a run from salaries pays one period of it). */
  async companyFrequency(db: Executor, companyId: number): Promise<string> {
    const rows = await queryRows<{ payment_frequency: string }>(db, sql`SELECT payment_frequency FROM companies WHERE id = ${companyId}`);
    return rows[0]?.payment_frequency ?? 'monthly';
  },

  /** The non-deleted user of the company this e-mail names (a run's creator). */
  async companyUser(db: Executor, companyId: number, email: string): Promise<NamedUser | undefined> {
    const rows = await queryRows<NamedUser>(
      db,
      sql`SELECT id, company_id, email FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL AND ${namedBy(email)}
          ORDER BY ${companyEmailFirst(email)}, id LIMIT 1`,
    );
    return rows[0];
  },

  /** The active, not suspended admin or super-admin of these companies this e-mail names (the run's own company first). */
  async admin(db: Executor, companyIds: number[], email: string): Promise<NamedUser | undefined> {
    const rows = await queryRows<NamedUser>(
      db,
      sql`SELECT id, company_id, email FROM users WHERE company_id = ANY(${pgArray(companyIds)}::int[]) AND ${ACTIVE_ADMIN} AND ${namedBy(email)}
          ORDER BY company_id = ${companyIds[0]} DESC, ${companyEmailFirst(email)}, id LIMIT 1`,
    );
    return rows[0];
  },

  /** The user when they are an active, not suspended admin or super-admin of the company. */
  async adminById(db: Executor, companyId: number, userId: number): Promise<NamedUser | undefined> {
    const rows = await queryRows<NamedUser>(
      db,
      sql`SELECT id, company_id, email FROM users WHERE company_id = ${companyId} AND id = ${userId} AND ${ACTIVE_ADMIN}`,
    );
    return rows[0];
  },

  /** The company and every company above it (in `token` mode an approver may be an admin of a parent). */
  async companyAndAncestors(db: Executor, companyId: number): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`WITH RECURSIVE chain(id, created_by, depth) AS (
            SELECT id, created_by, 0 FROM companies WHERE id = ${companyId}
            UNION ALL
            SELECT c.id, c.created_by, chain.depth + 1 FROM companies c JOIN chain ON c.id = chain.created_by WHERE chain.depth < 64)
          SELECT id FROM chain ORDER BY depth`,
    );
    return rows.map((row) => row.id);
  },

  /** Records (or replaces) the request of a run that is still a draft; answers when its link expires, or undefined (not a draft). */
  async putRequest(
    tx: Executor,
    companyId: number,
    runId: string,
    request: { approverUserId: number; approverEmail: string; tokenHash: string },
    /** The run is past draft and has paystubs waiting for approval of a new bank account (checked by the caller). */
    releasing = false,
  ): Promise<Date | string | undefined> {
    const [row] = await queryRows<{ expires_at: Date | string }>(
      tx,
      sql`INSERT INTO payroll_run_approval_requests (company_id, run_id, approver_user_id, approver_email, token_hash, expires_at)
          SELECT ${companyId}::int, ${runId}::text, ${request.approverUserId}::int, ${request.approverEmail}::text, ${request.tokenHash}::text,
                 now() + make_interval(hours => ${APPROVAL_LINK_HOURS}::int)
          WHERE EXISTS (SELECT 1 FROM payroll_runs WHERE company_id = ${companyId} AND id = ${runId} AND (status = 'draft' OR (${releasing}::boolean AND status <> 'cancelled')))
          ON CONFLICT (company_id, run_id) DO UPDATE SET approver_user_id = EXCLUDED.approver_user_id,
            approver_email = EXCLUDED.approver_email, token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = now()
          RETURNING expires_at`,
    );
    return row?.expires_at;
  },

  /** The run's request when `tokenHash` is its link's and the link has not expired. */
  async liveRequest(db: Executor, companyId: number, runId: string, tokenHash: string): Promise<ApprovalRequestRow | undefined> {
    const rows = await queryRows<ApprovalRequestRow>(
      db,
      sql`SELECT approver_user_id, approver_email, token_hash, expires_at FROM payroll_run_approval_requests
          WHERE company_id = ${companyId} AND run_id = ${runId} AND token_hash = ${tokenHash} AND expires_at > now()`,
    );
    return rows[0];
  },

  async deleteRequest(tx: Executor, companyId: number, runId: string): Promise<void> {
    await tx.execute(sql`DELETE FROM payroll_run_approval_requests WHERE company_id = ${companyId} AND run_id = ${runId}`);
  },

  /**
   * The run's unpaid regular paystubs whose period overlaps another regular paystub of the same
   * employee that is approved, held, processing, paid or failed (a run past approval, not cancelled),
   * or another paystub of this same run: each pair once.
   */
  async overlaps(tx: Executor, companyId: number, runId: string): Promise<OverlapRow[]> {
    // Each paystub's others are read per employee (LATERAL, OFFSET 0 so the planner cannot flatten
    // it into one join of the run with itself): an index probe per paystub whatever the statistics.
    // A run just created has none yet, and the flattened join then paired every paystub with every
    // other, 38 s for 10,000 (docs/benchmarks.md, "Growth"). The probe's company is `o.company_id + 0`,
    // which no index can take: on statistics of an empty table the planner otherwise probed by
    // (company, run) through paystubs_company_transaction_idx and read the whole run for each of its
    // paystubs (100,000 squared: an approval still running after minutes); now only the employee's
    // indexes can answer (198 ms for 100,000: docs/payroll-runs.md, "One salary per period").
    return queryRows<OverlapRow>(
      tx,
      sql`SELECT p.id AS paystub_id, p.user_id, o.id AS other_paystub_id,
                 o.pay_period_start::text AS pay_period_start, o.pay_period_end::text AS pay_period_end
          FROM paystubs p
          CROSS JOIN LATERAL (
            SELECT o.id, o.pay_period_start, o.pay_period_end
            FROM paystubs o JOIN payroll_runs r ON r.company_id = p.company_id AND r.id = o.transaction_id
            WHERE o.company_id + 0 = p.company_id AND o.user_id = p.user_id AND o.id <> p.id AND o.status <> 'cancelled'
              AND o.pay_period_start <= p.pay_period_end AND o.pay_period_end >= p.pay_period_start AND ${isRegular('o')}
              AND ((o.transaction_id = ${runId} AND o.id < p.id)
                   OR (o.transaction_id <> ${runId} AND r.status = ANY(${pgArray(APPROVED_RUN_STATUSES)}::text[])))
            OFFSET 0) o
          WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status = 'unpaid' AND ${isRegular('p')}
          ORDER BY p.id, o.id`,
    );
  },
};
