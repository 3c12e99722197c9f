// P1's reads, done as U1's (users.read.repo.ts): the page carries its total as a last column (one
// statement, one round trip, the total read in the same snapshot as the rows), and the fixed-shape
// statements (the unfiltered page, the page's users, its custom contribution records) are named
// prepared statements run on the hot-reads pool, which keeps their generic plans (db/client.ts
// `hotReads`): a page with `LIMIT $n OFFSET $m` would otherwise be planned again on every
// execution. A filtered page (user_id, transaction_id, status, any mix) stays a dynamic statement
// on the caller's executor: eight prepared variants for rarely combined filters are not worth it,
// and a skewed status filter is where PostgreSQL's custom plans earn their keep. Every column is
// read as paystubs.repo.ts reads it (numerics and dates as PostgreSQL's text, the driver's own
// values otherwise), so the rows and the response are the same as before.
import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Executor, hotReads, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { preparedPerExecutor, withArrayRows } from '../../db/prepared.js';
import { customContributionRecords, paystubCounts, paystubRunCounts, paystubs, users, userTypes } from '../../db/schema/index.js';
import { exitedSql, LAGOS_TODAY_SQL } from '../users/index.js';
import { PAYSTUB_COLUMNS, type PaystubFilters, paystubsRepo, paystubsWhere } from './paystubs.repo.js';
import type { EmbeddedUserRow, PaystubItemRow, PaystubRow, RecordRow } from './paystubs.rows.types.js';

/**
 * A repayment item's loan balance once its paystub `p` (item alias `i`) has repaid it (docs/payroll.md, "Loans and
 * salary advances", "On the payslip"): the principal less the principal parts of this repayment and
 * of the loan's repayments on earlier paystubs (period end, then id) that were not failed or
 * cancelled. So a paystub not paid yet shows the balance its payment will leave, as the run
 * planned it; floored at 0 as settlement floors it. Null for an item that repays no loan.
 */
export const LOAN_BALANCE_AFTER = sql`CASE WHEN i.loan_id IS NULL THEN NULL ELSE (
    SELECT greatest(l.principal - coalesce((
      SELECT sum(j.amount - coalesce(j.loan_interest, 0)) FROM paystub_items j JOIN paystubs q ON q.id = j.paystub_id
      WHERE j.loan_id = i.loan_id AND (q.id = p.id OR (q.status NOT IN ('failed', 'cancelled')
        AND (q.pay_period_end < p.pay_period_end OR (q.pay_period_end = p.pay_period_end AND q.id < p.id))))), 0), 0)::text
    FROM loans l WHERE l.id = i.loan_id) END`;

/** The column as the driver hands it over (no Drizzle decoder: timestamps stay PostgreSQL's text). */
const raw = <T>(column: AnyPgColumn) => sql<T>`${column}`;
/** A numeric or date as PostgreSQL's text, as paystubs.repo.ts's `::text` columns. */
const text = (column: AnyPgColumn) => sql<string>`${column}::text`;

/**
 * Rows as plain objects keyed like the selection, straight from the driver's array rows
 * (db/prepared.ts `withArrayRows`): every column here is a bare `sql` fragment without a decoder,
 * so Drizzle's own mapping (an `is()` check and a no-op decoder call per field, 8% of P1's server
 * CPU in a profile) would hand over the very same values.
 */
function keyedRows<T>(columns: Record<string, SQL>) {
  const keys = Object.keys(columns);
  return (rows: unknown[][]): T[] =>
    rows.map((row) => {
      const keyed: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) keyed[keys[i]] = row[i];
      return keyed as T;
    });
}

const paystubColumns = {
  id: raw<number>(paystubs.id),
  company_id: raw<number>(paystubs.companyId),
  user_id: raw<number>(paystubs.userId),
  pay_period_start: text(paystubs.payPeriodStart),
  pay_period_end: text(paystubs.payPeriodEnd),
  taxable_income: text(paystubs.taxableIncome),
  reimbursements: text(paystubs.reimbursements),
  other_allowances: text(paystubs.otherAllowances),
  gross_pay: text(paystubs.grossPay),
  net_pay: text(paystubs.netPay),
  tax_withheld: text(paystubs.taxWithheld),
  pension_contribution: text(paystubs.pensionContribution),
  nhf_contribution: text(paystubs.nhfContribution),
  nhis_contribution: text(paystubs.nhisContribution),
  other_deductions: text(paystubs.otherDeductions),
  employer_pension_contribution: text(paystubs.employerPensionContribution),
  nhis_employer_contribution: text(paystubs.nhisEmployerContribution),
  employer_cost: text(paystubs.employerCost),
  tax_regime: raw<string>(paystubs.taxRegime),
  taxable_items: text(paystubs.taxableItems),
  irregular_gross: text(paystubs.irregularGross),
  tax_true_up: text(paystubs.taxTrueUp),
  off_cycle: raw<boolean>(paystubs.offCycle),
  status: raw<string>(paystubs.status),
  transaction_id: raw<string>(paystubs.transactionId),
  paid_at: raw<string | null>(paystubs.paidAt),
  payment_reference: raw<string | null>(paystubs.paymentReference),
  failure_reason: raw<string | null>(paystubs.failureReason),
  hold_reason: raw<string | null>(paystubs.holdReason),
  destination_pinned_at: raw<string | null>(paystubs.destinationPinnedAt),
  destination_bank_code: raw<string | null>(paystubs.destinationBankCode),
  destination_bank_name: raw<string | null>(paystubs.destinationBankName),
  destination_account_last4: sql<string | null>`right(${paystubs.destinationAccountNumber}, 4)`,
  destination_account_name: raw<string | null>(paystubs.destinationAccountName),
  paye_state: raw<string | null>(paystubs.payeState),
  created_at: raw<string>(paystubs.createdAt),
  updated_at: raw<string>(paystubs.updatedAt),
} satisfies Record<keyof PaystubRow, SQL>;

