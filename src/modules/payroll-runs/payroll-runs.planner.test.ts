// Table tests of who a run from salaries pays and with what (payroll-runs.planner.ts).
import { describe, expect, it } from 'vitest';
import { type Candidate, employedFraction, planRunItems, proRata, SKIP } from './payroll-runs.planner.js';

const user = (id: number, extra: Partial<Candidate> = {}): Candidate => ({
  id,
  is_active: true,
  is_suspended: false,
  start_date: '2024-01-01',
  exit_date: null,
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

  // Leavers (docs/users.md, "Leavers"): the joiner rule mirrored, paid up to and including the exit date.
  it.each([
    ['after the period', '2024-01-01', '2026-04-10', 31n, 31n],
    ['on the last day', '2024-01-01', '2026-03-31', 31n, 31n],
    ['mid-period', '2024-01-01', '2026-03-17', 17n, 31n],
    ['on the first day', '2024-01-01', '2026-03-01', 1n, 31n],
    ['joined and left inside the period: both cuts', '2026-03-10', '2026-03-20', 11n, 31n],
    ['joined and left on the same day', '2026-03-15', '2026-03-15', 1n, 31n],
    ['joined before, no exit', '2026-02-10', null, 31n, 31n],
  ])('exit %s', (_label, startDate, exitDate, days, of) => {
    expect(employedFraction('2026-03-01', '2026-03-31', startDate, exitDate)).toEqual({ days, of });
  });

  it('a leaver in a 28-day February and a weekly period count calendar days the same way', () => {
    expect(employedFraction('2026-02-01', '2026-02-28', '2020-01-01', '2026-02-14')).toEqual({ days: 14n, of: 28n });
    expect(employedFraction('2026-03-02', '2026-03-08', '2026-03-04', '2026-03-05')).toEqual({ days: 2n, of: 7n });
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
    [
      'leavers are paid in the period covering their exit date, left out silently after it',
      [user(1, { exit_date: '2026-03-01' }), user(2, { exit_date: '2026-02-28' }), user(3, { exit_date: '2026-06-30' })],
      {},
      [1, 3],
      [],
    ],
    ['but a departed employee asked for is listed', [user(1, { exit_date: '2026-02-28' })], { userIds: [1] }, [], [[1, SKIP.left]]],
    [
      'an exit before the start (written around the API) pays no day',
      [user(1, { start_date: '2026-03-20', exit_date: '2026-03-10' })],
      {},
      [],
      [[1, SKIP.left]],
    ],
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

  it('a leaver is paid salary and allowances pro rata up to the exit date; a joiner who leaves in the period gets both cuts', () => {
    const plan = planRunItems({ ...MARCH }, [
      user(1, { exit_date: '2026-03-17', allowances: '31000.00' }),
      user(2, { start_date: '2026-03-17', exit_date: '2026-03-17', allowances: '31000.00' }),
      user(3, { start_date: '2026-03-10', exit_date: '2026-03-20', base_salary: '310000.00' }),
    ]);
    expect(plan.items).toEqual([
      // 300,000 × 17/31 = 164,516.129… → 164,516.13; 31,000 × 17/31 = 17,000.
      expect.objectContaining({ userId: 1, taxableIncome: 16_451_613n, otherAllowances: 1_700_000n }),
      // One day of 31.
      expect.objectContaining({ userId: 2, taxableIncome: 967_742n, otherAllowances: 100_000n }),
      // 310,000 × 11/31 = 110,000 exactly.
      expect.objectContaining({ userId: 3, taxableIncome: 11_000_000n, otherAllowances: 0n }),
    ]);
  });

  it('an override of a leaver is the figure as given, like a joiner', () => {
    const overrides = new Map([[1, { taxableIncome: 5_000_000n }]]);
    const plan = planRunItems({ ...MARCH, overrides }, [user(1, { exit_date: '2026-03-05' })]);
    expect(plan.items).toEqual([expect.objectContaining({ userId: 1, taxableIncome: 5_000_000n })]);
  });
});
