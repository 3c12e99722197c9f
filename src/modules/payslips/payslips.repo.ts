// All SQL of payslips: a paystub with what its payslip shows (employee, company, run), a run's
// paystubs in keyset pages, their custom contribution records and their year to date.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';
import { pgArray } from '../../db/pg-array.js';
import { LOAN_BALANCE_AFTER } from '../paystubs/index.js';

export interface PayslipRow {
  id: number;
  company_id: number;
  user_id: number;
  pay_period_start: string;
  pay_period_end: string;
  status: string;
  transaction_id: string;
  paid_on: string | null;
  tax_regime: string;
  /** The state whose PAYE authority the paystub used (0203; the snapshot's state before it). */
  paye_state: string | null;
  taxable_income: string;
  basic_pay: string | null;
  housing_pay: string | null;
  transport_pay: string | null;
  other_allowances: string;
  reimbursements: string;
  gross_pay: string;
  tax_withheld: string;
  tax_true_up: string;
  pension_contribution: string;
  nhf_contribution: string;
  nhis_contribution: string;
  net_pay: string;
  employer_pension_contribution: string;
  nhis_employer_contribution: string;
  employer_cost: string;
  first_name: string;
  last_name: string;
  employee_id: string;
  title: string | null;
  department: string | null;
  bank_name: string | null;
  account_number: string | null;
  company_name: string;
  company_address: string | null;
  payment_date: string | null;
}

export interface RecordRow {
  paystub_id: number;
  name: string;
  employee: string;
  employer: string;
}

/** A pay item on a paystub (docs/payroll.md, "Pay items"), in its position order. */
export interface ItemRow {
  paystub_id: number;
  code: string;
  name: string;
  treatment: string;
  cash: boolean;
  amount: string;
  description: string | null;
  /** A loan repayment's loan, and its balance once this paystub repays it (null: not a repayment). */
  loan_id: number | null;
  loan_balance_after: string | null;
}

export interface YtdRow {
  paystub_id: number;
  paystubs: number;
  gross: string;
  tax: string;
  pension: string;
  net: string;
  /** Opening year-to-date of the paystub's year (docs/payroll.md, "Opening year-to-date"); null when none. */
  opening_gross: string | null;
  opening_tax: string | null;
  opening_pension: string | null;
}

/**
 * The paystub's company, employee and run; the paid date as the calendar date in Nigeria (WAT: UTC+1,
 * no DST, no zone data needed). The employee and the bank account are as approval pinned them
 * (docs/payroll-runs.md, "Payment destinations"): a paid paystub shows where it was paid, not
 * where the employee's account is now. Before approval (a draft) they are the current ones.
 */
const SELECT = sql`SELECT p.id, p.company_id, p.user_id, p.pay_period_start::text AS pay_period_start, p.pay_period_end::text AS pay_period_end,
    p.status, p.transaction_id, to_char((p.paid_at AT TIME ZONE 'UTC') + interval '1 hour', 'YYYY-MM-DD') AS paid_on, p.tax_regime,
    COALESCE(p.paye_state, p.state_of_residence) AS paye_state,
    p.taxable_income::text AS taxable_income, p.basic_pay::text AS basic_pay, p.housing_pay::text AS housing_pay,
    p.transport_pay::text AS transport_pay, p.other_allowances::text AS other_allowances, p.reimbursements::text AS reimbursements,
    p.gross_pay::text AS gross_pay, p.tax_withheld::text AS tax_withheld, p.tax_true_up::text AS tax_true_up, p.pension_contribution::text AS pension_contribution,
    p.nhf_contribution::text AS nhf_contribution, p.nhis_contribution::text AS nhis_contribution, p.net_pay::text AS net_pay,
    p.employer_pension_contribution::text AS employer_pension_contribution, p.nhis_employer_contribution::text AS nhis_employer_contribution,
    p.employer_cost::text AS employer_cost,
    COALESCE(p.employee_snapshot->>'first_name', u.first_name) AS first_name, COALESCE(p.employee_snapshot->>'last_name', u.last_name) AS last_name,
    COALESCE(p.employee_snapshot->>'employee_id', u.employee_id) AS employee_id,
    CASE WHEN p.employee_snapshot IS NULL THEN u.title ELSE p.employee_snapshot->>'title' END AS title,
    CASE WHEN p.employee_snapshot IS NULL THEN u.department ELSE p.employee_snapshot->>'department' END AS department,
    CASE WHEN p.destination_pinned_at IS NULL THEN u.bank_name ELSE p.destination_bank_name END AS bank_name,
    CASE WHEN p.destination_pinned_at IS NULL THEN u.account_number ELSE p.destination_account_number END AS account_number,
    c.name AS company_name, c.address AS company_address, r.payment_date::text AS payment_date
  FROM paystubs p
  JOIN users u ON u.id = p.user_id
  JOIN companies c ON c.id = p.company_id
  LEFT JOIN payroll_runs r ON r.id = p.transaction_id AND r.company_id = p.company_id`;