/** The unfiltered page, newest first, carrying the company's counter (0141_paystub_counts.sql). */
const pageColumns = {
  ...paystubColumns,
  total: sql<
    number | null
  >`(SELECT ${paystubCounts.paystubs} FROM ${paystubCounts} WHERE ${paystubCounts.companyId} = ${sql.placeholder('companyId')})`,
};
const pageRows = keyedRows<PaystubRow & { total: number | null }>(pageColumns);
/**
 * The unfiltered page's ids, newest first, from paystubs_company_idx (company, id DESC) alone. Asked
 * for whole rows, the generic plan walked paystubs_pkey backwards and filtered by company, so a
 * company whose paystubs are not the newest (any but the last to pay, on a shared database) read
 * every later company's first (paystubs.first-page.test.ts; U1's first page had the same walk:
 * docs/users.md, "Deep pages").
 */
export const COMPANY_PAGE_IDS = sql`ARRAY(SELECT q.id FROM ${paystubs} q WHERE q.company_id = ${sql.placeholder('companyId')}
    ORDER BY q.id DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')})`;
const preparedPage = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select(pageColumns)
      .from(paystubs)
      .where(and(eq(paystubs.companyId, sql.placeholder('companyId')), sql`${paystubs.id} = ANY(${COMPANY_PAGE_IDS})`))
      .orderBy(desc(paystubs.id))
      .prepare('paystubs_page'),
  ),
);

/**
 * The page of one run (P1 filtered by transaction_id alone: the console's run view), newest first,
 * carrying the run's counter (0260_paystub_run_counts.sql; the sum of its slots since 0265) instead of counting the run's paystubs on
 * every request, prepared like the unfiltered page. The page's ids come first from
 * paystubs_company_transaction_idx alone (an index-only scan), then their rows by primary key: asked
 * for whole rows in one step, the generic plan walked the company's paystubs newest first by
 * primary key and skipped every later run's (6 ms for the first of three runs of 10,000, against
 * 0.3; docs/benchmarks.md "P1 filtered by one run").
 */
const runPageColumns = {
  ...paystubColumns,
  total: sql<
    number | null
  >`(SELECT sum(${paystubRunCounts.paystubs})::int FROM ${paystubRunCounts} WHERE ${paystubRunCounts.companyId} = ${sql.placeholder(
    'companyId',
  )} AND ${paystubRunCounts.transactionId} = ${sql.placeholder('transactionId')})`,
};
const runPageRows = keyedRows<PaystubRow & { total: number | null }>(runPageColumns);
const preparedRunPage = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select(runPageColumns)
      .from(paystubs)
      .where(
        and(
          eq(paystubs.companyId, sql.placeholder('companyId')),
          sql`${paystubs.id} = ANY(ARRAY(SELECT p.id FROM ${paystubs} p WHERE p.company_id = ${sql.placeholder('companyId')}
                AND p.transaction_id = ${sql.placeholder('transactionId')} ORDER BY p.id DESC
                LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}))`,
        ),
      )
      .orderBy(desc(paystubs.id))
      .prepare('paystubs_run_page'),
  ),
);

/** The embedded `user` of P1's items: public fields only. */
const userColumns = {
  id: raw<number>(users.id),
  employee_id: raw<string>(users.employeeId),
  first_name: raw<string>(users.firstName),
  last_name: raw<string>(users.lastName),
  email: raw<string>(users.email),
  personal_email: raw<string>(users.personalEmail),
  unique_id: raw<string>(users.uniqueId),
  user_types: raw<string | null>(userTypes.name),
  title: raw<string | null>(users.title),
  department: raw<string | null>(users.department),
  level: raw<string | null>(users.level),
  office_location: raw<string | null>(users.officeLocation),
  payment_frequency: raw<string | null>(users.paymentFrequency),
  // As the User object says it: false once exited (docs/users.md, "Leavers").
  is_active: sql<boolean>`(${users.isActive} AND NOT ${exitedSql(users.exitDate, LAGOS_TODAY_SQL)})`,
  company_id: raw<number>(users.companyId),
  deleted_at: raw<string | null>(users.deletedAt),
} satisfies Record<keyof EmbeddedUserRow, SQL>;
const userRows = keyedRows<EmbeddedUserRow>(userColumns);
const preparedUsers = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select(userColumns)
      .from(users)
      .leftJoin(userTypes, eq(userTypes.id, users.userTypeId))
      .where(and(eq(users.companyId, sql.placeholder('companyId')), sql`${users.id} = ANY(${sql.placeholder('ids')}::int[])`))
      .prepare('paystubs_page_users'),
  ),
);

