// Wire shape of a run (docs/payroll-runs.md, "The run object"): totals as JSON numbers with two
// places, counts of its paystubs by status, UTC timestamps.

import { isoTimestamp } from '../../platform/format.js';
import { koboTextToNumber, koboToNumber, koboToString, parseKobo } from '../../tax-engine/money.js';
import type { RunTotals } from '../paystubs/index.js';
import type { RunRow, StatusCounts } from './payroll-runs.repo.js';

const TOTAL_FIELDS = [
  ['gross_pay', 'grossPay'],
  ['irregular_gross', 'irregularGross'],
  ['tax_withheld', 'taxWithheld'],
  ['tax_true_up', 'taxTrueUp'],
  ['employee_pension', 'employeePension'],
  ['employer_pension', 'employerPension'],
  ['nhf', 'nhf'],
  ['nhis_employee', 'nhisEmployee'],
  ['nhis_employer', 'nhisEmployer'],
  ['other_deductions', 'otherDeductions'],
  ['reimbursements', 'reimbursements'],
  ['net_pay', 'netPay'],
  ['employer_cost', 'employerCost'],
] as const;

/** Stored form (jsonb): exact decimal strings, `employees` a count. */
export function storedTotals(totals: RunTotals): Record<string, string | number> {
  const out: Record<string, string | number> = { employees: totals.employees };
  for (const [wire, field] of TOTAL_FIELDS) out[wire] = koboToString(totals[field]);
  return out;
}

export const EMPTY_COUNTS: StatusCounts = { unpaid: 0, held: 0, processing: 0, paid: 0, failed: 0, cancelled: 0 };

export function serializeRun(row: RunRow, counts: StatusCounts = EMPTY_COUNTS) {
  const totals: Record<string, number> = { employees: Number(row.totals.employees ?? 0) };
  // Signed: a year-end true-up can make tax_withheld (and tax_true_up) negative.
  const kobo = (wire: string) => parseKobo(String(row.totals[wire] ?? '0')) ?? 0n;
  for (const [wire] of TOTAL_FIELDS) totals[wire] = koboTextToNumber(String(row.totals[wire] ?? '0'));
  // Runs stored before pay items have no irregular part: all their gross is regular.
  totals.regular_gross = koboToNumber(kobo('gross_pay') - kobo('irregular_gross'));
  return {
    id: row.id,
    company_id: row.company_id,
    status: row.status,
    kind: row.kind,
    reason: row.reason,
    schedule_id: row.schedule_id ?? null,
    pay_period_start: row.pay_period_start,
    pay_period_end: row.pay_period_end,
    payment_date: row.payment_date,
    created_by_email: row.created_by_email,
    created_by_user_id: row.created_by_user_id,
    approved_by_email: row.approved_by_email,
    approved_by_user_id: row.approved_by_user_id,
    approved_via: row.approved_via,
    approved_at: isoTimestamp(row.approved_at),
    paid_at: isoTimestamp(row.paid_at),
    cancelled_at: isoTimestamp(row.cancelled_at),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
    totals,
    counts: { ...counts },
    skipped: row.skipped,
  };
}

export type RunView = ReturnType<typeof serializeRun>;
