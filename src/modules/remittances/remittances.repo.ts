// All SQL of remittances and annual returns. A schedule covers the company's paid paystubs of runs
// whose payment_date falls in the range (payroll_runs_company_payment_date_idx, then the paystubs
// through paystubs_company_transaction_idx), and of runs without a payment_date (P2) whose own
// paid_at falls in it, in Nigerian time (paystubs_company_paid_at_idx). Sums are numeric (exact) and
// come back as text.
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client.js';

/** The paystub columns the schedules read; `paye_state` falls back to the snapshot (a paystub without one). */
const COLUMNS = sql.raw(`p.id, p.user_id, COALESCE(p.paye_state, p.state_of_residence) AS paye_state, p.pfa_code, p.rsa_pin, p.nhf_number,
  p.gross_pay, p.taxable_income, p.tax_withheld, p.pension_contribution, p.employer_pension_contribution, p.nhf_contribution,
  p.nhis_contribution, p.other_deductions, p.other_allowances, p.basic_pay, p.housing_pay, p.transport_pay, p.taxable_items, p.nsitf_items`);
/** Midnight in Nigeria (WAT, UTC+1, no daylight saving) starting a YYYY-MM-DD day, as an instant. */
const lagosMidnight = (day: string) => sql`((${day}::timestamp - interval '1 hour') AT TIME ZONE 'UTC')`;

/**
 * A run counts once it paid someone: `paid`, or `partially_paid` for the paystubs it did pay.
 * `p.paid_on` is the payment date a paystub is filed under: its run's payment_date, or for a run
 * without one (P2) the day its own paid_at falls on in Nigeria (the payslip's payment date too).
 * `v.voluntary`: the paystub's voluntary pension, its custom contributions that were tax-deductible
 * when it was computed (0170_voluntary_pension.sql), employee and employer parts.
 */
const PAID = (companyId: number, from: string, to: string, users = sql`JOIN users u ON u.id = p.user_id`) => sql`
  FROM (
    SELECT ${COLUMNS}, r.payment_date AS paid_on
      FROM payroll_runs r JOIN paystubs p ON p.company_id = r.company_id AND p.transaction_id = r.id
     WHERE r.company_id = ${companyId} AND r.payment_date >= ${from}::date AND r.payment_date < ${to}::date
       AND r.status IN ('paid', 'partially_paid') AND p.status = 'paid'
    UNION ALL
    SELECT ${COLUMNS}, ((p.paid_at AT TIME ZONE 'UTC') + interval '1 hour')::date AS paid_on
      FROM paystubs p JOIN payroll_runs r ON r.company_id = p.company_id AND r.id = p.transaction_id
     WHERE p.company_id = ${companyId} AND p.paid_at >= ${lagosMidnight(from)} AND p.paid_at < ${lagosMidnight(to)}
       AND r.payment_date IS NULL AND r.status IN ('paid', 'partially_paid') AND p.status = 'paid'
  ) p
  LEFT JOIN LATERAL (
    SELECT COALESCE(sum(cr.employee_contribution + cr.employer_contribution), 0) AS voluntary
    FROM custom_contribution_records cr WHERE cr.contribution_id = p.id AND cr.tax_deductible
  ) v ON true
  ${users}
  WHERE true`;

const PENSION = sql`(p.pension_contribution + p.employer_pension_contribution + v.voluntary) > 0`;
const PENSION_TOTAL = sql`(p.pension_contribution + p.employer_pension_contribution + v.voluntary)`;
/**
 * A schedule lists a paystub only when its identifiers are present (docs/compliance.md,
 * "Remittances": state for PAYE, PFA and RSA PIN for pension, NHF number for NHF); the rest is in
 * `missing` with its amounts. FILED_PFA is the pension grouping: the PFA of a paystub that files.
 */
const FILED_PFA = sql`(CASE WHEN p.rsa_pin IS NOT NULL THEN p.pfa_code END)`;
const NHF_FILED = sql`(p.nhf_contribution > 0 AND p.nhf_number IS NOT NULL)`;
const NHF_MISSING = sql`(p.nhf_contribution > 0 AND p.nhf_number IS NULL)`;
const PENSION_MISSING = sql`(${PENSION} AND (p.pfa_code IS NULL OR p.rsa_pin IS NULL))`;
const BHT = sql`(COALESCE(p.basic_pay, 0) + COALESCE(p.housing_pay, 0) + COALESCE(p.transport_pay, 0))`;
/**
 * NSITF's gross base: salary and allowances plus the pay items flagged for NSITF (docs/payroll.md,
 * "Pay items": a bonus or overtime is not in it). Before pay items this is gross pay.
 */
const NSITF_GROSS = sql`(p.taxable_income + p.other_allowances + p.nsitf_items)`;

