// Table tests of who a run from salaries pays and with what (payroll-runs.planner.ts).
import { describe, expect, it } from 'vitest';
import { type Candidate, employedFraction, planRunItems, proRata, SKIP } from './payroll-runs.planner.js';

const user = (id: number, extra: Partial<Candidate> = {}): Candidate => ({
  id,
  is_active: true,
  is_suspended: false,
  start_date: '2024-01-01',
  base_salary: '300000.00',
  allowances: null,
  ...extra,
});
const MARCH = { start: '2026-03-01', end: '2026-03-31', overrides: new Map() };

describe('employedFraction and proRata', () => {
  it.each([
    ['before the period', '2026-02-10', 31n, 31n],
    ['on the first day', '2026-03-01', 31n, 31n],
    ['mid-period', '2026-03-17', 15n, 31n],
    ['on the last day', '2026-03-31', 1n, 31n],
    ['no start date', null, 31n, 31n],
  ])('%s', (_label, startDate, days, of) => {
    expect(employedFraction('2026-03-01', '2026-03-31', startDate)).toEqual({ days, of });
  });

  it('rounds half-up to the kobo once', () => {
    expect(proRata(40_000_000n, { days: 15n, of: 31n })).toBe(19_354_839n); // 193,548.387… → 193,548.39
    expect(proRata(100n, { days: 1n, of: 8n })).toBe(13n); // 12.5 kobo → 13
    expect(proRata(12_345n, { days: 31n, of: 31n })).toBe(12_345n);
  });
});

describe('planRunItems', () => {
  it.each<[string, Candidate[], Partial<typeof MARCH> & { userIds?: number[] }, number[], [number, string][]]>([
    ['everyone active by default', [user(1), user(2)], {}, [1, 2], []],
    [
      'the inactive and suspended are left out silently by default',
      [user(1, { is_active: false }), user(2, { is_suspended: true }), user(3)],
      {},
      [3],
      [],
    ],
    [
      'but listed when asked for',
      [user(1, { is_active: false }), user(2, { is_suspended: true })],
      { userIds: [1, 2] },
      [],
      [
        [1, SKIP.inactive],
        [2, SKIP.suspended],
      ],
    ],
    ['unknown ids are skipped as not found', [user(1)], { userIds: [1, 7] }, [1], [[7, SKIP.notFound]]],
    ['starting after the period', [user(1, { start_date: '2026-04-01' })], {}, [], [[1, SKIP.notStarted]]],
    [
      'no base salary',
      [user(1, { base_salary: null }), user(2, { base_salary: '0.00' })],
      {},
      [],
      [
        [1, SKIP.noSalary],
        [2, SKIP.noSalary],
      ],
    ],
    ['only those asked for', [user(1), user(2), user(3)], { userIds: [3, 1] }, [1, 3], []],
  ])('%s', (_label, candidates, request, paid, skipped) => {
    const plan = planRunItems({ ...MARCH, ...request }, candidates);
    expect(plan.items.map((item) => item.userId)).toEqual(paid);
    expect(plan.skipped.map((s) => [s.user_id, s.reason])).toEqual(skipped);
  });

  it('an override pays an employee without a salary, as given (not pro rata); the rest is pro rata', () => {
    const overrides = new Map([[1, { taxableIncome: 5_000_000n, reimbursements: 10_000n }]]);
    const plan = planRunItems({ ...MARCH, overrides }, [
      user(1, { base_salary: null, start_date: '2026-03-17' }),
      user(2, { start_date: '2026-03-17', allowances: '31000.00' }),
    ]);
    expect(plan.items).toEqual([
      expect.objectContaining({ userId: 1, taxableIncome: 5_000_000n, otherAllowances: 0n, reimbursements: 10_000n }),
      expect.objectContaining({ userId: 2, taxableIncome: 14_516_129n, otherAllowances: 1_500_000n, reimbursements: 0n }),
    ]);
    expect(plan.items.map((item) => item.index)).toEqual([0, 1]);
  });
});
