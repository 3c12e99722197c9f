// Pay items (docs/payroll.md, "Pay items"): what a paystub pays besides salary, and how each kind is
// treated by tax, pension, NHF and NSITF. The built-in catalog is law and lives here, beside the
// engine that applies it; a company's own types (modules/paystubs) carry the same flags. Pure.
import type { Kobo } from './money.js';

/** How an item moves money: an earning is paid (or, when not cash, only taxed); a deduction is taken after tax. */
export type PayItemTreatment = 'earning' | 'deduction';

export interface PayItemFlags {
  /** In PAYE's taxable income. */
  taxable: boolean;
  /** In the pension base (Pension Reform Act 2014 s.4(1): monthly emoluments). */
  pensionable: boolean;
  /** In the NHF base (basic salary). */
  nhfBase: boolean;
  /** In the NSITF base (the employer's 1 % of the payroll). */
  nsitfBase: boolean;
  /** Paid every period: annualised with salary. Irregular items are taxed once at the margin. */
  regular: boolean;
  /** Paid in cash: false for a benefit in kind (taxed, not paid). */
  cash: boolean;
}

export interface PayItemType extends PayItemFlags {
  code: string;
  name: string;
  treatment: PayItemTreatment;
}

const earning = (code: string, name: string, flags: Partial<PayItemFlags>): PayItemType => ({
  code,
  name,
  treatment: 'earning',
  taxable: true,
  pensionable: false,
  nhfBase: false,
  nsitfBase: false,
  regular: false,
  cash: true,
  ...flags,
});

/** A deduction: after tax, in no statutory base. */
function deduction(code: string, name: string): PayItemType {
  return {
    code,
    name,
    treatment: 'deduction',
    taxable: false,
    pensionable: false,
    nhfBase: false,
    nsitfBase: false,
    regular: false,
    cash: true,
  };
}

/**
 * The built-in types (pay-events §1). `arrears` is pensionable and in the NHF base "as its origin":
 * arrears of salary are split like salary (the company's basic / housing / transport percentages);
 * the flags below say so by `pensionable` and `nhfBase` true, and the engine applies the split.
 * `loss_of_office` is special in tax (lossOfOfficeTaxable); `reimbursement` is never taxed.
 */
export const BUILT_IN_PAY_ITEM_TYPES: readonly PayItemType[] = Object.freeze([
  earning('bonus', 'Bonus', {}),
  earning('thirteenth_month', '13th month', {}),
  earning('leave_allowance', 'Leave allowance', {}),
  earning('overtime', 'Overtime', { regular: true }),
  earning('commission', 'Commission', { regular: true }),
  earning('arrears', 'Arrears', { pensionable: true, nhfBase: true }),
  earning('benefit_in_kind', 'Benefit in kind', { regular: true, cash: false }),
  earning('reimbursement', 'Reimbursement', { taxable: false }),
  earning('loss_of_office', 'Compensation for loss of office', {}),
  deduction('deduction', 'Deduction'),
  // Set by the loans module alone (docs/payroll.md, "Loans and salary advances"): a request's items
  // may not name them (LOAN_ITEM_CODES).
  deduction('loan_repayment', 'Loan repayment'),
  deduction('advance_recovery', 'Salary advance recovery'),
]);

/** The item codes of loan repayments: only the loans module puts them on a paystub. */
export const LOAN_ITEM_CODES: ReadonlySet<string> = new Set(['loan_repayment', 'advance_recovery']);

export const BUILT_IN_CODES: ReadonlySet<string> = new Set(BUILT_IN_PAY_ITEM_TYPES.map((type) => type.code));
export const builtInPayItemType = (code: string) => BUILT_IN_PAY_ITEM_TYPES.find((type) => type.code === code);

/**
 * Compensation for loss of office: from 2026 exempt up to ₦50,000,000 per employment (Nigeria Tax
 * Act 2025 s.50, as pay-events §1 names it; not re-checked against the gazetted text here); before
 * 2026 outside PAYE altogether (PITA left it to capital gains tax: Capital Gains Tax Act s.36, as
 * commonly cited; not re-checked here). Returns the taxable part of `amount` when `alreadyPaid` of
 * the same employment's compensation was paid before.
 */
export const LOSS_OF_OFFICE_EXEMPTION: Kobo = 50_000_000_00n;
export function lossOfOfficeTaxable(amount: Kobo, alreadyPaid: Kobo, payPeriodEnd: string): Kobo {
  if (payPeriodEnd < '2026-01-01') return 0n;
  const left = LOSS_OF_OFFICE_EXEMPTION - alreadyPaid;
  const exempt = left <= 0n ? 0n : left < amount ? left : amount;
  return amount - exempt;
}

/** One item on a paystub as the engine takes it: a positive amount and the flags of its type. */
export interface EngineItem extends PayItemFlags {
  code: string;
  treatment: PayItemTreatment;
  amount: Kobo;
}
