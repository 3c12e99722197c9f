// The pay-schedule date maths (pay-schedules.planner.ts) as tables: periods, payment dates moved
// off weekends and the holiday data, creation days, and which period a new schedule creates first.
import { describe, expect, it } from 'vitest';
import { firstOpenPeriod, nextStart, periodFrom, ruleErrors, type ScheduleRule, upcomingPeriods } from './pay-schedules.planner.js';

const rule = (over: Partial<ScheduleRule>): ScheduleRule => ({
  frequency: 'monthly',
  payDay: 'last_working_day',
  firstPeriodStart: '2026-01-01',
  createDaysBefore: 5,
  ...over,
});

describe('periodFrom', () => {
  it.each([
    // monthly, last working day: 30 Nov 2026 is a Monday; 31 Oct 2026 a Saturday → Friday 30th
    ['monthly', 'last_working_day', '2026-11-01', '2026-11-30', '2026-11-30', '2026-11-25'],
    ['monthly', 'last_working_day', '2026-10-01', '2026-10-31', '2026-10-30', '2026-10-25'],
    // 31 Dec 2026 is a Thursday; 31 Jan 2027 a Sunday → Friday 29th
    ['monthly', 'last_working_day', '2026-12-01', '2026-12-31', '2026-12-31', '2026-12-26'],
    ['monthly', 'last_working_day', '2027-01-01', '2027-01-31', '2027-01-29', '2027-01-24'],
    // a mid-month period ending the 25th; 25 Dec 2026 is Christmas and 24th a Thursday
    ['monthly', '25', '2026-11-26', '2026-12-25', '2026-12-24', '2026-12-19'],
    // day 31 in a 30-day month is its last day; 30 Apr 2027 is a Friday
    ['monthly', '31', '2027-04-01', '2027-04-30', '2027-04-30', '2027-04-25'],
    // Workers' Day 1 May 2026 (Friday) → Thursday 30 April
    ['monthly', '1', '2026-04-26', '2026-05-25', '2026-04-30', '2026-04-25'],
    // Independence Day 1 Oct 2026 (Thursday) → Wednesday 30 Sept
    ['monthly', '1', '2026-09-15', '2026-10-14', '2026-09-30', '2026-09-25'],
    // weekly on Friday: the Friday in the period's last week
    ['weekly', 'friday', '2026-11-02', '2026-11-08', '2026-11-06', '2026-11-01'],
    // Good Friday 3 April 2026 → Thursday 2 April
    ['weekly', 'friday', '2026-03-30', '2026-04-05', '2026-04-02', '2026-03-28'],
    ['bi-weekly', 'friday', '2026-11-02', '2026-11-15', '2026-11-13', '2026-11-08'],
    // a Saturday pay day moves to the Friday before
    ['weekly', 'saturday', '2026-11-02', '2026-11-08', '2026-11-06', '2026-11-01'],
    ['bi-weekly', 'last_working_day', '2026-12-14', '2026-12-27', '2026-12-24', '2026-12-19'],
  ] as const)('%s pay day %s from %s: ends %s, paid %s, created %s', (frequency, payDay, start, end, paymentDate, createOn) => {
    expect(periodFrom(rule({ frequency, payDay, firstPeriodStart: start }), start)).toEqual({ start, end, paymentDate, createOn });
  });

  it('counts create_days_before in calendar days (0: the payment day itself)', () => {
    expect(periodFrom(rule({ createDaysBefore: 0 }), '2026-11-01').createOn).toBe('2026-11-30');
    expect(periodFrom(rule({ createDaysBefore: 10 }), '2026-11-01').createOn).toBe('2026-11-20');
  });
});

describe('nextStart', () => {
  it.each([
    ['monthly', '2026-11-01', '2026-12-01'],
    ['monthly', '2026-12-01', '2027-01-01'],
    ['monthly', '2026-01-28', '2026-02-28'],
    ['monthly', '2026-11-26', '2026-12-26'],
    ['weekly', '2026-12-28', '2027-01-04'],
    ['bi-weekly', '2026-12-21', '2027-01-04'],
  ] as const)('%s after %s: %s', (frequency, start, next) => {
    expect(nextStart(frequency, start)).toBe(next);
  });
});

describe('firstOpenPeriod', () => {
  const monthly = rule({ firstPeriodStart: '2026-01-01' });
  it.each([
    // creation time passed, payment ahead: this period (created at once)
    ['2026-11-27', null, '2026-11-01'],
    // payment day itself still counts
    ['2026-11-30', null, '2026-11-01'],
    // payment passed: the next period
    ['2026-12-01', null, '2026-12-01'],
    // a schedule that already made November never makes it again
    ['2026-11-27', '2026-11-30', '2026-12-01'],
    // after a rule change, never a period overlapping one already made
    ['2026-11-27', '2026-12-14', '2027-01-01'],
    // before the first period: the first period
    ['2025-06-01', null, '2026-01-01'],
  ] as const)('today %s, last created %s: starts %s', (today, last, start) => {
    expect(firstOpenPeriod(monthly, today, last).start).toBe(start);
  });

  it('lists the next periods in order', () => {
    const next = upcomingPeriods(rule({ frequency: 'weekly', payDay: 'friday', firstPeriodStart: '2026-11-02' }), '2026-11-02', 3);
    expect(next.map((p) => p.paymentDate)).toEqual(['2026-11-06', '2026-11-13', '2026-11-20']);
  });
});

describe('ruleErrors', () => {
  it.each([
    [{}, {}],
    [{ payDay: '25' }, {}],
    [{ frequency: 'weekly', payDay: 'friday' }, {}],
    [{ firstPeriodStart: '2026-01-29' }, { first_period_start: expect.any(Array) }],
    [{ frequency: 'weekly', payDay: '25' }, { pay_day: expect.any(Array) }],
    [{ payDay: 'friday' }, { pay_day: expect.any(Array) }],
    [{ payDay: '32' }, { pay_day: expect.any(Array) }],
    [{ payDay: 'payday' }, { pay_day: expect.any(Array) }],
  ] as const)('%o → %o', (over, errors) => {
    expect(ruleErrors(rule(over as Partial<ScheduleRule>))).toEqual(errors);
  });
});
