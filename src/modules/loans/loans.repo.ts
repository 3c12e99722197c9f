// All SQL of loans (docs/payroll.md, "Loans and salary advances"): the loans table and the
// repayment items on paystubs (paystub_items.loan_id, 0212_loans.sql). Company id first: another
// company's loan or user is simply not found. Callers lock what they decide on; writes only write.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { filtersGiven, namedPageWithTotal } from '../../db/page-total.js';
import { pgArray } from '../../db/pg-array.js';
import { rowVersion } from '../../db/row-version.js';

/** A loan row as the API shows it: amounts and the rate as numeric text, times as ISO text. */
export interface LoanRow {
  id: number;
  company_id: number;
  user_id: number;
  kind: 'loan' | 'advance';
  principal: string;
  balance: string;
  instalment: string;
  start_period: string;
  interest_rate_annual: string;
  status: 'active' | 'paid_off' | 'written_off';
  skipped_periods: string[];
  closed_balance: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A loan's place on a page: its id and its row's version (db/row-version.ts). */
export interface LoanPlace {
  id: number;
  version: string;
}

export interface LoanFilters {
  userId?: number;
  status?: string;
  kind?: string;
}

/** An active loan of a run's user, with what paystubs not yet paid will repay of it. */
export interface RepayableRow {
  id: number;
  user_id: number;
  kind: 'loan' | 'advance';
  balance: string;
  pending: string;
  instalment: string;
  interest_rate_annual: string;
  start_period: string;
  skipped_periods: string[];
  repaid_periods: string[];
}

const COLUMNS = sql.raw(`l.id, l.company_id, l.user_id, l.kind, l.principal::text AS principal, l.balance::text AS balance,
  l.instalment::text AS instalment, l.start_period, l.interest_rate_annual::text AS interest_rate_annual, l.status, l.skipped_periods,
  l.closed_balance::text AS closed_balance, to_char(l.closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS closed_at,
  to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(l.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`);

/**
 * Paystub statuses whose repayment will lower a balance when paid. A failed one is not counted: its
 * repayment waits for a retry, and meanwhile the next period repays as if it had none (a retry then
 * paying both is floored at a zero balance).
 */
const NOT_PAID_YET = sql.raw(`('unpaid', 'held', 'processing')`);

/** Each filter's condition; the filters given name the page's statement (db/page-total.ts). */
const FILTER_SQL: Record<keyof LoanFilters, SQL> = {
  userId: sql`l.user_id = ${sql.placeholder('userId')}`,
  status: sql`l.status = ${sql.placeholder('status')}`,
  kind: sql`l.kind = ${sql.placeholder('kind')}`,
};

/** A page of `columns` newest first with the filter's total; unfiltered, the total is the company's counter (0275). */
function pageOf<T extends object>(
  executor: Executor,
  name: string,
  columns: SQL,
  companyId: number,
  filters: LoanFilters,
  limit: number,
  offset: number,
) {
  const given = filtersGiven(FILTER_SQL, filters);
  return namedPageWithTotal<T>(
    executor,
    [name, ...given.keys].join('_').toLowerCase(),
    () => ({
      columns,
      from: sql`FROM loans l WHERE ${sql.join([sql`l.company_id = ${sql.placeholder('companyId')}`, ...given.conditions], sql` AND `)}`,
      order: sql`l.id DESC`,
      // Unfiltered, the company's counter (0275_loan_counts.sql) instead of counting its loans.
      total:
        given.keys.length === 0
          ? sql`(SELECT coalesce(sum(c.loans), 0)::int FROM loan_counts c WHERE c.company_id = ${sql.placeholder('companyId')})`
          : undefined,
    }),
    { companyId, ...given.values },
    limit,
    offset,
  );
}

export const loansRepo = {
  /** The live user's month of wages (base_salary + allowances); locked, so two advances for one user take turns. */
  async borrower(executor: Executor, companyId: number, userId: number): Promise<{ wages: string } | undefined> {
    const [row] = await queryRows<{ wages: string }>(
      executor,
      sql`SELECT (coalesce(base_salary, 0) + coalesce(allowances, 0))::text AS wages FROM users
          WHERE company_id = ${companyId} AND id = ${userId} AND deleted_at IS NULL FOR UPDATE`,
    );
    return row;
  },

  /** The company's max_deduction_ratio setting (undefined without a settings row). */
  async deductionRatio(executor: Executor, companyId: number): Promise<string | undefined> {
    const [row] = await queryRows<{ ratio: string }>(
      executor,
      sql`SELECT max_deduction_ratio AS ratio FROM contribution_settings WHERE company_id = ${companyId}`,
    );
    return row?.ratio;
  },

  async userExists(executor: Executor, companyId: number, userId: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT id FROM users WHERE company_id = ${companyId} AND id = ${userId} AND deleted_at IS NULL`,
    );
    return rows.length > 0;
  },

  async advanceOutstanding(executor: Executor, companyId: number, userId: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT id FROM loans WHERE company_id = ${companyId} AND user_id = ${userId} AND kind = 'advance' AND status = 'active' LIMIT 1`,
    );
    return rows.length > 0;
  },

