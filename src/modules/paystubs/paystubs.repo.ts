// All SQL of paystubs (each row is also the paystub's contribution record) and the custom
// contribution records on them.
// Batch statements take whole columns as single array parameters (unnest), so a 1,000-item run is
// a handful of statements whatever its size. Every method takes companyId first.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import type { StateHistoryRow } from './paystubs.paye-state.rules.js';
import type { NewPaystub, NewPaystubItem, NewRecord, PlanCustom, PlanUser } from './paystubs.plan.types.js';
import type { InsertedPaystub, InsertedRow, PaystubRow } from './paystubs.rows.types.js';
import type { PlanYtdRow } from './paystubs.ytd.rules.js';

/** Serialises payroll runs of one company (one_time applications, duplicate checks). */
const RUN_LOCK = 40_020;

export interface PayrollContextRow {
  payment_frequency: string;
  settings_id: number | null;
  sector: 'private' | 'public';
}

/** A paystub row as PaystubRow (numerics and dates as PostgreSQL's text); also paystubs.read.repo.ts's filtered page. */
export const PAYSTUB_COLUMNS =
  sql.raw(`id, company_id, user_id, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end,
  taxable_income::text AS taxable_income, reimbursements::text AS reimbursements, other_allowances::text AS other_allowances,
  gross_pay::text AS gross_pay, net_pay::text AS net_pay, tax_withheld::text AS tax_withheld, pension_contribution::text AS pension_contribution,
  nhf_contribution::text AS nhf_contribution, nhis_contribution::text AS nhis_contribution, other_deductions::text AS other_deductions,
  employer_pension_contribution::text AS employer_pension_contribution, nhis_employer_contribution::text AS nhis_employer_contribution,
  employer_cost::text AS employer_cost, tax_regime, taxable_items::text AS taxable_items, irregular_gross::text AS irregular_gross, tax_true_up::text AS tax_true_up, off_cycle, status, transaction_id, paid_at, payment_reference, failure_reason, hold_reason,
  destination_pinned_at, destination_bank_code, destination_bank_name, right(destination_account_number, 4) AS destination_account_last4,
  destination_account_name, paye_state, created_at, updated_at`);

export interface PaystubFilters {
  userId?: number;
  transactionId?: string;
  status?: string;
}

/** P1's filters, unqualified column names (also inside paystubs.read.repo.ts's count subquery). */
export function paystubsWhere(companyId: number, filters: PaystubFilters): SQL {
  const parts = [sql`company_id = ${companyId}`];
  if (filters.userId !== undefined) parts.push(sql`user_id = ${filters.userId}`);
  if (filters.transactionId !== undefined) parts.push(sql`transaction_id = ${filters.transactionId}`);
  if (filters.status !== undefined) parts.push(sql`status = ${filters.status}`);
  return sql.join(parts, sql` AND `);
}

const col = <T>(rows: T[], pick: (row: T) => string | number | boolean | null) => pgArray(rows.map(pick));

