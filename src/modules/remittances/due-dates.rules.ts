// When each remittance is due (docs/compliance.md "Remittances"). Pure: dates in, dates out, as
// YYYY-MM-DD strings read as calendar days (no time zone, no clock). A fixed-day deadline (PAYE the
// 10th, NSITF the 16th, NHF one month on, the annual return, ITF) is shown as the law states it even
// on a weekend or holiday: no authority grants the next working day in writing, and filing early is
// always safe, so moving the date later could only make an employer late.
import { NIGERIAN_PUBLIC_HOLIDAYS } from './holidays.data.js';

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The 1st of the month after `month` (YYYY-MM), as [year, month]. */
function nextMonth(month: string): [number, number] {
  const [y, m] = parts(`${month}-01`);
  return m === 12 ? [y + 1, 1] : [y, m + 1];
}

/** PAYE: the 10th of the month after the payment month (PITA s.82; the state revenue services). */
export function payeDueDate(month: string): string {
  const [y, m] = nextMonth(month);
  return iso(y, m, 10);
}

/** NSITF: the 16th of the month after (a documented assumption: the Employees' Compensation Act is silent on a day). */
export function nsitfDueDate(month: string): string {
  const [y, m] = nextMonth(month);
  return iso(y, m, 16);
}

/** NHF: one calendar month after the payment date, the 31st becoming the month's last day (NHF Act s.6). */
export function nhfDueDate(paymentDate: string): string {
  const [y, m, d] = parts(paymentDate);
  const [ny, nm] = m === 12 ? [y + 1, 1] : [y, m + 1];
  return iso(ny, nm, Math.min(d, daysIn(ny, nm)));
}

export function isWorkingDay(date: string, holidays: Readonly<Record<string, string>> = NIGERIAN_PUBLIC_HOLIDAYS): boolean {
  const [y, m, d] = parts(date);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !(date in holidays);
}

/** Pension: the 7th working day after the payment date (PRA 2014 s.11(3)(b)); the payment day itself does not count. */
export function pensionDueDate(paymentDate: string, holidays: Readonly<Record<string, string>> = NIGERIAN_PUBLIC_HOLIDAYS): string {
  const [y, m, d] = parts(paymentDate);
  const day = new Date(Date.UTC(y, m - 1, d));
  let counted = 0;
  while (counted < 7) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (isWorkingDay(day.toISOString().slice(0, 10), holidays)) counted += 1;
  }
  return day.toISOString().slice(0, 10);
}

/** The annual PAYE return: 31 January of the next year (PITA s.81(2)). */
export const annualReturnDueDate = (year: number) => iso(year + 1, 1, 31);
/** ITF: 1 April of the next year (ITF (Amendment) Act 2011 s.6). */
export const itfDueDate = (year: number) => iso(year + 1, 4, 1);

/** YYYY-MM with a real month (2000-2099 keeps dates inside what the engine computes). */
export const MONTH_PATTERN = /^(20\d\d)-(0[1-9]|1[0-2])$/;

/** [first day, first day of the next month) of a YYYY-MM month: the payment-date range of its schedules. */
export function monthRange(month: string): [string, string] {
  const [y, m] = nextMonth(month);
  return [`${month}-01`, iso(y, m, 1)];
}
