// Due dates as table tests: the pure functions of due-dates.rules.ts over month ends, year ends, leap
// years, weekends and the public holidays of holidays.data.ts.
import { describe, expect, it } from 'vitest';
import {
  annualReturnDueDate,
  isWorkingDay,
  itfDueDate,
  MONTH_PATTERN,
  monthRange,
  nhfDueDate,
  nsitfDueDate,
  payeDueDate,
  pensionDueDate,
} from './due-dates.rules.js';
import { HOLIDAY_YEARS, NIGERIAN_PUBLIC_HOLIDAYS } from './holidays.data.js';

describe('fixed-day deadlines', () => {
  it.each([
    ['2026-03', '2026-04-10', '2026-04-16'],
    ['2026-12', '2027-01-10', '2027-01-16'],
    // 10 May 2026 is a Sunday: the date stays as the law states it (docs/compliance.md).
    ['2026-04', '2026-05-10', '2026-05-16'],
  ])('%s: PAYE %s, NSITF %s', (month, paye, nsitf) => {
    expect(payeDueDate(month)).toBe(paye);
    expect(nsitfDueDate(month)).toBe(nsitf);
  });

  it.each([
    ['2026-03-28', '2026-04-28'],
    ['2026-01-31', '2026-02-28'],
    ['2028-01-31', '2028-02-29'],
    ['2026-12-15', '2027-01-15'],
    ['2026-08-31', '2026-09-30'],
  ])('NHF for a payment on %s is due %s', (paid, due) => expect(nhfDueDate(paid)).toBe(due));

  it('annual return 31 January and ITF 1 April of the next year', () => {
    expect(annualReturnDueDate(2026)).toBe('2027-01-31');
    expect(itfDueDate(2026)).toBe('2027-04-01');
  });
});

describe('pension: 7 working days after the payment date', () => {
  it.each([
    // Monday → the next Wednesday (Tue..Fri, Mon..Wed).
    ['2026-03-02', '2026-03-11', 'a plain week'],
    // Friday 27 Mar 2026: Mon 30, Tue 31, Wed 1, Thu 2, (Fri 3 Good Friday), (Mon 6 Easter Monday), Tue 7, Wed 8, Thu 9.
    ['2026-03-27', '2026-04-09', 'over Easter'],
    // Saturday payment: counting starts Monday.
    ['2026-03-28', '2026-04-09', 'paid on a Saturday'],
    // Christmas 2026: Fri 25 and the observed Boxing Day Mon 28.
    ['2026-12-23', '2027-01-06', 'over Christmas and New Year'],
    // Eid-el-Fitr 2025 (Mon 31 Mar, Tue 1 Apr).
    ['2025-03-28', '2025-04-10', 'over Eid-el-Fitr'],
    // A year beyond the holiday file: weekends only.
    ['2031-06-02', '2031-06-11', 'a year without holiday data'],
  ])('paid %s → due %s (%s)', (paid, due) => expect(pensionDueDate(paid)).toBe(due));

  it('never lands on a weekend or a listed holiday', () => {
    for (let day = new Date(Date.UTC(2024, 0, 1)); day.getUTCFullYear() < 2028; day.setUTCDate(day.getUTCDate() + 1)) {
      expect(isWorkingDay(pensionDueDate(day.toISOString().slice(0, 10)))).toBe(true);
    }
  });

  it('the holiday file covers each year it claims, on working days only', () => {
    for (const year of HOLIDAY_YEARS) {
      const days = Object.keys(NIGERIAN_PUBLIC_HOLIDAYS).filter((date) => date.startsWith(`${year}-`));
      expect(days.length).toBeGreaterThanOrEqual(11);
      for (const date of days) {
        const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
        expect([0, 6], date).not.toContain(weekday);
      }
    }
  });
});

describe('months', () => {
  it.each(['2026-03', '2000-01', '2099-12'])('%s is a month', (month) => expect(MONTH_PATTERN.test(month)).toBe(true));
  it.each(['2026-13', '2026-00', '26-03', '2026-3', '1999-12', '2026-03-01', ''])('%s is not', (month) =>
    expect(MONTH_PATTERN.test(month)).toBe(false),
  );
  it('a month is [its 1st, the next 1st)', () => {
    expect(monthRange('2026-12')).toEqual(['2026-12-01', '2027-01-01']);
    expect(monthRange('2026-02')).toEqual(['2026-02-01', '2026-03-01']);
  });
});
