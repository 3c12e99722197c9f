// The date maths of pay schedules (docs/payroll-runs.md, "Pay schedules"): a schedule's periods,
// each period's payment date (moved to the working day before a weekend or public holiday) and
// the moment its draft run is created. Pure: dates in, dates out, as YYYY-MM-DD calendar days (no
// clock, no time zone); table-tested in pay-schedules.planner.test.ts.
import { isWorkingDay } from '../remittances/index.js';

export type Frequency = 'monthly' | 'weekly' | 'bi-weekly';
export const FREQUENCIES: readonly Frequency[] = ['monthly', 'weekly', 'bi-weekly'];
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export const LAST_WORKING_DAY = 'last_working_day';

/** What the planner needs of a schedule; `payDay` as stored: `last_working_day`, a day of month `1`-`31`, or a weekday name. */
export interface ScheduleRule {
  frequency: Frequency;
  payDay: string;
  firstPeriodStart: string;
  createDaysBefore: number;
}

export interface Period {
  start: string;
  end: string;
  paymentDate: string;
  /** The Lagos day on which the draft run is created (`createDaysBefore` calendar days before payment). */
  createOn: string;
}

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** Runs are created at 06:00 Lagos time (05:00 UTC) on their creation day: before the working day starts. */
export const CREATION_HOUR_UTC = 5;
export const creationInstant = (createOn: string) => new Date(`${createOn}T${pad(CREATION_HOUR_UTC)}:00:00.000Z`);

/** Today in Lagos (UTC+1, no daylight saving) for an instant. */
export const lagosDay = (now: Date) => new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10);

/** `date` if it is a working day, else the nearest working day before it (weekends and the holiday data). */
export function workingDayOnOrBefore(date: string, holidays?: Readonly<Record<string, string>>): string {
  let day = date;
  while (!isWorkingDay(day, holidays)) day = addDays(day, -1);
  return day;
}

/**
 * The end of the period starting on `start`. Monthly periods start on day 1-28 of a month (the
 * schedule's rule), so "the day before the same day next month" always exists and periods are
 * contiguous; day 1 gives the calendar month.
 */
export function periodEnd(frequency: Frequency, start: string): string {
  if (frequency === 'weekly') return addDays(start, 6);
  if (frequency === 'bi-weekly') return addDays(start, 13);
  const [y, m, d] = parts(start);
  if (d === 1) return iso(y, m, daysIn(y, m));
  const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
  return iso(ny, nm, d - 1);
}

/** The start of the period after the one starting on `start`. */
export const nextStart = (frequency: Frequency, start: string) => addDays(periodEnd(frequency, start), 1);

/** The nominal payment day of a period (before moving off weekends and holidays). */
function nominalPaymentDay(rule: ScheduleRule, end: string): string {
  if (rule.payDay === LAST_WORKING_DAY) return end;
  const dayOfMonth = Number(rule.payDay);
  if (Number.isInteger(dayOfMonth) && dayOfMonth >= 1) {
    // The day in the month the period ends in; 29-31 become the last day of a shorter month.
    const [y, m] = parts(end);
    return iso(y, m, Math.min(dayOfMonth, daysIn(y, m)));
  }
  // A weekday: the last one on or before the period's end (so inside its last week).
  const target = WEEKDAYS.indexOf(rule.payDay as (typeof WEEKDAYS)[number]);
  return addDays(end, -((weekday(end) - target + 7) % 7));
}

/** The period starting on `start` (a start of the schedule's sequence), with its payment and creation days. */
export function periodFrom(rule: ScheduleRule, start: string, holidays?: Readonly<Record<string, string>>): Period {
  const end = periodEnd(rule.frequency, start);
  const paymentDate = workingDayOnOrBefore(nominalPaymentDay(rule, end), holidays);
  return { start, end, paymentDate, createOn: addDays(paymentDate, -rule.createDaysBefore) };
}

/** Far enough for any schedule: 40 years of weekly periods. */
const MAX_PERIODS = 2100;

/**
 * The first period to create from `today` on: the earliest whose payment date is today or later and
 * that starts after `lastCreatedEnd` (the end of the latest period the schedule already made, or
 * tried to: never made again, nor overlapped after its rule changed). A period whose payment date
 * has passed is never created by a new or re-activated schedule.
 */
export function firstOpenPeriod(
  rule: ScheduleRule,
  today: string,
  lastCreatedEnd: string | null,
  holidays?: Readonly<Record<string, string>>,
): Period {
  let start = rule.firstPeriodStart;
  for (let i = 0; i < MAX_PERIODS; i++) {
    const period = periodFrom(rule, start, holidays);
    if ((lastCreatedEnd === null || start > lastCreatedEnd) && period.paymentDate >= today) return period;
    start = nextStart(rule.frequency, start);
  }
  throw new Error('pay schedule: no open period within 40 years');
}

/** The next `count` periods from `start` (the console's and GET's "next runs"). */
export function upcomingPeriods(rule: ScheduleRule, start: string, count: number, holidays?: Readonly<Record<string, string>>): Period[] {
  const periods: Period[] = [];
  let current = start;
  for (let i = 0; i < count; i++) {
    periods.push(periodFrom(rule, current, holidays));
    current = nextStart(rule.frequency, current);
  }
  return periods;
}

/**
 * The rule's own checks, every message at once (field → messages): monthly periods start on day
 * 1-28; a day of month only for monthly schedules, a weekday only for weekly and bi-weekly ones.
 */
export function ruleErrors(rule: ScheduleRule): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const [, , day] = parts(rule.firstPeriodStart);
  if (rule.frequency === 'monthly' && day > 28)
    errors.first_period_start = ['A monthly schedule starts its periods on day 1 to 28 of a month (every month has that day).'];
  const dayOfMonth = /^\d{1,2}$/.test(rule.payDay) ? Number(rule.payDay) : null;
  if (rule.payDay === LAST_WORKING_DAY) return errors;
  if (dayOfMonth !== null) {
    if (rule.frequency !== 'monthly') errors.pay_day = ['A day of the month is a monthly pay day; use a weekday or last_working_day.'];
    else if (dayOfMonth < 1 || dayOfMonth > 31) errors.pay_day = ['The pay day must be a day of the month from 1 to 31.'];
  } else if ((WEEKDAYS as readonly string[]).includes(rule.payDay)) {
    if (rule.frequency === 'monthly')
      errors.pay_day = ['A weekday is a weekly or bi-weekly pay day; use a day of the month or last_working_day.'];
  } else {
    errors.pay_day = ['The pay day must be last_working_day, a day of the month (1-31) or a weekday (monday … sunday).'];
  }
  return errors;
}
