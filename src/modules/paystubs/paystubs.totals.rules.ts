// A run's totals (docs/payroll-runs.md, "The run object"): exact sums of each paystub's rounded
// figures, so every total equals the sum of its parts to the kobo.
import type { Kobo } from '../../tax-engine/money.js';
import type { PlannedPaystub } from './paystubs.plan.types.js';

/** Sums of a run's paystubs, in kobo: exact sums of each paystub's rounded figures. */
export interface RunTotals {
  employees: number;
  grossPay: Kobo;
  /** The cash earnings of irregular items (gross − this = regular gross). */
  irregularGross: Kobo;
  taxWithheld: Kobo;
  /** The year-end true-ups included in taxWithheld (negative: refunds). */
  taxTrueUp: Kobo;
  employeePension: Kobo;
  employerPension: Kobo;
  nhf: Kobo;
  nhisEmployee: Kobo;
  nhisEmployer: Kobo;
  otherDeductions: Kobo;
  reimbursements: Kobo;
  netPay: Kobo;
  employerCost: Kobo;
}

/** Totals of the paystubs a run kept (pass the written ones: a row the database refused is not in them). */
export function runTotals(paystubs: readonly Pick<PlannedPaystub, 'item' | 'figures'>[]): RunTotals {
  const totals: RunTotals = {
    employees: new Set(paystubs.map((p) => p.item.userId)).size,
    grossPay: 0n,
    irregularGross: 0n,
    taxWithheld: 0n,
    taxTrueUp: 0n,
    employeePension: 0n,
    employerPension: 0n,
    nhf: 0n,
    nhisEmployee: 0n,
    nhisEmployer: 0n,
    otherDeductions: 0n,
    reimbursements: 0n,
    netPay: 0n,
    employerCost: 0n,
  };
  for (const { figures: f } of paystubs) {
    totals.grossPay += f.grossPay;
    totals.irregularGross += f.irregularGross;
    totals.taxWithheld += f.taxWithheld;
    totals.taxTrueUp += f.taxTrueUp;
    totals.employeePension += f.pension;
    totals.employerPension += f.employerPension;
    totals.nhf += f.nhf;
    totals.nhisEmployee += f.nhis;
    totals.nhisEmployer += f.nhisEmployer;
    totals.otherDeductions += f.otherDeductions;
    totals.reimbursements += f.reimbursements;
    totals.netPay += f.netPay;
    totals.employerCost += f.employerCost;
  }
  return totals;
}

/**
 * The totals of two sets of paystubs with no employee in common (a run planned a part at a time:
 * paystubs.run.service.ts), so that employees add up as well as the amounts.
 */
export function addTotals(a: RunTotals, b: RunTotals): RunTotals {
  const sum = { ...a };
  for (const key of Object.keys(sum) as (keyof RunTotals)[]) {
    if (key === 'employees') sum.employees = a.employees + b.employees;
    else sum[key] = a[key] + b[key];
  }
  return sum;
}
