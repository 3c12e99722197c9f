// Which paystubs carry the year-end true-up under annualised tax (docs/payroll.md, "Year-end
// true-up"): a regular paystub (never an off-cycle one) that is the employee's last period of the
// calendar year (period ordinal k = N) or that covers their exit date. Pure; kept apart from the
// planner so the run's loading (paystubs.run.service.ts) and the planner ask the same question.
import { periodOrdinal } from '../../tax-engine/cumulative.js';

export interface TrueUpItem {
  start: string;
  end: string;
  offCycle?: boolean;
}

/** Whether this item is its employee's last regular paystub of the year (exit_date: ISO date or null). */
export function isYearEndPaystub(item: TrueUpItem, periodsPerYear: number, exitDate: string | null | undefined): boolean {
  if (item.offCycle) return false;
  if (exitDate && item.start <= exitDate && exitDate <= item.end) return true;
  return periodOrdinal(item.end, periodsPerYear) === periodsPerYear;
}
