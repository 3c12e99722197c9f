// A remittance schedule's status beside its filing (docs/compliance.md, "Filings and deadlines").
// Pure: dates are YYYY-MM-DD calendar days, `today` is the Lagos day; amounts are kobo.
import { koboToNumber, parseKobo } from '../../tax-engine/money.js';
import { isWorkingDay } from './due-dates.rules.js';
import type { FilingRow } from './filings.repo.js';

export type FilingStatus = 'due' | 'overdue' | 'filed' | 'filed_late';

const DAY_MS = 86_400_000;
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The status of a schedule of `amount` kobo due on `dueDate`: filed (paid on or before the due
 * date), filed_late (after; days_late counts calendar days), overdue (unfiled after the due date;
 * days_late so far), due (unfiled, not yet late). A schedule with nothing to remit and no filing
 * (no NHF that month, no due date) has no status: null.
 */
export function scheduleStatus(dueDate: string | null, amount: bigint, filing: FilingRow | undefined, today: string) {
  if (filing) {
    const late = dueDate !== null && filing.paid_on > dueDate;
    const paid = parseKobo(filing.amount) ?? 0n;
    return {
      status: (late ? 'filed_late' : 'filed') as FilingStatus,
      days_late: late ? daysBetween(dueDate as string, filing.paid_on) : 0,
      filing: {
        paid_on: filing.paid_on,
        receipt_reference: filing.receipt_reference,
        amount: koboToNumber(paid),
        // Positive: more was paid than the schedule shows; shown, never refused.
        difference: koboToNumber(paid - amount),
      },
    };
  }
  if (dueDate === null || amount === 0n) return { status: null, days_late: 0, filing: null };
  const late = today > dueDate;
  return { status: (late ? 'overdue' : 'due') as FilingStatus, days_late: late ? daysBetween(dueDate, today) : 0, filing: null };
}

/** The day a due_soon notice goes out: 3 working days before the due date (the day itself not counted). */
export function dueSoonDay(dueDate: string): string {
  let day = dueDate;
  let counted = 0;
  while (counted < 3) {
    day = addDays(day, -1);
    if (isWorkingDay(day)) counted += 1;
  }
  return day;
}

type Status = ReturnType<typeof scheduleStatus>;
interface Schedules {
  paye: { state: string; amount: number; due_date: string }[];
  pension: { pfa_code: string; total: number; due_date: string }[];
  nhf: { amount: number; due_date: string | null };
  nsitf: { amount: number; due_date: string };
}

/** Amounts come as JSON numbers of two places (exact kobo printed); back to kobo through their text. */
const koboOf = (amount: number) => BigInt(Math.round(amount * 100));

/** The month's schedules, each with its filing, status and days late (GET /api/remittances). */
export function withStatuses<S extends Schedules>(
  schedules: S,
  month: string,
  filings: readonly FilingRow[],
  today: string,
): Omit<S, 'paye' | 'pension' | 'nhf' | 'nsitf'> & {
  paye: (S['paye'][number] & Status)[];
  pension: (S['pension'][number] & Status)[];
  nhf: S['nhf'] & Status;
  nsitf: S['nsitf'] & Status;
} {
  const filingOf = (kind: string, authority: string) =>
    filings.find((f) => f.kind === kind && f.month === month && f.authority === authority);
  const paye = schedules.paye.map((entry) => ({
    ...entry,
    ...scheduleStatus(entry.due_date, koboOf(entry.amount), filingOf('paye', entry.state), today),
  }));
  const pension = schedules.pension.map((entry) => ({
    ...entry,
    ...scheduleStatus(entry.due_date, koboOf(entry.total), filingOf('pension', entry.pfa_code), today),
  }));
  const nhf: S['nhf'] & Status = {
    ...schedules.nhf,
    ...scheduleStatus(schedules.nhf.due_date, koboOf(schedules.nhf.amount), filingOf('nhf', ''), today),
  };
  const nsitf: S['nsitf'] & Status = {
    ...schedules.nsitf,
    ...scheduleStatus(schedules.nsitf.due_date, koboOf(schedules.nsitf.amount), filingOf('nsitf', ''), today),
  };
  return { ...schedules, paye, pension, nhf, nsitf };
}
