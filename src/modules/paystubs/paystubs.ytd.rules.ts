// The year to date of a cumulative-tax run as the caller loads it (one query per run: the items'
// users' paystubs of the company, neither cancelled nor failed, ending in the items' calendar years), parsed for
// the engine's YtdLedger (payroll/cumulative.ts).
import { parseDeductionUnits, type YtdEntry } from '../../tax-engine/cumulative.js';
import { parseKobo } from '../../tax-engine/money.js';

/** A stored paystub's share of its user's year: amounts as numeric text, `tax_deductions` in DEDUCTION_UNITS_PER_KOBO. */
export interface PlanYtdRow {
  user_id: number;
  pay_period_end: string;
  taxable_income: string;
  tax_deductions: string;
  tax_withheld: string;
}

export function ytdEntry(row: PlanYtdRow): YtdEntry {
  const amount = (text: string) => {
    // Signed: a year-end true-up's refund makes a paystub's tax_withheld negative.
    const kobo = parseKobo(text);
    if (kobo === null) throw new RangeError(`Invalid amount in the year to date: ${text}`);
    return kobo;
  };
  return {
    userId: row.user_id,
    payPeriodEnd: row.pay_period_end,
    taxableIncome: amount(row.taxable_income),
    deductions: parseDeductionUnits(row.tax_deductions),
    taxWithheld: amount(row.tax_withheld),
  };
}
