// One pay period per frequency (pay-periods.rules.ts): the month from a day to the day before the same
// day of the next month, short months clamped; 7 and 14 days.
import { describe, expect, it } from 'vitest';
import { periodEnd, periodMismatch } from './pay-periods.rules.js';

describe('periodEnd', () => {
  it.each([
    ['monthly', '2026-11-01', '2026-11-30'],
    ['monthly', '2026-10-26', '2026-11-25'],
    ['monthly', '2026-12-01', '2026-12-31'],
    ['monthly', '2026-12-15', '2027-01-14'],
    ['monthly', '2026-02-01', '2026-02-28'],
    ['monthly', '2028-02-01', '2028-02-29'],
    ['monthly', '2026-01-31', '2026-02-28'],
    ['monthly', '2026-01-30', '2026-02-28'],
    ['monthly', '2028-01-30', '2028-02-29'],
    ['monthly', '2026-03-31', '2026-04-30'],
    ['weekly', '2026-11-02', '2026-11-08'],
    ['weekly', '2026-12-28', '2027-01-03'],
    ['bi-weekly', '2026-11-02', '2026-11-15'],
    ['bi-weekly', '2028-02-20', '2028-03-04'],
  ] as const)('%s from %s ends %s', (frequency, start, end) => {
    expect(periodEnd(frequency, start)).toBe(end);
  });
});

describe('periodMismatch', () => {
  it('accepts exactly one period and names the expected end otherwise', () => {
    expect(periodMismatch('monthly', '2026-11-01', '2026-11-30')).toBeUndefined();
    expect(periodMismatch('monthly', '2026-11-02', '2026-11-30')).toBe(
      'The pay period must be one monthly pay period of the company: starting 2026-11-02, it ends on 2026-12-01.',
    );
    expect(periodMismatch('monthly', '2026-12-05', '2026-12-05')).toMatch(/ends on 2027-01-04\.$/);
    expect(periodMismatch('weekly', '2026-11-02', '2026-11-30')).toMatch(/one weekly pay period .* ends on 2026-11-08\.$/);
    expect(periodMismatch('bi-weekly', '2026-11-02', '2026-11-15')).toBeUndefined();
  });
});
