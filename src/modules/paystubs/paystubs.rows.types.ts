// The rows paystubs.repo.ts reads with raw SQL (numerics as decimal text, dates as `YYYY-MM-DD`),
// shared by the writer and the serializer.

export interface PaystubRow {
  id: number;
  company_id: number;
  user_id: number;
  pay_period_start: string;
  pay_period_end: string;
  taxable_income: string;
  reimbursements: string;
  other_allowances: string;
  gross_pay: string;
  net_pay: string;
  tax_withheld: string;
  pension_contribution: string;
  nhf_contribution: string;
  nhis_contribution: string;
  other_deductions: string;
  employer_pension_contribution: string;
  nhis_employer_contribution: string;
  employer_cost: string;
  tax_regime: string;
  /** Pay items (migration 0200): their taxable part, the irregular part of gross, an off-cycle paystub. */
  taxable_items: string;
  irregular_gross: string;
  /** 0211: the year-end true-up included in tax_withheld (negative: a refund). */
  tax_true_up: string;
  off_cycle: boolean;
  status: string;
  transaction_id: string;
  paid_at: Date | string | null;
  payment_reference: string | null;
  failure_reason: string | null;
  /** 0186: why the paystub is held, and the destination pinned at approval (null until then). */
  hold_reason: string | null;
  destination_pinned_at: Date | string | null;
  destination_bank_code: string | null;
  destination_bank_name: string | null;
  /** The last 4 digits only: the full number never leaves the server (docs/payroll-runs.md). */
  destination_account_last4: string | null;
  destination_account_name: string | null;
  /** 0203: the state whose revenue service the PAYE went to (null: unknown, in the remittances' missing list). */
  paye_state: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A paystub's item as read with a page of paystubs (position order). */
export interface PaystubItemRow {
  paystub_id: number;
  code: string;
  name: string;
  treatment: string;
  amount: string;
  taxable_amount: string;
  taxable: boolean;
  pensionable: boolean;
  regular: boolean;
  cash: boolean;
  description: string | null;
  origin_period: string | null;
  /** A loan repayment: its loan and the balance once this paystub repays it (docs/payroll.md, "Loans and salary advances"). */
  loan_id: number | null;
  loan_balance_after: string | null;
}

/** What a batch INSERT returns: only what the database decided (the rest is known already). */
export interface InsertedRow {
  id: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface InsertedPaystub extends InsertedRow {
  user_id: number;
  pay_period_start: string;
  pay_period_end: string;
}

export interface RecordRow {
  id: number;
  contribution_id: number;
  custom_contribution_id: number | null;
  user_id: number;
  name: string;
  employee_contribution: string;
  employer_contribution: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The `user` embedded in P1 items. */
export interface EmbeddedUserRow {
  id: number;
  employee_id: string;
  first_name: string;
  last_name: string;
  email: string;
  personal_email: string;
  unique_id: string;
  user_types: string | null;
  title: string | null;
  department: string | null;
  level: string | null;
  office_location: string | null;
  payment_frequency: string | null;
  is_active: boolean;
  company_id: number;
  deleted_at: Date | string | null;
}
