// All SQL of payment destinations (docs/payroll-runs.md, "Payment destinations"): pinning a
// paystub's destination and employee snapshot at approval, finding the paystubs whose pinned
// destination is no longer the employee's, and releasing held paystubs. The hold itself is the
// trigger of migrations/0186_paystub_destinations.sql (it fires for every writer of bank details).
import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../../db/client.js';
import { pgArray } from '../../../db/pg-array.js';
import type { Approval } from '../payroll-runs.repo.js';

export const HOLD_REASON = 'Bank account changed after approval.';

/** The paystubs a pin may touch: approved and not yet handed to the provider (or failed, for a retry). */
const PINNABLE = sql.raw(`('unpaid', 'held', 'failed')`);

/** A pinned destination that is no longer the employee's current account. */
const CHANGED = sql.raw(
  `(p.destination_pinned_at IS NULL OR p.destination_bank_code IS DISTINCT FROM u.bank_code
    OR p.destination_account_number IS DISTINCT FROM NULLIF(btrim(u.account_number), ''))`,
);

const only = (ids: readonly number[] | undefined) => (ids ? sql`AND p.id = ANY(${pgArray([...ids])}::int[])` : sql``);

export const destinationsRepo = {
  /**
   * Pins the current bank details and the payslip's employee fields on the run's paystubs (these
   * ids only, when given) that are unpaid, held or failed; held ones become unpaid again. The
   * employees' rows are locked first (FOR SHARE, by id): a bank change committed before this
   * statement is what gets pinned, and one after it waits and then holds what was pinned.
   */
  async pin(tx: Executor, companyId: number, runId: string, paystubIds?: readonly number[]): Promise<number[]> {
    await tx.execute(
      sql`SELECT u.id FROM users u WHERE u.id IN (
            SELECT p.user_id FROM paystubs p
            WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status IN ${PINNABLE} ${only(paystubIds)})
          ORDER BY u.id FOR SHARE`,
    );
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`UPDATE paystubs p SET
            destination_bank_code = u.bank_code,
            destination_bank_name = NULLIF(btrim(u.bank_name), ''),
            destination_account_number = NULLIF(btrim(u.account_number), ''),
            destination_account_name = COALESCE(NULLIF(btrim(u.account_name), ''), btrim(u.first_name || ' ' || u.last_name)),
            destination_pinned_at = now(),
            employee_snapshot = jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name, 'employee_id', u.employee_id,
              'title', u.title, 'department', u.department, 'email', u.email),
            status = CASE WHEN p.status = 'held' THEN 'unpaid' ELSE p.status END,
            hold_reason = NULL,
            updated_at = now()
          FROM users u
          WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status IN ${PINNABLE} AND u.id = p.user_id
            ${only(paystubIds)}
          RETURNING p.id`,
    );
    return rows.map((row) => row.id);
  },

  /**
   * The run's paystubs that need an approval of their employee's new bank account: held ones, and
   * failed ones whose pinned destination is no longer the employee's (a retry must not send there).
   */
  async awaitingApproval(db: Executor, companyId: number, runId: string): Promise<{ id: number; status: 'held' | 'failed' }[]> {
    return queryRows(
      db,
      sql`SELECT p.id, p.status FROM paystubs p JOIN users u ON u.id = p.user_id
          WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId}
            AND (p.status = 'held' OR (p.status = 'failed' AND ${CHANGED}))
          ORDER BY p.id`,
    );
  },

  /**
   * After a release: a finished run (paid, partially_paid, failed) that has unpaid paystubs again
   * is approved again, so that `pay` sends them; the approver is recorded. A processing run stays
   * processing (payrollRunsRepo.finish turns it approved when its transfers are done).
   */
  async reopen(tx: Executor, companyId: number, runId: string, approval: Approval): Promise<void> {
    await tx.execute(
      sql`UPDATE payroll_runs r SET
            status = CASE WHEN r.status IN ('paid', 'partially_paid', 'failed')
                           AND EXISTS (SELECT 1 FROM paystubs p WHERE p.company_id = r.company_id AND p.transaction_id = r.id AND p.status = 'unpaid')
                          THEN 'approved' ELSE r.status END,
            approved_by_email = ${approval.email}, approved_by_user_id = ${approval.userId}, approved_via = ${approval.via},
            approved_at = now(), updated_at = now()
          WHERE r.company_id = ${companyId} AND r.id = ${runId}`,
    );
  },
};
