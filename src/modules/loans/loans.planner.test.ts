// The repayment decisions of loans.planner.ts as a table (docs/payroll.md, "Loans and salary
// advances"): the month's rules, interest before the instalment, the cap of a third of net pay
// shared oldest loan first, and interest the cap leaves uncollected not charged.
import { describe, expect, it } from 'vitest';
import { planRepayments, type RepayableLoan } from './loans.planner.js';

const loan = (over: Partial<RepayableLoan> = {}): RepayableLoan => ({
  id: 1,
  kind: 'loan',
  outstanding: 10_000_000n,
  instalment: 4_000_000n,
  rate: 0n,
  startPeriod: '2026-03',
  skippedPeriods: [],
  repaidInPeriod: false,
  ...over,
});
const NET = 30_000_000n; // ₦300,000: the cap is ₦100,000

describe('planRepayments', () => {
  it.each([
    ['the instalment', [loan()], [[1, 4_000_000n, 0n]]],
    ['12 % a year: 1 % of the balance first', [loan({ rate: 120_000n })], [[1, 4_100_000n, 100_000n]]],
    ['the balance when below the instalment', [loan({ outstanding: 1_000_000n })], [[1, 1_000_000n, 0n]]],
    ['nothing before the start', [loan({ startPeriod: '2026-04' })], []],
    ['nothing in a skipped month', [loan({ skippedPeriods: ['2026-03'] })], []],
    ['nothing twice in a month', [loan({ repaidInPeriod: true })], []],
    ['nothing when all is pending', [loan({ outstanding: 0n })], []],
    ['an advance as advance_recovery', [loan({ kind: 'advance' })], [[1, 4_000_000n, 0n]]],
    [
      'the cap shared oldest first',
      [loan({ id: 2, instalment: 9_000_000n }), loan({ id: 1, instalment: 9_000_000n })],
      [
        [1, 9_000_000n, 0n],
        [2, 1_000_000n, 0n],
      ],
    ],
  ])('%s', (_label, loans, expected) => {
    expect(planRepayments(loans, '2026-03', NET).map((r) => [r.loanId, r.amount, r.interest])).toEqual(expected);
  });

  it('caps at a third of net pay, rounded down, and charges only the interest it collects', () => {
    const [capped] = planRepayments([loan({ instalment: 10_000_000n, rate: 1_000_000n })], '2026-03', 100n);
    expect(capped).toMatchObject({ amount: 33n, interest: 33n });
    expect(planRepayments([loan()], '2026-03', 0n)).toEqual([]);
    expect(planRepayments([loan({ kind: 'advance' })], '2026-03', NET)[0].code).toBe('advance_recovery');
  });
});