export interface EmployerRow {
  name: string;
  sector: string;
  tax_ids: Record<string, string>;
  pencom_employer_code: string | null;
  nhf_employer_number: string | null;
  nsitf_number: string | null;
  itf_number: string | null;
  nsitf_base: string;
}

/** One grouping of the month: `kind` paye (key = state), pension (key = PFA) or all (key null). */
export interface AggregateRow {
  kind: 'paye' | 'pension' | 'all';
  key: string | null;
  employees: number;
  tax: string;
  pension_employees: number;
  employee_pension: string;
  employer_pension: string;
  voluntary: string;
  first_payment: string | null;
  nhf_employees: number;
  nhf: string;
  first_nhf_payment: string | null;
  gross: string;
  /** NSITF's gross base: salary, allowances and NSITF-flagged items. */
  nsitf_gross: string;
  bht: string;
  /** On the `all` row: what the month owes that no schedule files for want of an identifier. */
  paye_missing: string | null;
  pension_missing: string | null;
  nhf_missing: string | null;
}

export interface MissingRow {
  user_id: number;
  employee_id: string;
  first_name: string;
  last_name: string;
  no_state: boolean;
  no_pfa: boolean;
  no_rsa_pin: boolean;
  no_nhf_number: boolean;
  no_split: boolean;
  /** What the employee's paystubs owe that no schedule can file (numeric text, 0 when none). */
  paye_amount: string;
  pension_amount: string;
  nhf_amount: string;
}

/** One employee's line of a schedule (their paystubs of the range summed). */
export interface EmployeeRow {
  user_id: number;
  employee_id: string;
  first_name: string;
  last_name: string;
  nin: string | null;
  tax_id: string | null;
  rsa_pin: string | null;
  nhf_number: string | null;
  gross: string;
  nsitf_gross: string;
  taxable: string;
  tax: string;
  employee_pension: string;
  employer_pension: string;
  voluntary: string;
  nhf: string;
  nhis: string;
  other_deductions: string;
  other_allowances: string;
  basic: string;
  housing: string;
  transport: string;
  bht: string;
  payment_date: string;
  first_payment: string;
  months: number;
  /** The employee's last day of employment when it falls before the range's end (docs/compliance.md, "Leavers in schedules"), else null. */
  exit_date: string | null;
  /** The user's declared annual rent and life assurance premium (the annual return's reliefs), null when none. */
  annual_rent_paid: string | null;
  life_assurance_premium: string | null;
}

export type ScheduleFilter = { kind: 'paye'; state: string } | { kind: 'pension'; pfaCode: string } | { kind: 'nhf' } | { kind: 'nsitf' };

function filterSql(filter: ScheduleFilter): SQL {
  switch (filter.kind) {
    case 'paye':
      return sql`AND p.paye_state = ${filter.state}`;
    case 'pension':
      return sql`AND p.pfa_code = ${filter.pfaCode} AND p.rsa_pin IS NOT NULL AND ${PENSION}`;
    case 'nhf':
      return sql`AND ${NHF_FILED}`;
    case 'nsitf':
      return sql``;
  }
}