const rows = (db: Executor, where: SQL) => queryRows<PayslipRow>(db, sql`${SELECT} ${where}`);

export const payslipsRepo = {
  async paystub(db: Executor, companyId: number, id: number): Promise<PayslipRow | undefined> {
    return (await rows(db, sql`WHERE p.company_id = ${companyId} AND p.id = ${id}`))[0];
  },

  /** A signed link names the paystub alone: its signature is the authority, not a company. */
  async paystubById(db: Executor, id: number): Promise<PayslipRow | undefined> {
    return (await rows(db, sql`WHERE p.id = ${id}`))[0];
  },

  async runExists(db: Executor, companyId: number, runId: string): Promise<boolean> {
    const found = await queryRows<{ id: string }>(db, sql`SELECT id FROM payroll_runs WHERE company_id = ${companyId} AND id = ${runId}`);
    return found.length > 0;
  },

  /** The run's paystubs that get a payslip (every status but cancelled) after `afterId`, by id: keyset paging. */
  async runPage(db: Executor, companyId: number, runId: string, afterId: number, limit: number): Promise<PayslipRow[]> {
    return rows(
      db,
      sql`WHERE p.company_id = ${companyId} AND p.transaction_id = ${runId} AND p.status <> 'cancelled' AND p.id > ${afterId}
          ORDER BY p.id LIMIT ${limit}`,
    );
  },

  async records(db: Executor, companyId: number, paystubIds: number[]): Promise<RecordRow[]> {
    if (paystubIds.length === 0) return [];
    return queryRows<RecordRow>(
      db,
      sql`SELECT contribution_id AS paystub_id, name, employee_contribution::text AS employee, employer_contribution::text AS employer
          FROM custom_contribution_records
          WHERE company_id = ${companyId} AND contribution_id = ANY(${pgArray(paystubIds)}::int[]) ORDER BY contribution_id, id`,
    );
  },

  async items(db: Executor, companyId: number, paystubIds: number[]): Promise<ItemRow[]> {
    if (paystubIds.length === 0) return [];
    return queryRows<ItemRow>(
      db,
      sql`SELECT i.paystub_id, i.code, i.name, i.treatment, i.cash, i.amount::text AS amount, i.description, i.loan_id,
                 ${LOAN_BALANCE_AFTER} AS loan_balance_after
          FROM paystub_items i JOIN paystubs p ON p.id = i.paystub_id
          WHERE i.company_id = ${companyId} AND i.paystub_id = ANY(${pgArray(paystubIds)}::int[]) ORDER BY i.paystub_id, i.position`,
    );
  },

  /**
   * The year to date of each paystub: the sums over the same employee's paystubs of the same company
   * whose period ends in the same calendar year, on or before this one's, that are neither cancelled
   * nor failed (never paid), and always this paystub itself (docs/compliance.md, "Payslips"); beside
   * them the user's opening figures of that year, if any (one row per user and year: max picks it).
   */
  async ytd(db: Executor, companyId: number, paystubIds: number[]): Promise<YtdRow[]> {
    if (paystubIds.length === 0) return [];
    return queryRows<YtdRow>(
      db,
      sql`SELECT p.id AS paystub_id, count(*)::int AS paystubs, sum(q.gross_pay)::text AS gross, sum(q.tax_withheld)::text AS tax,
                 sum(q.pension_contribution)::text AS pension, sum(q.net_pay)::text AS net,
                 max(o.gross_pay)::text AS opening_gross, max(o.tax_withheld)::text AS opening_tax,
                 max(o.employee_pension)::text AS opening_pension
          FROM paystubs p
          JOIN paystubs q ON q.user_id = p.user_id AND q.company_id = p.company_id
            AND q.pay_period_end >= date_trunc('year', p.pay_period_end)::date AND q.pay_period_end <= p.pay_period_end
            AND (q.id = p.id OR q.status NOT IN ('cancelled', 'failed'))
          LEFT JOIN user_opening_ytd o ON o.user_id = p.user_id AND o.company_id = p.company_id
            AND o.year = extract(year FROM p.pay_period_end)::int
          WHERE p.company_id = ${companyId} AND p.id = ANY(${pgArray(paystubIds)}::int[])
          GROUP BY p.id`,
    );
  },
};
