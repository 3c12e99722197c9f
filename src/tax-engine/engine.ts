// The gross-to-net engine (docs/payroll.md, "The engine"). Pure: inputs in, figures out; no I/O, no
// clock. Annual figures are exact rationals held as BigInt in per-run "units" (a fraction of a kobo
// chosen so that D, 1 % and 20 % of any base divide exactly); each period figure is rounded half-up
// to kobo once, from its exact value. Tax is computed on the exact annual figures.
import { deductibleUnits } from './amendments.js';
import { checkPeriodsPerYear, DEDUCTION_UNITS_PER_KOBO, EMPTY_YTD, periodOrdinal, taxDueToDate } from './cumulative.js';
import {
  type AppliedRegime,
  type CustomContributionRule,
  type CustomFigure,
  DEDUCTIONS_EXCEED_PAY,
  type PaystubInput,
  type PaystubResult,
  PERIOD_TOO_EARLY,
  type PreparedCustom,
} from './engine.types.js';
import { annualisedWithIrregular } from './irregular.js';
import { NO_ITEMS, statutoryWithItems, sumItems } from './items.js';
import { divRound, RATE_SCALE, toKobo, toRate } from './money.js';
import { compiledLaw, type Fraction, type PreparedRun, rowAt, runFor } from './prepare.js';
import { EARLIEST_PERIOD_END, lawNamed } from './statutory.js';
import { annualTax100 } from './tax.js';
import { yearEndTrueUp } from './true-up.js';

export { type PreparedRun, prepareRun } from './prepare.js';

const applyRounded = (amount: bigint, f: Fraction) => (f.num === 0n ? 0n : (2n * amount * f.num + f.den) / f.den2);

export function prepareCustom(rule: CustomContributionRule): PreparedCustom {
  const percentage = rule.type === 'percentage';
  const parse = (value: string | null) => (value === null ? null : percentage ? toRate(value) : toKobo(value));
  const employee = parse(rule.employeeValue);
  const employer = parse(rule.employerValue);
  if ((rule.employeeValue !== null && employee === null) || (rule.employerValue !== null && employer === null)) {
    throw new RangeError(`Invalid value on custom contribution ${rule.id}`);
  }
  const taxDeductible = rule.taxDeductible === true;
  // A deductible part must be known before tax: on net pay it would depend on itself.
  if (taxDeductible && (rule.applyTo !== 'gross_pay' || employee === null)) {
    throw new RangeError(`Custom contribution ${rule.id} is tax-deductible but not an employee part on gross pay`);
  }
  return {
    id: rule.id,
    name: rule.name,
    percentage,
    onGross: rule.applyTo === 'gross_pay',
    employee,
    employer,
    taxDeductible,
    oneOff: rule.oneOff === true,
  };
}

