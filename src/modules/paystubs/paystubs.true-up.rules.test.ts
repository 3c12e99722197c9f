// Which paystub carries the year-end true-up (docs/payroll.md, "Year-end true-up").
import { describe, expect, it } from 'vitest';
import { isYearEndPaystub } from './paystubs.true-up.rules.js';

describe('isYearEndPaystub', () => {
  it.each([
    ['December, monthly', { start: '2026-12-01', end: '2026-12-31' }, 12, null, true],
    ['November, monthly', { start: '2026-11-01', end: '2026-11-30' }, 12, null, false],
    ['an off-cycle December paystub', { start: '2026-12-01', end: '2026-12-31', offCycle: true }, 12, null, false],
    ['the month covering the exit date', { start: '2026-03-01', end: '2026-03-31' }, 12, '2026-03-15', true],
    ['the exit date on the period’s first day', { start: '2026-03-01', end: '2026-03-31' }, 12, '2026-03-01', true],
    ['a month before the exit', { start: '2026-02-01', end: '2026-02-28' }, 12, '2026-03-15', false],
    ['an off-cycle paystub covering the exit', { start: '2026-03-01', end: '2026-03-31', offCycle: true }, 12, '2026-03-15', false],
    ['the last week of the year', { start: '2026-12-25', end: '2026-12-31' }, 52, null, true],
    ['a week in November', { start: '2026-11-02', end: '2026-11-08' }, 52, null, false],
  ])('%s', (_name, item, periods, exit, expected) => {
    expect(isYearEndPaystub(item, periods, exit)).toBe(expected);
  });
});
