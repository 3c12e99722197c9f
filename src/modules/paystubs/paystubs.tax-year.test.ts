// Golden tables of the tax year's rules in the planner (docs/payroll.md, "The tax year"): the PAYE
// state a paystub records (the state of residence on 1 January of its period's year), NHF below the
// minimum wage and for expatriates, the pension exemption. Pure: no database. Defaults as in
// paystubs.planner.test.ts: T 500,000 monthly, NTA 2025 in 2026: tax 65,120, pension 36,000, NHF 5,000.
import { describe, expect, test } from 'vitest';
import { DEFAULT_SETTINGS } from '../../tax-engine/engine.types.js';
import { toKobo } from '../../tax-engine/money.js';
import { builtInPayItemType, type PayItemType } from '../../tax-engine/pay-items.js';
import { payeStateFor, type StateHistoryRow } from './paystubs.paye-state.rules.js';
import type { PlanContext, PlanItem, PlanUser } from './paystubs.plan.types.js';
import { planPaystubRun } from './paystubs.planner.js';

const naira = (value: string | number) => toKobo(value) ?? 0n;
const h = (effective_from: string, state: string | null, user_id = 1): StateHistoryRow => ({ user_id, state, effective_from });

describe('payeStateFor: the state on 1 January decides the year', () => {
  test.each<[string, StateHistoryRow[] | undefined, number, string | null, string | null]>([
    ['no history: the current state', undefined, 2026, 'LA', 'LA'],
    ['empty history: the current state', [], 2026, null, null],
    ['resident since before the year', [h('2024-03-01', 'LA')], 2026, 'LA', 'LA'],
    ['a move during the year changes nothing that year', [h('2024-03-01', 'LA'), h('2026-06-15', 'OG')], 2026, 'OG', 'LA'],
    ['… and decides the next year', [h('2024-03-01', 'LA'), h('2026-06-15', 'OG')], 2027, 'OG', 'OG'],
    ['a move on 1 January counts for that year', [h('2024-03-01', 'LA'), h('2026-01-01', 'OG')], 2026, 'OG', 'OG'],
    ['a move on 2 January does not', [h('2024-03-01', 'LA'), h('2026-01-02', 'OG')], 2026, 'OG', 'LA'],
    ['a joiner during the year: the first state known', [h('2026-04-10', 'KN'), h('2026-09-01', 'LA')], 2026, 'LA', 'KN'],
    ['first known: the last change of that day (a same-day correction)', [h('2026-04-10', 'KN'), h('2026-04-10', 'KD')], 2026, 'KD', 'KD'],
    [
      'unknown on 1 January (cleared): the first state known after',
      [h('2025-02-01', 'LA'), h('2025-11-01', null), h('2026-03-01', 'FC')],
      2026,
      'FC',
      'FC',
    ],
    ['cleared and never set again: the current state', [h('2025-02-01', 'LA'), h('2025-11-01', null)], 2026, null, null],
    ['a year before any history: the first state known', [h('2025-05-01', 'EN')], 2024, 'EN', 'EN'],
  ])('%s', (_label, history, year, current, expected) => {
    expect(payeStateFor(history, year, current)).toBe(expected);
  });
});

const user = (id: number, extra: Partial<PlanUser> = {}): PlanUser => ({
  id,
  user_type_id: null,
  payment_frequency: null,
  annual_rent_paid: null,
  life_assurance_premium: null,
  nhf_opt_in: true,
  ...extra,
});
const context = (users: PlanUser[], extra: Partial<PlanContext> = {}): PlanContext => ({
  settings: DEFAULT_SETTINGS,
  companyPaymentFrequency: 'monthly',
  users,
  customs: [],
  applied: [],
  existing: [],
  sector: 'private',
  ...extra,
});
const item = (index: number, userId: number, start: string, end: string, t = 500_000, a = 0): PlanItem => ({
  index,
  rawId: String(userId),
  userId,
  start,
  end,
  taxableIncome: naira(t),
  reimbursements: 0n,
  otherAllowances: naira(a),
});
const rows = (ctx: PlanContext, items: PlanItem[]) =>
  planPaystubRun(ctx, items).paystubs.map(
    ({ paystub: p }) =>
      `${p.userId} ${p.end} nhf ${p.nhf} pension ${p.pension}/${p.employerPension} tax ${p.taxWithheld} paye ${p.payeState}`,
  );