export const paystubsRepo = {
  async lockCompanyRuns(executor: Executor, companyId: number): Promise<void> {
    await executor.execute(sql`SELECT pg_advisory_xact_lock(${RUN_LOCK}, ${companyId})`);
  },

  async context(executor: Executor, companyId: number): Promise<PayrollContextRow | undefined> {
    const [row] = await queryRows<PayrollContextRow>(
      executor,
      sql`SELECT c.payment_frequency, c.sector, s.id AS settings_id FROM companies c LEFT JOIN contribution_settings s ON s.company_id = c.id WHERE c.id = ${companyId}`,
    );
    return row;
  },

  async runUsers(executor: Executor, companyId: number, userIds: number[]): Promise<PlanUser[]> {
    if (userIds.length === 0) return [];
    return queryRows<PlanUser>(
      executor,
      sql`SELECT id, user_type_id, payment_frequency, annual_rent_paid::text AS annual_rent_paid, life_assurance_premium::text AS life_assurance_premium,
                 nhf_opt_in, is_expatriate, pension_exempt, state_of_residence, pfa_code, rsa_pin, nhf_number,
                 exit_date::text AS exit_date
          FROM users WHERE company_id = ${companyId} AND deleted_at IS NULL AND id = ANY(${pgArray(userIds)}::int[])`,
    );
  },

  /** The users' state of residence over time (user_state_history_user_idx), for each paystub's PAYE state. */
  async stateHistory(executor: Executor, companyId: number, userIds: number[]): Promise<StateHistoryRow[]> {
    if (userIds.length === 0) return [];
    return queryRows<StateHistoryRow>(
      executor,
      sql`SELECT user_id, state, effective_from::text AS effective_from FROM user_state_history
          WHERE user_id = ANY(${pgArray(userIds)}::int[]) AND company_id = ${companyId}
          ORDER BY user_id, effective_from, id`,
    );
  },

  async activeCustoms(executor: Executor, companyId: number): Promise<PlanCustom[]> {
    return queryRows<PlanCustom>(
      executor,
      sql`SELECT cc.id, cc.name, cc.type, cc.apply_to, cc.employee_value::text AS employee_value, cc.employer_value::text AS employer_value,
                 cc.frequency, cc.tax_deductible,
                 array_remove(array_agg(t.user_type_id), NULL) AS target_user_type_ids,
                 array_remove(array_agg(t.user_id), NULL) AS target_user_ids
          FROM custom_contributions cc LEFT JOIN custom_contribution_targets t ON t.custom_contribution_id = cc.id
          WHERE cc.company_id = ${companyId} AND cc.is_active
          GROUP BY cc.id ORDER BY cc.id`,
    );
  },

  /** (custom contribution, user) pairs of one_time contributions already applied. */
  async applied(
    executor: Executor,
    customIds: number[],
    userIds: number[],
  ): Promise<{ custom_contribution_id: number; user_id: number }[]> {
    if (customIds.length === 0 || userIds.length === 0) return [];
    return queryRows(
      executor,
      sql`SELECT custom_contribution_id, user_id FROM custom_contribution_applications
          WHERE custom_contribution_id = ANY(${pgArray(customIds)}::int[]) AND user_id = ANY(${pgArray(userIds)}::int[])`,
    );
  },

  /** Existing paystubs among these (user, start, end) triples (a cancelled run's do not count). */
  async existing(
    executor: Executor,
    keys: { userId: number; start: string; end: string }[],
  ): Promise<{ user_id: number; pay_period_start: string; pay_period_end: string }[]> {
    if (keys.length === 0) return [];
    return queryRows(
      executor,
      sql`SELECT p.user_id, p.pay_period_start::text AS pay_period_start, p.pay_period_end::text AS pay_period_end
          FROM unnest(${col(keys, (k) => k.userId)}::int[], ${col(keys, (k) => k.start)}::date[], ${col(keys, (k) => k.end)}::date[]) AS k(user_id, s, e)
          JOIN paystubs p ON p.user_id = k.user_id AND p.pay_period_start = k.s AND p.pay_period_end = k.e AND p.status <> 'cancelled'
            AND NOT p.off_cycle`,
    );
  },

  /**
   * tax_method cumulative (and annualised's year-end true-up), ONE query per run: the year to date of
   * these users in this company, i.e. their paystubs (not cancelled, not failed: never paid) ending from January 1 of the earliest item's year up to the latest
   * item's end (the planner's ledger keeps, per item, those of its year ending on or before it).
   */
  async yearToDate(executor: Executor, companyId: number, userIds: number[], from: string, to: string): Promise<PlanYtdRow[]> {
    if (userIds.length === 0) return [];
    return queryRows<PlanYtdRow>(
      executor,
      // An item's taxable amount joins T: the year's pay for PAYE.
      sql`SELECT user_id, pay_period_end::text AS pay_period_end, (taxable_income + taxable_items)::text AS taxable_income,
                 tax_deductions::text AS tax_deductions, tax_withheld::text AS tax_withheld
          FROM paystubs
          WHERE user_id = ANY(${pgArray(userIds)}::int[]) AND company_id = ${companyId} AND status NOT IN ('cancelled', 'failed')
            AND pay_period_end >= ${from}::date AND pay_period_end <= ${to}::date
          ORDER BY user_id, pay_period_end, id`,
    );
  },

  /** Compensation for loss of office already paid to these users (not cancelled, not failed). */
  async lossOfOfficePaid(executor: Executor, companyId: number, userIds: number[]): Promise<{ user_id: number; paid: string }[]> {
    if (userIds.length === 0) return [];
    return queryRows(
      executor,
      sql`SELECT p.user_id, sum(i.amount)::text AS paid
          FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
          WHERE i.company_id = ${companyId} AND i.code = 'loss_of_office' AND p.user_id = ANY(${pgArray(userIds)}::int[])
            AND p.status NOT IN ('cancelled', 'failed')
          GROUP BY p.user_id`,
    );
  },

  /** One multi-row INSERT; a row whose (user, period) already exists is skipped, not an error. */
  async insertPaystubs(executor: Executor, companyId: number, transactionId: string, rows: NewPaystub[]): Promise<InsertedPaystub[]> {
    if (rows.length === 0) return [];
    return queryRows<InsertedPaystub>(
      executor,
      sql`INSERT INTO paystubs (company_id, transaction_id, status, user_id, pay_period_start, pay_period_end, taxable_income, reimbursements,
            other_allowances, gross_pay, net_pay, tax_withheld, pension_contribution, nhf_contribution, nhis_contribution, other_deductions,
            employer_pension_contribution, nhis_employer_contribution, employer_cost, tax_regime, tax_deductions,
            state_of_residence, pfa_code, rsa_pin, nhf_number, basic_pay, housing_pay, transport_pay,
            taxable_items, irregular_gross, nsitf_items, off_cycle, paye_state, tax_true_up)
          SELECT ${companyId}, ${transactionId}, 'unpaid', * FROM unnest(
            ${col(rows, (r) => r.userId)}::int[], ${col(rows, (r) => r.start)}::date[], ${col(rows, (r) => r.end)}::date[],
            ${col(rows, (r) => r.taxableIncome)}::numeric[], ${col(rows, (r) => r.reimbursements)}::numeric[], ${col(rows, (r) => r.otherAllowances)}::numeric[],
            ${col(rows, (r) => r.grossPay)}::numeric[], ${col(rows, (r) => r.netPay)}::numeric[], ${col(rows, (r) => r.taxWithheld)}::numeric[],
            ${col(rows, (r) => r.pension)}::numeric[], ${col(rows, (r) => r.nhf)}::numeric[], ${col(rows, (r) => r.nhis)}::numeric[],
            ${col(rows, (r) => r.otherDeductions)}::numeric[], ${col(rows, (r) => r.employerPension)}::numeric[],
            ${col(rows, (r) => r.nhisEmployer)}::numeric[], ${col(rows, (r) => r.employerCost)}::numeric[], ${col(rows, (r) => r.regime)}::text[],
            ${col(rows, (r) => r.taxDeductions)}::numeric[], ${col(rows, (r) => r.stateOfResidence)}::text[], ${col(rows, (r) => r.pfaCode)}::text[],
            ${col(rows, (r) => r.rsaPin)}::text[], ${col(rows, (r) => r.nhfNumber)}::text[], ${col(rows, (r) => r.basicPay)}::numeric[],
            ${col(rows, (r) => r.housingPay)}::numeric[], ${col(rows, (r) => r.transportPay)}::numeric[],
            ${col(rows, (r) => r.taxableItems)}::numeric[], ${col(rows, (r) => r.irregularGross)}::numeric[],
            ${col(rows, (r) => r.nsitfItems)}::numeric[], ${col(rows, (r) => r.offCycle)}::boolean[], ${col(rows, (r) => r.payeState)}::text[],
            ${col(rows, (r) => r.taxTrueUp)}::numeric[])
          ON CONFLICT (user_id, pay_period_start, pay_period_end) WHERE status <> 'cancelled' AND NOT off_cycle DO NOTHING
          RETURNING id, user_id, pay_period_start::text AS pay_period_start, pay_period_end::text AS pay_period_end, created_at, updated_at`,
    );
  },

  async insertRecords(
    executor: Executor,
    companyId: number,
    rows: NewRecord[],
  ): Promise<(InsertedRow & { contribution_id: number; custom_contribution_id: number })[]> {
    if (rows.length === 0) return [];
    return queryRows(
      executor,
      sql`INSERT INTO custom_contribution_records (company_id, contribution_id, custom_contribution_id, user_id, name, employee_contribution, employer_contribution, tax_deductible)
          SELECT ${companyId}, * FROM unnest(
            ${col(rows, (r) => r.contributionId)}::int[], ${col(rows, (r) => r.customContributionId)}::int[], ${col(rows, (r) => r.userId)}::int[],
            ${col(rows, (r) => r.name)}::text[], ${col(rows, (r) => r.employee)}::numeric[], ${col(rows, (r) => r.employer)}::numeric[],
            ${col(rows, (r) => r.taxDeductible)}::boolean[])
          RETURNING id, contribution_id, custom_contribution_id, created_at, updated_at`,
    );
  },

  /** The items of just-written paystubs, in one statement. */
  async insertItems(executor: Executor, companyId: number, rows: (NewPaystubItem & { paystubId: number })[]): Promise<void> {
    if (rows.length === 0) return;
    await executor.execute(
      sql`INSERT INTO paystub_items (company_id, paystub_id, position, code, name, treatment, amount, taxable_amount, taxable, pensionable,
            nhf_base, nsitf_base, regular, cash, description, origin_period, loan_id, loan_interest)
          SELECT ${companyId}, * FROM unnest(
            ${col(rows, (r) => r.paystubId)}::int[], ${col(rows, (r) => r.position)}::smallint[], ${col(rows, (r) => r.code)}::text[],
            ${col(rows, (r) => r.name)}::text[], ${col(rows, (r) => r.treatment)}::text[], ${col(rows, (r) => r.amount)}::numeric[],
            ${col(rows, (r) => r.taxableAmount)}::numeric[], ${col(rows, (r) => r.taxable)}::boolean[], ${col(rows, (r) => r.pensionable)}::boolean[],
            ${col(rows, (r) => r.nhfBase)}::boolean[], ${col(rows, (r) => r.nsitfBase)}::boolean[], ${col(rows, (r) => r.regular)}::boolean[],
            ${col(rows, (r) => r.cash)}::boolean[], ${col(rows, (r) => r.description)}::text[], ${col(rows, (r) => r.originPeriod)}::text[],
            ${col(rows, (r) => r.loanId ?? null)}::int[], ${col(rows, (r) => r.loanInterest ?? null)}::numeric[])`,
    );
  },

  async insertApplications(executor: Executor, rows: { customContributionId: number; userId: number; paystubId: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await executor.execute(
      sql`INSERT INTO custom_contribution_applications (custom_contribution_id, user_id, paystub_id)
          SELECT * FROM unnest(${col(rows, (r) => r.customContributionId)}::int[], ${col(rows, (r) => r.userId)}::int[], ${col(rows, (r) => r.paystubId)}::int[])
          ON CONFLICT DO NOTHING`,
    );
  },

  /**
   * Unfiltered, the company's counter (0141_paystub_counts.sql: one primary-key read however many
   * runs the company has paid); a filter counts its matches on the index that serves it. P1 reads
   * this only for an empty page (paystubs.read.repo.ts: a page carries its total).
   */
  async count(executor: Executor, companyId: number, filters: PaystubFilters): Promise<number> {
    const unfiltered = filters.userId === undefined && filters.transactionId === undefined && filters.status === undefined;
    const [row] = await queryRows<{ total: number }>(
      executor,
      unfiltered
        ? sql`SELECT COALESCE((SELECT paystubs FROM paystub_counts WHERE company_id = ${companyId}), 0) AS total`
        : sql`SELECT count(*)::int AS total FROM paystubs WHERE ${paystubsWhere(companyId, filters)}`,
    );
    return row.total;
  },

  /** Paystubs (= contribution records) of a company, or of one employee in it (S4, S5), oldest first. */
  /**
   * S4/S5: one page of contribution records (paystubs) in id order; `limit` bounds the work and
   * paystubs_company_idx (company_id, id) serves it, paystubs_user_period_key the user's.
   */
  async contributions(
    executor: Executor,
    companyId: number,
    page: { limit: number; offset: number },
    employeeId?: number,
  ): Promise<PaystubRow[]> {
    return queryRows<PaystubRow>(
      executor,
      sql`SELECT ${PAYSTUB_COLUMNS} FROM paystubs WHERE company_id = ${companyId}
          ${employeeId === undefined ? sql`` : sql`AND user_id = ${employeeId}`} ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`,
    );
  },

  async userExists(executor: Executor, companyId: number, userId: number): Promise<boolean> {
    const rows = await queryRows(
      executor,
      sql`SELECT 1 FROM users WHERE company_id = ${companyId} AND id = ${userId} AND deleted_at IS NULL`,
    );
    return rows.length > 0;
  },

  /** Payroll runs of a company, newest first (web console). */
  async runs(executor: Executor, companyId: number, limit: number, offset: number) {
    return queryRows<{
      transaction_id: string;
      paystubs: number;
      gross_pay: string;
      net_pay: string;
      tax_withheld: string;
      created_at: Date | string;
    }>(
      executor,
      sql`SELECT transaction_id, count(*)::int AS paystubs, sum(gross_pay)::text AS gross_pay, sum(net_pay)::text AS net_pay,
                 sum(tax_withheld)::text AS tax_withheld, min(created_at) AS created_at
          FROM paystubs WHERE company_id = ${companyId} GROUP BY transaction_id ORDER BY max(id) DESC LIMIT ${limit} OFFSET ${offset}`,
    );
  },
};
