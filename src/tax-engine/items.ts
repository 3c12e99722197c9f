// A paystub's pay items summed the way the engine needs them (docs/payroll.md, "Tax on irregular
// items"). Pure. Each item lands in the figures its flags name: cash earnings in gross, taxable
// amounts in PAYE (regular ones annualised with salary, irregular ones taxed once at the margin),
// pensionable and NHF-base amounts in those bases, deductions after tax. Arrears are salary of an
// earlier period, so they follow salary's split (basic / housing / transport) into the bases.

import { DEDUCTION_UNITS_PER_KOBO } from './cumulative.js';
import { type Kobo, RATE_SCALE } from './money.js';
import { type EngineItem, lossOfOfficeTaxable } from './pay-items.js';

/** The per-item figure a paystub stores and shows. */
export interface ItemFigure {
  code: string;
  amount: Kobo;
  /** The part PAYE counted (the amount, 0, or loss of office above the exemption). */
  taxableAmount: Kobo;
}

export interface ItemTotals {
  /** Cash earnings that are pay (not reimbursements): in gross. */
  cashEarnings: Kobo;
  /** The irregular part of cashEarnings. */
  irregularGross: Kobo;
  /** Reimbursement items: added to net, outside gross and tax. */
  reimbursements: Kobo;
  /** Deduction items: after tax. */
  deductions: Kobo;
  /** Taxable amounts of regular items (annualised with salary), per period. */
  regularTaxable: Kobo;
  /** Taxable amounts of irregular items (taxed once). */
  irregularTaxable: Kobo;
  /** Amounts split like salary into the bases (arrears), regular and irregular. */
  salaryLikeRegular: Kobo;
  salaryLikeIrregular: Kobo;
  /** Amounts wholly in the pension base / NHF base (a company's own flagged types). */
  pensionFullRegular: Kobo;
  pensionFullIrregular: Kobo;
  nhfFullRegular: Kobo;
  nhfFullIrregular: Kobo;
  figures: ItemFigure[];
}

export const NO_ITEMS: ItemTotals = Object.freeze({
  cashEarnings: 0n,
  irregularGross: 0n,
  reimbursements: 0n,
  deductions: 0n,
  regularTaxable: 0n,
  irregularTaxable: 0n,
  salaryLikeRegular: 0n,
  salaryLikeIrregular: 0n,
  pensionFullRegular: 0n,
  pensionFullIrregular: 0n,
  nhfFullRegular: 0n,
  nhfFullIrregular: 0n,
  figures: [],
}) as ItemTotals;

/**
 * Sums `items`. `lossOfOfficePaidBefore` is the compensation for loss of office already paid in this
 * employment (its exemption is per employment, not per payment).
 */
export function sumItems(items: readonly EngineItem[], payPeriodEnd: string, lossOfOfficePaidBefore: Kobo = 0n): ItemTotals {
  const totals: ItemTotals = { ...NO_ITEMS, figures: [] };
  let lossOfOffice = lossOfOfficePaidBefore;
  for (const item of items) {
    const amount = item.amount;
    if (item.treatment === 'deduction') {
      totals.deductions += amount;
      totals.figures.push({ code: item.code, amount, taxableAmount: 0n });
      continue;
    }
    if (item.code === 'reimbursement') {
      totals.reimbursements += amount;
      totals.figures.push({ code: item.code, amount, taxableAmount: 0n });
      continue;
    }
    let taxable = item.taxable ? amount : 0n;
    if (item.code === 'loss_of_office') {
      taxable = lossOfOfficeTaxable(amount, lossOfOffice, payPeriodEnd);
      lossOfOffice += amount;
    }
    if (item.cash) {
      totals.cashEarnings += amount;
      if (!item.regular) totals.irregularGross += amount;
    }
    if (item.regular) totals.regularTaxable += taxable;
    else totals.irregularTaxable += taxable;
    if (item.code === 'arrears') {
      if (item.regular) totals.salaryLikeRegular += amount;
      else totals.salaryLikeIrregular += amount;
    } else {
      if (item.pensionable) {
        if (item.regular) totals.pensionFullRegular += amount;
        else totals.pensionFullIrregular += amount;
      }
      if (item.nhfBase) {
        if (item.regular) totals.nhfFullRegular += amount;
        else totals.nhfFullIrregular += amount;
      }
    }
    totals.figures.push({ code: item.code, amount, taxableAmount: taxable });
  }
  return totals;
}

/** Products on salary are k ÷ RATE2 (a share × a rate); rates on a whole amount are r ÷ RATE_SCALE. */
export interface RawRates {
  pension: bigint;
  pensionEmployer: bigint;
  nhf: bigint;
  nhis: bigint;
  nhisEmployer: bigint;
  pensionRate: bigint;
  pensionEmployerRate: bigint;
  nhfRate: bigint;
}

const RATE2 = RATE_SCALE * RATE_SCALE;
const roundRate2 = (product: bigint) => (2n * product + RATE2) / (2n * RATE2);

/**
 * Pension, NHF and NHIS of a paystub with items, each rounded half-up once from its exact value
 * (salary-like amounts × share × rate, plus amounts wholly in a base × rate), and the items' exact
 * deductions for tax in DEDUCTION_UNITS_PER_KOBO, regular and irregular apart.
 */
export function statutoryWithItems(raw: RawRates, periodDeductionsPerKobo: bigint, t: Kobo, items: ItemTotals) {
  const salaryLike = t + items.salaryLikeRegular + items.salaryLikeIrregular;
  const pensionFull = (items.pensionFullRegular + items.pensionFullIrregular) * RATE_SCALE;
  const nhfFull = (items.nhfFullRegular + items.nhfFullIrregular) * RATE_SCALE;
  const perRate = DEDUCTION_UNITS_PER_KOBO / RATE_SCALE;
  return {
    pension: roundRate2(salaryLike * raw.pension + pensionFull * raw.pensionRate),
    employerPension: roundRate2(salaryLike * raw.pensionEmployer + pensionFull * raw.pensionEmployerRate),
    nhf: roundRate2(salaryLike * raw.nhf + nhfFull * raw.nhfRate),
    nhis: roundRate2(salaryLike * raw.nhis),
    nhisEmployer: roundRate2(salaryLike * raw.nhisEmployer),
    itemUnitsRegular:
      items.salaryLikeRegular * periodDeductionsPerKobo +
      (items.pensionFullRegular * raw.pensionRate + items.nhfFullRegular * raw.nhfRate) * perRate,
    itemUnitsIrregular:
      items.salaryLikeIrregular * periodDeductionsPerKobo +
      (items.pensionFullIrregular * raw.pensionRate + items.nhfFullIrregular * raw.nhfRate) * perRate,
  };
}