export function computePaystub(prepared: PreparedRun, input: PaystubInput): PaystubResult {
  if (input.payPeriodEnd < EARLIEST_PERIOD_END) return { ok: false, errors: { pay_period_end: [PERIOD_TOO_EARLY] } };
  const run = runFor(prepared, input.nhfApplies, input.pensionApplies);
  const t = input.taxableIncome;
  const n = checkPeriodsPerYear(input.periodsPerYear);
  const items = input.items && input.items.length > 0 ? sumItems(input.items, input.payPeriodEnd, input.lossOfOfficePaidBefore) : NO_ITEMS;
  const gross = t + input.otherAllowances + items.cashEarnings;
  let pension: bigint;
  let employerPension: bigint;
  let nhf: bigint;
  let nhis: bigint;
  let nhisEmployer: bigint;
  let itemUnitsRegular = 0n;
  let itemUnitsIrregular = 0n;
  if (items === NO_ITEMS) {
    pension = applyRounded(t, run.pension);
    employerPension = applyRounded(t, run.pensionEmployer);
    nhf = applyRounded(t, run.nhf);
    nhis = applyRounded(t, run.nhis);
    nhisEmployer = applyRounded(t, run.nhisEmployer);
  } else {
    ({ pension, employerPension, nhf, nhis, nhisEmployer, itemUnitsRegular, itemUnitsIrregular } = statutoryWithItems(
      run.raw,
      run.periodDeductionsPerKobo,
      t,
      items,
    ));
  }

  // D ÷ N, exact: statutory deductions, the premium's share and tax-deductible custom employee parts.
  // One-off deductible parts and deductions on irregular items are deducted once, not × N.
  const life = input.lifeAssurancePremium ?? 0n;
  const customUnits = deductibleUnits(gross, input.customs);
  let regularUnits = t * run.periodDeductionsPerKobo + customUnits.regular + itemUnitsRegular;
  if (life > 0n) regularUnits += (life * DEDUCTION_UNITS_PER_KOBO) / n;
  const irregularUnits = itemUnitsIrregular + customUnits.oneOff;
  const taxDeductions = regularUnits + irregularUnits;
  const regularTaxable = t + items.regularTaxable;
  const irregularTaxable = items.irregularTaxable;

  const row = rowAt(run, input.payPeriodEnd);
  const regime: AppliedRegime = run.regime === 'none' ? 'none' : run.regime === 'auto' ? row.law.id : run.regime;
  // (Not a closure: capturing this function's locals made every paystub 2× slower.)
  const law = regime === 'none' || regime === row.law.id ? row.law : lawNamed(regime, input.payPeriodEnd, run.table);
  const giKobo = regularTaxable * n;
  let exempt = giKobo <= 12n * row.minimumWageMonthly * 100n;
  let tax = 0n;
  const annualRentPaid = input.annualRentPaid ?? 0n;
  if (run.taxMethod === 'cumulative') {
    // Irregular items simply join the year's cumulative pay.
    const before = input.ytd || EMPTY_YTD;
    const due = taxDueToDate({
      law,
      minimumWageMonthly: row.minimumWageMonthly,
      periodsPerYear: input.periodsPerYear,
      k: periodOrdinal(input.payPeriodEnd, input.periodsPerYear),
      taxableIncomeYtd: before.taxableIncome + regularTaxable + irregularTaxable,
      deductionsYtd: before.deductions + taxDeductions,
      annualRentPaid,
    });
    exempt = due.exempt;
    // Never a refund: a period whose due amount fell below what was withheld withholds nothing.
    if (regime !== 'none') tax = divRound(due.num - before.taxWithheld * due.den, due.den);
    if (tax < 0n) tax = 0n;
  } else if (customUnits.regular > 0n || items !== NO_ITEMS || customUnits.oneOff > 0n || input.marginBase) {
    const split = annualisedWithIrregular(run.periodDeductionsPerKobo, input, law, row.minimumWageMonthly, {
      regularTaxable,
      regularUnits,
      irregularTaxable,
      irregularUnits,
      annualRentPaid,
    });
    exempt = split.exempt;
    if (regime !== 'none') tax = split.tax;
  } else if (regime !== 'none' && !exempt && giKobo > 0n) {
    const compiled = compiledLaw(run, law);
    const unit = run.unit;
    const deductions = giKobo * run.deductionsPerKobo + life * unit;
    const tax100 = annualTax100(compiled, giKobo * unit, deductions, annualRentPaid * unit);
    tax = divRound(tax100, 100n * unit * n);
  }
  let taxTrueUp = 0n;
  if (input.yearEndTrueUp && run.taxMethod === 'annualised' && regime !== 'none') {
    taxTrueUp = yearEndTrueUp({
      law,
      minimumWageMonthly: row.minimumWageMonthly,
      periodsPerYear: input.periodsPerYear,
      k: input.periodsPerYear,
      annualRentPaid,
      before: input.ytd || EMPTY_YTD,
      taxable: regularTaxable + irregularTaxable,
      deductions: taxDeductions,
      periodTax: tax,
    });
    tax += taxTrueUp;
  }

  const netBefore = gross - tax - pension - nhf - nhis;
  const customs: CustomFigure[] = [];
  let other = 0n;
  let employerCustom = 0n;
  if (input.customs) {
    for (const custom of input.customs) {
      const base = custom.onGross ? gross : netBefore > 0n ? netBefore : 0n;
      const ev = custom.employee;
      const rv = custom.employer;
      const employee = ev === null ? 0n : custom.percentage ? divRound(base * ev, RATE_SCALE) : ev;
      const employer = rv === null ? 0n : custom.percentage ? divRound(base * rv, RATE_SCALE) : rv;
      other += employee;
      employerCustom += employer;
      customs.push({ id: custom.id, name: custom.name, employee, employer });
    }
  }
  const customDeductions = other;
  other += items.deductions;
  const reimbursements = input.reimbursements + items.reimbursements;
  let net = netBefore - other + reimbursements;
  if (net < 0n && taxTrueUp > 0n) {
    // A true-up never takes net pay below zero: what cannot be withheld is left to the return.
    const cut = -net < taxTrueUp ? -net : taxTrueUp;
    taxTrueUp -= cut;
    tax -= cut;
    net += cut;
  }
  if (net < 0n) return { ok: false, errors: { [items.deductions > 0n ? 'items' : 'taxable_income']: [DEDUCTIONS_EXCEED_PAY] } };
  return {
    ok: true,
    figures: {
      regime,
      exempt,
      grossPay: gross,
      taxWithheld: tax,
      pension,
      employerPension,
      nhf,
      nhis,
      nhisEmployer,
      otherDeductions: other,
      netPay: net,
      employerCost: gross + employerPension + nhisEmployer + employerCustom,
      customs,
      taxDeductions,
      reimbursements,
      customDeductions,
      itemDeductions: items.deductions,
      irregularGross: items.irregularGross,
      taxableItems: items.regularTaxable + items.irregularTaxable,
      taxTrueUp,
      items: items.figures,
    },
  };
}
