// Rules of the amendments of docs/payroll.md, "Statutory amendments" that decide the engine's
// inputs (the cumulative method is cumulative.ts). Pure.
import { DEDUCTION_UNITS_PER_KOBO } from './cumulative.js';
import type { PreparedCustom } from './engine.types.js';
import { type Kobo, RATE_SCALE } from './money.js';
import { STATUTORY_TABLE, type StatutoryRow, statutoryRowAt } from './statutory.js';

/**
 * NHF is voluntary in the private sector (Business Facilitation Act 2023 s.45): it applies to an
 * employee of a public-sector company, or one who opted in. An opt-in not given (undefined) keeps
 * NHF, as before the amendment.
 */
export function nhfApplies(sector: 'private' | 'public' | null | undefined, nhfOptIn: boolean | null | undefined): boolean {
  return sector === 'public' || nhfOptIn !== false;
}

/**
 * The period's pay as a monthly figure is below the national minimum wage in force at the period's
 * end: (T + other allowances) × N < 12 × the monthly minimum wage, exactly in kobo. "Monthly pay" is
 * gross pay of the period (taxable pay and non-taxable allowances, not reimbursements) converted to
 * a month: × N ÷ 12, so a weekly ₦16,000 is ₦69,333.33 a month. A partial period (a joiner paid pro
 * rata) is measured as paid: docs/payroll.md, "The tax year".
 */
export function belowMinimumWage(
  periodPay: Kobo,
  periodsPerYear: number,
  payPeriodEnd: string,
  table: readonly StatutoryRow[] = STATUTORY_TABLE,
): boolean {
  return periodPay * BigInt(periodsPerYear) < 12n * statutoryRowAt(payPeriodEnd, table).minimumWageMonthly * 100n;
}

/** Who NHF is deducted from, beyond sector and opt-in (nhfApplies). */
export interface NhfEmployee {
  sector: 'private' | 'public' | null | undefined;
  nhfOptIn: boolean | null | undefined;
  /** Not a Nigerian citizen (users.is_expatriate); absent = false. */
  isExpatriate?: boolean | null;
}

/**
 * NHF for this paystub (docs/payroll.md, "The tax year"): never for an expatriate (the NHF Act 1992
 * s.4 obliges Nigerian workers), nor when the period's pay is below the national minimum wage as a
 * monthly figure (the Act obliges workers earning the minimum wage and above); otherwise
 * nhfApplies(sector, opt-in). Both in the public sector too.
 */
export function nhfAppliesTo(
  employee: NhfEmployee,
  pay: { periodPay: Kobo; periodsPerYear: number; payPeriodEnd: string },
  table: readonly StatutoryRow[] = STATUTORY_TABLE,
): boolean {
  if (employee.isExpatriate === true) return false;
  if (belowMinimumWage(pay.periodPay, pay.periodsPerYear, pay.payPeriodEnd, table)) return false;
  return nhfApplies(employee.sector, employee.nhfOptIn);
}

/** Pension (employee and employer) unless the employee is exempt (users.pension_exempt; Pension Reform Act 2014 exemptions). */
export function pensionApplies(pensionExempt: boolean | null | undefined): boolean {
  return pensionExempt !== true;
}

/** What `deductibleUnits` adds up, in DEDUCTION_UNITS_PER_KOBO: the recurring parts and the one-off ones. */
export interface DeductibleUnits {
  regular: bigint;
  oneOff: bigint;
}

const NO_DEDUCTIBLE_UNITS: DeductibleUnits = Object.freeze({ regular: 0n, oneOff: 0n });

/**
 * Σ exact employee parts of the tax-deductible custom contributions, split into the recurring ones
 * (deducted × N under annualised tax) and the one-off ones (deducted once), in one pass.
 */
export function deductibleUnits(gross: Kobo, customs: readonly PreparedCustom[] | undefined): DeductibleUnits {
  if (customs === undefined || customs.length === 0) return NO_DEDUCTIBLE_UNITS;
  let regular = 0n;
  let oneOff = 0n;
  for (const custom of customs) {
    if (!custom.taxDeductible || !custom.onGross || custom.employee === null) continue;
    const units = custom.percentage
      ? gross * custom.employee * (DEDUCTION_UNITS_PER_KOBO / RATE_SCALE)
      : custom.employee * DEDUCTION_UNITS_PER_KOBO;
    if (custom.oneOff === true) oneOff += units;
    else regular += units;
  }
  return { regular, oneOff };
}