describe('planPaystubRun: the tax year', () => {
  test('each paystub records the state of 1 January of its own period year; the snapshot keeps the current state', () => {
    const users = [user(1, { state_of_residence: 'OG' }), user(2, { state_of_residence: 'KN' }), user(3, { state_of_residence: 'FC' })];
    const stateHistory = [h('2024-03-01', 'LA', 1), h('2026-06-15', 'OG', 1), h('2026-04-10', 'KN', 2)];
    const plan = planPaystubRun(context(users, { stateHistory }), [
      item(0, 1, '2026-11-01', '2026-11-30'),
      item(1, 1, '2025-12-01', '2025-12-31'),
      item(2, 2, '2026-11-01', '2026-11-30'),
      item(3, 3, '2026-11-01', '2026-11-30'), // no history: the current state
    ]);
    expect(plan.paystubs.map(({ paystub: p }) => [p.userId, p.end, p.payeState, p.stateOfResidence])).toEqual([
      [1, '2025-12-31', 'LA', 'OG'],
      [1, '2026-11-30', 'LA', 'OG'],
      [2, '2026-11-30', 'KN', 'KN'],
      [3, '2026-11-30', 'FC', 'FC'],
    ]);
  });

  test('NHF: not below the minimum wage as a monthly figure (T + allowances) × N ÷ 12, nor for an expatriate', () => {
    const users = [
      user(1),
      user(2, { payment_frequency: 'weekly' }),
      user(3, { is_expatriate: true }),
      user(4, { is_expatriate: false, nhf_opt_in: false }),
    ];
    // User 1: ₦69,999.99 (below: no NHF, exempt from tax too), ₦60,000 + ₦10,000 allowances (at the wage: NHF 1 % of
    // T = 600). User 2 weekly: ₦16,000 (₦69,333.33 a month: none), ₦17,000 (₦73,666.67: 170). User 3 expatriate: none.
    // User 4 public sector: NHF whatever the opt-in.
    const items = [
      item(0, 1, '2026-01-01', '2026-01-31', 69_999.99),
      item(1, 1, '2026-02-01', '2026-02-28', 60_000, 10_000),
      item(2, 2, '2026-01-05', '2026-01-11', 16_000),
      item(3, 2, '2026-01-12', '2026-01-18', 17_000),
      item(4, 3, '2026-01-01', '2026-01-31'),
      item(5, 4, '2026-01-01', '2026-01-31'),
    ];
    const nhf = (ctx: PlanContext) => planPaystubRun(ctx, items).paystubs.map(({ item: i, paystub: p }) => `${i.index} ${p.nhf}`);
    // (In planning order: by period start.)
    expect(nhf(context(users))).toEqual(['0 0.00', '4 0.00', '5 0.00', '2 0.00', '3 170.00', '1 600.00']);
    expect(nhf(context(users, { sector: 'public' }))).toEqual(['0 0.00', '4 0.00', '5 5000.00', '2 0.00', '3 170.00', '1 600.00']);
  });

  test('an off-cycle paystub (no salary) is measured on the employee’s salary: NHF on arrears unless that is below the wage', () => {
    const arrears = builtInPayItemType('arrears') as PayItemType;
    const offCycle = (index: number, userId: number, salary: number): PlanItem => ({
      ...item(index, userId, '2026-03-01', '2026-03-31', 0),
      offCycle: true,
      marginTaxableIncome: naira(salary),
      items: [{ type: arrears, amount: naira(100_000), description: null, originPeriod: '2026-01' }],
    });
    // Arrears of ₦100,000 split like salary: NHF 2.5 % of 40 % = 1,000 for a ₦500,000 earner; none for a ₦60,000 one.
    const plan = planPaystubRun(context([user(1), user(2)]), [offCycle(0, 1, 500_000), offCycle(1, 2, 60_000)]);
    expect(plan.paystubs.map(({ paystub: p }) => [p.userId, p.nhf])).toEqual([
      [1, '1000.00'],
      [2, '0.00'],
    ]);
  });

  test('a pension-exempt employee: no employee or employer pension, more tax (engine golden: 71,600)', () => {
    const users = [user(1, { pension_exempt: true }), user(2, { pension_exempt: false }), user(3)];
    const items = [1, 2, 3].map((id) => item(id, id, '2026-01-01', '2026-01-31'));
    expect(rows(context(users), items)).toEqual([
      '1 2026-01-31 nhf 5000.00 pension 0.00/0.00 tax 71600.00 paye null',
      '2 2026-01-31 nhf 5000.00 pension 36000.00/45000.00 tax 65120.00 paye null',
      '3 2026-01-31 nhf 5000.00 pension 36000.00/45000.00 tax 65120.00 paye null',
    ]);
  });
});