  async insert(
    executor: Executor,
    row: { companyId: number; userId: number; kind: string; principal: string; instalment: string; startPeriod: string; rate: string },
  ): Promise<LoanRow> {
    const [inserted] = await queryRows<LoanRow>(
      executor,
      sql`WITH l AS (INSERT INTO loans (company_id, user_id, kind, principal, balance, instalment, start_period, interest_rate_annual)
            VALUES (${row.companyId}, ${row.userId}, ${row.kind}, ${row.principal}::numeric, ${row.principal}::numeric, ${row.instalment}::numeric,
                    ${row.startPeriod}, ${row.rate}::numeric) RETURNING *)
          SELECT ${COLUMNS} FROM l`,
    );
    return inserted;
  },

  async find(executor: Executor, companyId: number, id: number, lock = false): Promise<LoanRow | undefined> {
    const [row] = await queryRows<LoanRow>(
      executor,
      sql`SELECT ${COLUMNS} FROM loans l WHERE l.company_id = ${companyId} AND l.id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`,
    );
    return row;
  },

  /** A page newest first with the filter's total, in one named statement per set of filters (db/page-total.ts). */
  page(executor: Executor, companyId: number, filters: LoanFilters, limit: number, offset: number) {
    return pageOf<LoanRow & LoanPlace>(
      executor,
      'loans_page',
      sql`${COLUMNS}, ${rowVersion('l')} AS version`,
      companyId,
      filters,
      limit,
      offset,
    );
  },

  /** The same page's places only (ids and versions) with its total: loans.list-text.service.ts keeps the texts. */
  places(executor: Executor, companyId: number, filters: LoanFilters, limit: number, offset: number) {
    return pageOf<LoanPlace>(executor, 'loans_places', sql`l.id, ${rowVersion('l')} AS version`, companyId, filters, limit, offset);
  },

