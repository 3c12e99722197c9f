// Annualised tax with irregular pay (docs/payroll.md, "Tax on irregular items"). Pure.
import { DEDUCTION_UNITS_PER_KOBO, taxDueToDate } from './cumulative.js';
import type { PaystubInput } from './engine.types.js';
import { divRound } from './money.js';
import type { TaxLaw } from './statutory.js';

export interface TaxParts {
  regularTaxable: bigint;
  regularUnits: bigint;
  irregularTaxable: bigint;
  irregularUnits: bigint;
  annualRentPaid: bigint;
}

/**
 * Annualised tax with irregular pay (docs/payroll.md, "Tax on irregular items"): the regular part's
 * annual tax ÷ N, plus tax(annual regular + irregular) − tax(annual regular) once. The margin is
 * taken over `input.marginBase` when given (an off-cycle paystub: the employee's regular salary)
 * or this paystub's regular pay. All three figures are exact over one denominator; rounded once.
 */
export function annualisedWithIrregular(
  periodDeductionsPerKobo: bigint,
  input: PaystubInput,
  law: TaxLaw,
  minimumWageMonthly: bigint,
  parts: TaxParts,
) {
  const n = BigInt(input.periodsPerYear);
  const common = { law, minimumWageMonthly, periodsPerYear: input.periodsPerYear, annualRentPaid: parts.annualRentPaid };
  const regular = taxDueToDate({ ...common, k: 1, taxableIncomeYtd: parts.regularTaxable, deductionsYtd: parts.regularUnits });
  let num = regular.num;
  let exempt = regular.exempt;
  if (parts.irregularTaxable > 0n || parts.irregularUnits > 0n) {
    let marginTaxable = parts.regularTaxable;
    let marginUnits = parts.regularUnits;
    if (input.marginBase) {
      marginTaxable = input.marginBase.taxableIncome;
      marginUnits = marginTaxable * periodDeductionsPerKobo;
      const life = input.lifeAssurancePremium ?? 0n;
      if (life > 0n) marginUnits += (life * DEDUCTION_UNITS_PER_KOBO) / n;
    }
    const k = input.periodsPerYear;
    const before = taxDueToDate({ ...common, k, taxableIncomeYtd: marginTaxable * n, deductionsYtd: marginUnits * n });
    const after = taxDueToDate({
      ...common,
      k,
      taxableIncomeYtd: marginTaxable * n + parts.irregularTaxable,
      deductionsYtd: marginUnits * n + parts.irregularUnits,
    });
    num += after.num - before.num;
    exempt = exempt && after.exempt;
  }
  const tax = divRound(num, regular.den);
  return { tax: tax < 0n ? 0n : tax, exempt };
}
