// Wire shapes of paystubs, contribution records and custom contribution records. Amounts are JSON
// numbers with two places (docs/reference.md, "Common rules"): PostgreSQL numeric text → the double
// that prints as it.

import { isoTimestamp } from '../../platform/format.js';
import { columnToKobo, koboToString, columnToNumber as num } from '../../tax-engine/money.js';

const subtractMoney = (a: string, b: string) => (b === '0' || b === '0.00' ? a : koboToString(columnToKobo(a) - columnToKobo(b)));

import type { EmbeddedUserRow, PaystubItemRow, PaystubRow, RecordRow } from './paystubs.rows.types.js';

// Every row of one batch INSERT shares now(): remember the last conversion instead of redoing it
// for each of the thousands of rows of a run.
let lastValue: Date | string | undefined;
let lastText = '';
function ts(value: Date | string): string {
  if (value instanceof Date ? lastValue instanceof Date && lastValue.getTime() === value.getTime() : value === lastValue) return lastText;
  lastValue = value;
  lastText = isoTimestamp(value);
  return lastText;
}

export function serializeItem(row: PaystubItemRow) {
  return {
    type: row.code,
    name: row.name,
    amount: num(row.amount),
    taxable_amount: num(row.taxable_amount),
    taxable: row.taxable,
    pensionable: row.pensionable,
    regular: row.regular,
    cash: row.cash,
    treatment: row.treatment,
    description: row.description,
    origin_period: row.origin_period,
    loan_id: row.loan_id,
    loan_balance_after: row.loan_balance_after === null ? null : num(row.loan_balance_after),
  };
}

const EMPTY: readonly PaystubItemRow[] = [];

export function serializePaystub(row: PaystubRow, items: readonly PaystubItemRow[] = EMPTY) {
  return {
    id: row.id,
    user_id: row.user_id,
    company_id: row.company_id,
    pay_period_start: row.pay_period_start,
    pay_period_end: row.pay_period_end,
    taxable_income: num(row.taxable_income),
    reimbursements: num(row.reimbursements),
    other_allowances: num(row.other_allowances),
    gross_pay: num(row.gross_pay),
    net_pay: num(row.net_pay),
    tax_withheld: num(row.tax_withheld),
    tax_true_up: num(row.tax_true_up),
    pension_contribution: num(row.pension_contribution),
    nhf_contribution: num(row.nhf_contribution),
    nhis_contribution: num(row.nhis_contribution),
    other_deductions: num(row.other_deductions),
    paye_state: row.paye_state,
    regular_gross: num(subtractMoney(row.gross_pay, row.irregular_gross)),
    irregular_gross: num(row.irregular_gross),
    off_cycle: row.off_cycle,
    items: items.map(serializeItem),
    status: row.status,
    transaction_id: row.transaction_id,
    paid_at: isoTimestamp(row.paid_at),
    payment_reference: row.payment_reference,
    failure_reason: row.failure_reason,
    hold_reason: row.hold_reason,
    payment_destination: paymentDestination(row),
    created_at: ts(row.created_at),
    updated_at: ts(row.updated_at),
  };
}

/** Where approval said the net pay goes (docs/payroll-runs.md, "Payment destinations"); null before approval. */
function paymentDestination(row: PaystubRow) {
  if (row.destination_pinned_at === null) return null;
  return {
    bank_code: row.destination_bank_code,
    bank_name: row.destination_bank_name,
    account_last4: row.destination_account_last4,
    account_name: row.destination_account_name,
  };
}

export function serializeRecord(row: RecordRow) {
  return {
    id: row.id,
    contribution_id: row.contribution_id,
    custom_contribution_id: row.custom_contribution_id,
    user_id: row.user_id,
    name: row.name,
    employee_contribution: num(row.employee_contribution),
    employer_contribution: num(row.employer_contribution),
    created_at: ts(row.created_at),
    updated_at: ts(row.updated_at),
  };
}

/** The statutory figures of one paystub (S4/S5 encode these as the `contribution_details` string). */
export function statutoryFigures(row: PaystubRow) {
  return {
    employee_pension_contribution: num(row.pension_contribution),
    employer_pension_contribution: num(row.employer_pension_contribution),
    nhf_contribution: num(row.nhf_contribution),
    pit_contribution: num(row.tax_withheld),
    nhis_employee_contribution: num(row.nhis_contribution),
    nhis_employer_contribution: num(row.nhis_employer_contribution),
    employer_cost: num(row.employer_cost),
    tax_regime: row.tax_regime,
  };
}

/** The paystub's contribution record: one-to-one with the paystub, so it shares its id. */
export function serializeContribution(row: PaystubRow, records: RecordRow[]) {
  return {
    id: row.id,
    paystub_id: row.id,
    employee_id: row.user_id,
    company_id: row.company_id,
    pay_period_start: row.pay_period_start,
    pay_period_end: row.pay_period_end,
    ...statutoryFigures(row),
    custom_contribution_records: records.map(serializeRecord),
    created_at: ts(row.created_at),
    updated_at: ts(row.updated_at),
  };
}

/** S4/S5 row: employee_id (the user's id), contribution_details (JSON string), records. */
export function serializeContributionDetails(row: PaystubRow, records: RecordRow[]) {
  return {
    id: row.id,
    paystub_id: row.id,
    employee_id: row.user_id,
    pay_period_start: row.pay_period_start,
    pay_period_end: row.pay_period_end,
    contribution_details: JSON.stringify(statutoryFigures(row)),
    custom_contribution_records: records.map(serializeRecord),
    created_at: ts(row.created_at),
  };
}

/** The `user` embedded in P1 items: identity and employment fields, never secrets. */
export function serializeEmbeddedUser(row: EmbeddedUserRow) {
  return { ...row, is_active: Boolean(row.is_active), deleted_at: isoTimestamp(row.deleted_at) };
}