  /** Whether a paystub not paid yet (unpaid, held, processing) carries a repayment of the loan. */
  async repaymentWaiting(executor: Executor, companyId: number, loanId: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      executor,
      sql`SELECT p.id FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
          WHERE i.loan_id = ${loanId} AND i.company_id = ${companyId} AND p.status IN ${NOT_PAID_YET} LIMIT 1`,
    );
    return rows.length > 0;
  },

  async addSkipped(executor: Executor, companyId: number, id: number, period: string): Promise<void> {
    await executor.execute(
      sql`UPDATE loans SET skipped_periods = array_append(skipped_periods, ${period}::text), updated_at = now()
          WHERE company_id = ${companyId} AND id = ${id}`,
    );
  },

  /** Settle (paid_off) or write off: the balance closes at 0 and what it was is kept. */
  async close(executor: Executor, companyId: number, id: number, status: 'paid_off' | 'written_off'): Promise<void> {
    await executor.execute(
      sql`UPDATE loans SET status = ${status}, closed_balance = balance, balance = 0, closed_at = now(), updated_at = now()
          WHERE company_id = ${companyId} AND id = ${id} AND status = 'active'`,
    );
  },

  /**
   * The active loans of these users, each with the principal that paystubs not paid yet will repay
   * (`pending`) and the months (YYYY-MM of the period end) whose paystubs, not cancelled, repay it.
   */
  async repayable(executor: Executor, companyId: number, userIds: readonly number[]): Promise<RepayableRow[]> {
    if (userIds.length === 0) return [];
    return queryRows<RepayableRow>(
      executor,
      sql`SELECT l.id, l.user_id, l.kind, l.balance::text AS balance, l.instalment::text AS instalment,
                 l.interest_rate_annual::text AS interest_rate_annual, l.start_period, l.skipped_periods,
                 coalesce(sum(i.amount - coalesce(i.loan_interest, 0)) FILTER (WHERE p.status IN ${NOT_PAID_YET}), 0)::text AS pending,
                 coalesce(array_agg(DISTINCT to_char(p.pay_period_end, 'YYYY-MM')) FILTER (WHERE p.status <> 'cancelled'), '{}') AS repaid_periods
          FROM loans l
          LEFT JOIN paystub_items i ON i.loan_id = l.id
          LEFT JOIN paystubs p ON p.id = i.paystub_id
          WHERE l.company_id = ${companyId} AND l.user_id = ANY(${pgArray([...userIds])}::int[]) AND l.status = 'active'
          GROUP BY l.id
          ORDER BY l.id`,
    );
  },

  /**
   * Paid paystubs lower the balances of the loans they repay by the principal part; a loan reaching 0
   * is paid_off. Only active loans move (a settled or written-off loan is closed). Returns the loans
   * this call paid off.
   */
  async applyPaid(executor: Executor, companyId: number, paystubIds: readonly number[]): Promise<LoanRow[]> {
    if (paystubIds.length === 0) return [];
    return queryRows<LoanRow>(
      executor,
      sql`WITH r AS (SELECT loan_id, sum(amount - coalesce(loan_interest, 0)) AS principal FROM paystub_items
                     WHERE company_id = ${companyId} AND paystub_id = ANY(${pgArray([...paystubIds])}::int[]) AND loan_id IS NOT NULL
                     GROUP BY loan_id),
               l AS (UPDATE loans l SET balance = greatest(l.balance - r.principal, 0),
                       status = CASE WHEN l.balance - r.principal <= 0 THEN 'paid_off' ELSE l.status END, updated_at = now()
                     FROM r WHERE l.id = r.loan_id AND l.company_id = ${companyId} AND l.status = 'active'
                     RETURNING l.*)
          SELECT ${COLUMNS} FROM l WHERE l.status = 'paid_off'`,
    );
  },

  /**
   * Paid paystubs reversed: their principal is owed again. A loan paid off by repayments becomes
   * active again; one closed by settle or write-off (closed_at set) stays closed.
   */
  async restore(executor: Executor, companyId: number, paystubIds: readonly number[]): Promise<void> {
    if (paystubIds.length === 0) return;
    await executor.execute(
      sql`WITH r AS (SELECT loan_id, sum(amount - coalesce(loan_interest, 0)) AS principal FROM paystub_items
                     WHERE company_id = ${companyId} AND paystub_id = ANY(${pgArray([...paystubIds])}::int[]) AND loan_id IS NOT NULL
                     GROUP BY loan_id)
          UPDATE loans l SET balance = l.balance + r.principal, status = 'active', updated_at = now()
          FROM r WHERE l.id = r.loan_id AND l.company_id = ${companyId} AND l.closed_at IS NULL`,
    );
  },
};