const recordColumns = {
  id: raw<number>(customContributionRecords.id),
  contribution_id: raw<number>(customContributionRecords.contributionId),
  custom_contribution_id: raw<number | null>(customContributionRecords.customContributionId),
  user_id: raw<number>(customContributionRecords.userId),
  name: raw<string>(customContributionRecords.name),
  employee_contribution: text(customContributionRecords.employeeContribution),
  employer_contribution: text(customContributionRecords.employerContribution),
  created_at: raw<string>(customContributionRecords.createdAt),
  updated_at: raw<string>(customContributionRecords.updatedAt),
} satisfies Record<keyof RecordRow, SQL>;
const recordRows = keyedRows<RecordRow>(recordColumns);
const preparedRecords = preparedPerExecutor((executor) =>
  withArrayRows(
    executor
      .select(recordColumns)
      .from(customContributionRecords)
      .where(
        and(
          eq(customContributionRecords.companyId, sql.placeholder('companyId')),
          sql`${customContributionRecords.contributionId} = ANY(${sql.placeholder('ids')}::int[])`,
        ),
      )
      .orderBy(asc(customContributionRecords.id))
      .prepare('paystubs_page_records'),
  ),
);

const unfiltered = (filters: PaystubFilters) =>
  filters.userId === undefined && filters.transactionId === undefined && filters.status === undefined;
const runOnly = (filters: PaystubFilters) =>
  filters.userId === undefined && filters.status === undefined && filters.transactionId !== undefined;

export const paystubsReadRepo = {
  /**
   * P1's page (newest first) and its total in one statement: unfiltered, the company's counter;
   * filtered, a count of the same filter in a scalar subquery. An empty page (past the end, or
   * nothing matches) has no row to carry the total: it is read on its own.
   */
  async page(
    executor: Executor,
    companyId: number,
    filters: PaystubFilters,
    offset: number,
    limit: number,
  ): Promise<{ rows: PaystubRow[]; total: number }> {
    const rows: (PaystubRow & { total: number | null })[] = unfiltered(filters)
      ? pageRows(await preparedPage(hotReads(executor)).execute({ companyId, offset, limit }))
      : runOnly(filters)
        ? runPageRows(await preparedRunPage(hotReads(executor)).execute({ companyId, transactionId: filters.transactionId, offset, limit }))
        : await queryRows<PaystubRow & { total: number }>(
            executor,
            sql`SELECT ${PAYSTUB_COLUMNS}, (SELECT count(*)::int FROM paystubs WHERE ${paystubsWhere(companyId, filters)}) AS total
              FROM paystubs WHERE ${paystubsWhere(companyId, filters)} ORDER BY id DESC LIMIT ${limit} OFFSET ${offset}`,
          );
    const total = rows[0]?.total;
    return { rows, total: total ?? (await paystubsRepo.count(executor, companyId, filters)) };
  },

  /** The embedded `user` of P1 (public fields only) for these user ids of the company. */
  async usersOf(executor: Executor, companyId: number, userIds: number[]): Promise<EmbeddedUserRow[]> {
    if (userIds.length === 0) return [];
    return userRows(await preparedUsers(hotReads(executor)).execute({ companyId, ids: pgArray(userIds) }));
  },

  /** The items of these paystubs of the company, in position order. */
  async itemsOf(executor: Executor, companyId: number, paystubIds: number[]): Promise<PaystubItemRow[]> {
    if (paystubIds.length === 0) return [];
    return queryRows<PaystubItemRow>(
      executor,
      sql`SELECT i.paystub_id, i.code, i.name, i.treatment, i.amount::text AS amount, i.taxable_amount::text AS taxable_amount, i.taxable,
                 i.pensionable, i.regular, i.cash, i.description, i.origin_period, i.loan_id, ${LOAN_BALANCE_AFTER} AS loan_balance_after
          FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
          WHERE i.company_id = ${companyId} AND i.paystub_id = ANY(${pgArray(paystubIds)}::int[])
          ORDER BY i.paystub_id, i.position`,
    );
  },

  /** The custom contribution records on these paystubs (contribution records) of the company, by id. */
  async recordsOf(executor: Executor, companyId: number, contributionIds: number[]): Promise<RecordRow[]> {
    if (contributionIds.length === 0) return [];
    return recordRows(await preparedRecords(hotReads(executor)).execute({ companyId, ids: pgArray(contributionIds) }));
  },
};
