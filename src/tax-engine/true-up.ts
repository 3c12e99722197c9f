// Year-end true-up under annualised tax (docs/payroll.md, "Year-end true-up"; Nigeria Tax
// Administration Act 2025 s.51(7): the year's deductions are to equal the year's tax). On an
// employee's last regular paystub of the calendar year (their last period, or the period they
// leave in), the paystub withholds the difference between the year's exact liability, the
// cumulative figure over everything paid that year taken over the whole year (k = N: the tax on
// what was actually earned, so a leaver is not taxed as if they had earned all year), and what the
// year withheld before it. Pure.
import { type TaxToDateInput, taxDueToDate, type YtdState } from './cumulative.js';
import { divRound, type Kobo } from './money.js';

export interface TrueUpInput extends Omit<TaxToDateInput, 'taxableIncomeYtd' | 'deductionsYtd'> {
  /** The year to date before this paystub (its taxable pay includes items' taxable amounts). */
  before: YtdState;
  /** This paystub's taxable pay (T and items) and exact deductions, in DEDUCTION_UNITS_PER_KOBO. */
  taxable: Kobo;
  deductions: bigint;
  /** What this paystub withholds before the true-up. */
  periodTax: Kobo;
}

/**
 * The true-up: liability − withheld before − this period's tax, never refunding more than the
 * year's withholding (so the year's total withheld is never negative). Negative = a refund.
 */
export function yearEndTrueUp(input: TrueUpInput): Kobo {
  const { before, taxable, deductions, periodTax, ...law } = input;
  const due = taxDueToDate({ ...law, taxableIncomeYtd: before.taxableIncome + taxable, deductionsYtd: before.deductions + deductions });
  const liability = divRound(due.num, due.den);
  const withheld = before.taxWithheld + periodTax;
  const adjustment = liability - withheld;
  // biome-ignore lint/complexity/useMathMinMax: Kobo is a bigint, which Math.max does not take.
  return adjustment < -withheld ? -withheld : adjustment;
}