export const remittancesRepo = {
  async employer(executor: Executor, companyId: number): Promise<EmployerRow | undefined> {
    const [row] = await queryRows<EmployerRow>(
      executor,
      sql`SELECT c.name, c.sector, c.tax_ids, c.pencom_employer_code, c.nhf_employer_number, c.nsitf_number, c.itf_number,
                 COALESCE(s.nsitf_base, 'gross') AS nsitf_base
          FROM companies c LEFT JOIN contribution_settings s ON s.company_id = c.id WHERE c.id = ${companyId}`,
    );
    return row;
  },

  /** Every figure of the month's schedules in one statement: by state, by PFA, and the whole month. */
  async aggregates(executor: Executor, companyId: number, from: string, to: string): Promise<AggregateRow[]> {
    return queryRows<AggregateRow>(
      executor,
      sql`SELECT CASE WHEN GROUPING(p.paye_state) = 0 THEN 'paye' WHEN GROUPING(${FILED_PFA}) = 0 THEN 'pension' ELSE 'all' END AS kind,
                 COALESCE(p.paye_state, ${FILED_PFA}) AS key,
                 count(DISTINCT p.user_id)::int AS employees,
                 sum(p.tax_withheld)::text AS tax,
                 count(DISTINCT p.user_id) FILTER (WHERE ${PENSION})::int AS pension_employees,
                 sum(p.pension_contribution)::text AS employee_pension,
                 sum(p.employer_pension_contribution)::text AS employer_pension,
                 sum(v.voluntary)::text AS voluntary,
                 min(p.paid_on) FILTER (WHERE ${PENSION})::text AS first_payment,
                 count(DISTINCT p.user_id) FILTER (WHERE ${NHF_FILED})::int AS nhf_employees,
                 sum(p.nhf_contribution) FILTER (WHERE ${NHF_FILED})::text AS nhf,
                 min(p.paid_on) FILTER (WHERE ${NHF_FILED})::text AS first_nhf_payment,
                 sum(p.tax_withheld) FILTER (WHERE p.paye_state IS NULL)::text AS paye_missing,
                 sum(${PENSION_TOTAL}) FILTER (WHERE ${PENSION_MISSING})::text AS pension_missing,
                 sum(p.nhf_contribution) FILTER (WHERE ${NHF_MISSING})::text AS nhf_missing,
                 sum(p.gross_pay)::text AS gross,
                 sum(${NSITF_GROSS})::text AS nsitf_gross,
                 sum(${BHT})::text AS bht
          ${PAID(companyId, from, to, sql``)}
          GROUP BY GROUPING SETS ((p.paye_state), (${FILED_PFA}), ())`,
    );
  },

  /** Employees whose snapshot lacks what a schedule needs (each flag says which). */
  async missing(executor: Executor, companyId: number, from: string, to: string): Promise<MissingRow[]> {
    return queryRows<MissingRow>(
      executor,
      sql`SELECT u.id AS user_id, u.employee_id, u.first_name, u.last_name,
                 bool_or(p.paye_state IS NULL) AS no_state,
                 bool_or(${PENSION} AND p.pfa_code IS NULL) AS no_pfa,
                 bool_or(${PENSION} AND p.rsa_pin IS NULL) AS no_rsa_pin,
                 bool_or(p.nhf_contribution > 0 AND p.nhf_number IS NULL) AS no_nhf_number,
                 bool_or(p.basic_pay IS NULL) AS no_split,
                 COALESCE(sum(p.tax_withheld) FILTER (WHERE p.paye_state IS NULL), 0)::text AS paye_amount,
                 COALESCE(sum(${PENSION_TOTAL}) FILTER (WHERE ${PENSION_MISSING}), 0)::text AS pension_amount,
                 COALESCE(sum(p.nhf_contribution) FILTER (WHERE ${NHF_MISSING}), 0)::text AS nhf_amount
          ${PAID(companyId, from, to)}
          AND (p.paye_state IS NULL OR (${PENSION} AND (p.pfa_code IS NULL OR p.rsa_pin IS NULL))
               OR (p.nhf_contribution > 0 AND p.nhf_number IS NULL) OR p.basic_pay IS NULL)
          GROUP BY u.id ORDER BY u.last_name COLLATE "C", u.first_name COLLATE "C", u.id`,
    );
  },

  /** One line per employee of a schedule (or of the annual return: `filter` paye over a year). */
  async employees(executor: Executor, companyId: number, from: string, to: string, filter: ScheduleFilter): Promise<EmployeeRow[]> {
    return queryRows<EmployeeRow>(
      executor,
      sql`SELECT u.id AS user_id, u.employee_id, u.first_name, u.last_name, u.nin, u.tax_id,
                 u.annual_rent_paid::text AS annual_rent_paid, u.life_assurance_premium::text AS life_assurance_premium,
                 max(p.rsa_pin) AS rsa_pin, max(p.nhf_number) AS nhf_number,
                 sum(p.gross_pay)::text AS gross, sum(${NSITF_GROSS})::text AS nsitf_gross,
                 sum(p.taxable_income + p.taxable_items)::text AS taxable, sum(p.tax_withheld)::text AS tax,
                 sum(p.pension_contribution)::text AS employee_pension, sum(p.employer_pension_contribution)::text AS employer_pension,
                 sum(v.voluntary)::text AS voluntary, sum(p.nhf_contribution)::text AS nhf, sum(p.nhis_contribution)::text AS nhis,
                 sum(p.other_deductions)::text AS other_deductions, sum(p.other_allowances)::text AS other_allowances,
                 sum(COALESCE(p.basic_pay, 0))::text AS basic, sum(COALESCE(p.housing_pay, 0))::text AS housing,
                 sum(COALESCE(p.transport_pay, 0))::text AS transport, sum(${BHT})::text AS bht,
                 max(p.paid_on)::text AS payment_date, min(p.paid_on)::text AS first_payment,
                 count(DISTINCT date_trunc('month', p.paid_on))::int AS months,
                 CASE WHEN u.exit_date < ${to}::date THEN u.exit_date::text END AS exit_date
          ${PAID(companyId, from, to)} ${filterSql(filter)}
          GROUP BY u.id ORDER BY u.last_name COLLATE "C", u.first_name COLLATE "C", u.id`,
    );
  },

  /** ITF: distinct employees paid and the gross pay of the range. */
  async payroll(executor: Executor, companyId: number, from: string, to: string): Promise<{ employees: number; gross: string }> {
    const [row] = await queryRows<{ employees: number; gross: string }>(
      executor,
      sql`SELECT count(DISTINCT p.user_id)::int AS employees, COALESCE(sum(p.gross_pay), 0)::text AS gross ${PAID(companyId, from, to, sql``)}`,
    );
    return row;
  },
};
