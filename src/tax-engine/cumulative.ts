// Cumulative tax (docs/payroll.md, "Statutory amendments", amendment 4; Nigeria Tax Administration
// Act 2025 s.51(7): what is withheld over the year must equal the year's tax). Pure: the year to date
// before a paystub is an input (YtdState), loaded by the caller and threaded through a user's
// paystubs in period order.
//
// Exactness: a paystub's deductions for tax (D ÷ N: statutory rates on T, the life assurance premium
// ÷ N, tax-deductible custom contributions) are held as integers in DEDUCTION_UNITS_PER_KOBO, a fixed
// fraction of a kobo in which every such figure is whole whatever the run's settings (rates have
// 10^12 as the denominator of a product of two, and N ∈ {12, 26, 52} divides 156). So a stored
// period figure can be summed over the year without rounding, across runs with different settings.
import type { Kobo } from './money.js';
import type { TaxLaw } from './statutory.js';
import { annualTax100, type CompiledLaw, compileLaw } from './tax.js';

/** 156 = lcm(12, 26, 52); 10^12 = the denominator of a rate product. */
export const DEDUCTION_UNITS_PER_KOBO = 156n * 10n ** 12n;

/** Throws unless `n` divides 156 (the engine's frequencies: weekly 52, bi-weekly 26, monthly 12). */
export function checkPeriodsPerYear(n: number): bigint {
  if (!Number.isInteger(n) || n < 1 || 156 % n !== 0) throw new RangeError(`Unsupported periods per year: ${n}`);
  return BigInt(n);
}

/** The year to date of one user in one company and calendar year, before a paystub. */
export interface YtdState {
  /** Sum of T. */
  taxableIncome: Kobo;
  /** Sum of the exact period deductions for tax (D ÷ N), in DEDUCTION_UNITS_PER_KOBO. */
  deductions: bigint;
  /** Sum of tax withheld. */
  taxWithheld: Kobo;
}

export const EMPTY_YTD: YtdState = Object.freeze({ taxableIncome: 0n, deductions: 0n, taxWithheld: 0n });

/** The year to date after a paystub with these figures. */
export function addToYtd(ytd: YtdState, paystub: YtdState): YtdState {
  return {
    taxableIncome: ytd.taxableIncome + paystub.taxableIncome,
    deductions: ytd.deductions + paystub.deductions,
    taxWithheld: ytd.taxWithheld + paystub.taxWithheld,
  };
}

/** The calendar year of a YYYY-MM-DD date. */
export const taxYear = (date: string) => Number(date.slice(0, 4));

/** Day of the year, 1-based, of a YYYY-MM-DD date (UTC arithmetic: no clock, no time zone). */
function dayOfYear(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return (Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000 + 1;
}

/**
 * k: the period's ordinal in its calendar year at N periods a year. Monthly: the month; weekly:
 * ⌈day of year ÷ 7⌉ capped at 52; bi-weekly: ⌈day of year ÷ 14⌉ capped at 26.
 */
export function periodOrdinal(payPeriodEnd: string, periodsPerYear: number): number {
  if (periodsPerYear === 12) return Number(payPeriodEnd.slice(5, 7));
  const days = 364 / periodsPerYear;
  if (!Number.isInteger(days)) throw new RangeError(`No period ordinal at ${periodsPerYear} periods a year`);
  return Math.min(periodsPerYear, Math.ceil(dayOfYear(payPeriodEnd) / days));
}

// Compiled laws per (law, k): the unit depends on k. A memo of a pure function.
const compiled = new WeakMap<TaxLaw, Map<number, CompiledLaw>>();
function lawIn(law: TaxLaw, k: number): CompiledLaw {
  let byK = compiled.get(law);
  if (!byK) {
    byK = new Map();
    compiled.set(law, byK);
  }
  let hit = byK.get(k);
  if (!hit) {
    hit = compileLaw(law, DEDUCTION_UNITS_PER_KOBO * BigInt(k) * 100n);
    byK.set(k, hit);
  }
  return hit;
}

export interface TaxToDateInput {
  law: TaxLaw;
  /** 12 × this (naira) is the exemption line, tested on GI_ytd × N ÷ k. */
  minimumWageMonthly: bigint;
  periodsPerYear: number;
  /** The period's ordinal k (1 with a one-paystub year to date gives the annualised tax ÷ N). */
  k: number;
  /** GI_ytd: T summed over the year to date including this paystub (kobo). */
  taxableIncomeYtd: Kobo;
  /** D_ytd including this paystub, in DEDUCTION_UNITS_PER_KOBO. */
  deductionsYtd: bigint;
  annualRentPaid: Kobo;
}

/**
 * Tax due to date = annual tax(GI_ytd × N ÷ k, D_ytd × N ÷ k) × k ÷ N, exact, as num / den kobo.
 * In units of W = DEDUCTION_UNITS_PER_KOBO × k × 100 per kobo the annualised figures are the integers
 * GI_ytd × N × DEDUCTION_UNITS_PER_KOBO × 100 and D_ytd × N × 100 (multiples of 100: the reliefs'
 * percentages divide them), and k cancels out of the result's denominator.
 */
export function taxDueToDate(input: TaxToDateInput): { num: bigint; den: bigint; exempt: boolean } {
  const n = checkPeriodsPerYear(input.periodsPerYear);
  const k = BigInt(input.k);
  const den = 10_000n * DEDUCTION_UNITS_PER_KOBO * n;
  const exempt = input.taxableIncomeYtd * n <= 12n * input.minimumWageMonthly * 100n * k;
  if (exempt || input.taxableIncomeYtd <= 0n) return { num: 0n, den, exempt };
  const unit = DEDUCTION_UNITS_PER_KOBO * k * 100n;
  const num = annualTax100(
    lawIn(input.law, input.k),
    input.taxableIncomeYtd * n * DEDUCTION_UNITS_PER_KOBO * 100n,
    input.deductionsYtd * n * 100n,
    input.annualRentPaid * unit,
  );
  return { num, den, exempt };
}

/** One paystub's share of a year to date: stored ones loaded by the caller, planned ones added as computed. */
export interface YtdEntry extends YtdState {
  userId: number;
  payPeriodEnd: string;
}

/**
 * The paystubs of one company's users that count towards their years to date. before(user, end)
 * sums the user's entries in the calendar year of `end` that end on or before it; a run adds each
 * paystub it computes, so a user's later periods in the same run see it (compute them in period order).
 */
export class YtdLedger {
  private readonly byUser = new Map<number, YtdEntry[]>();

  constructor(entries: Iterable<YtdEntry> = []) {
    for (const entry of entries) this.add(entry);
  }

  add(entry: YtdEntry): void {
    const list = this.byUser.get(entry.userId);
    if (list) list.push(entry);
    else this.byUser.set(entry.userId, [entry]);
  }

  before(userId: number, payPeriodEnd: string): YtdState {
    let ytd = EMPTY_YTD;
    const year = payPeriodEnd.slice(0, 4);
    for (const entry of this.byUser.get(userId) ?? []) {
      if (entry.payPeriodEnd.slice(0, 4) === year && entry.payPeriodEnd <= payPeriodEnd) ytd = addToYtd(ytd, entry);
    }
    return ytd;
  }
}

/** A stored tax_deductions (a whole number of DEDUCTION_UNITS_PER_KOBO, as numeric text) → bigint. */
export function parseDeductionUnits(text: string): bigint {
  const match = /^(\d+)(?:\.0*)?$/.exec(text.trim());
  if (!match) throw new RangeError(`Invalid tax_deductions: ${text}`);
  return BigInt(match[1]);
}
