// Golden tables of the run planner: which items become paystubs with which figures, custom
// contributions and one_time applications, and which fail. Pure: no database. Figures in naira;
// those marked "engine" are engine.test.ts golden cases (hand-computed), the rest follow from them.
// Defaults: T 500,000 monthly. PITA (pay_period_end before 2026): tax 66,794.67, net 392,205.33;
// NTA 2025 (from 2026-01-01): tax 65,120, net 393,880. Pension 36,000 and NHF 5,000 under both.
import { describe, expect, test } from 'vitest';
import { DEDUCTION_UNITS_PER_KOBO } from '../../tax-engine/cumulative.js';
import { DEFAULT_SETTINGS } from '../../tax-engine/engine.types.js';
import { koboToString, toKobo } from '../../tax-engine/money.js';
import type { PlanContext, PlanCustom, PlanItem } from './paystubs.plan.types.js';
import { planPaystubRun } from './paystubs.planner.js';
import { runTotals } from './paystubs.totals.rules.js';

const naira = (value: string | number) => toKobo(value) ?? 0n;

/** Item `index` for `userId` over [start, end]; T 500,000 unless `t` says otherwise. */
function item(index: number, userId: number, start: string, end: string, t: number = 500_000, r = 0, a = 0): PlanItem {
  return {
    index,
    rawId: String(userId),
    userId,
    start,
    end,
    taxableIncome: naira(t),
    reimbursements: naira(r),
    otherAllowances: naira(a),
  };
}

const CONTRACT = 7; // a user type
const WELFARE: PlanCustom = {
  id: 10,
  name: 'Welfare',
  type: 'percentage',
  apply_to: 'gross_pay',
  employee_value: '2',
  employer_value: null,
  frequency: 'per_paystub',
  target_user_type_ids: null,
  target_user_ids: null,
};
const LEVY: PlanCustom = {
  ...WELFARE,
  id: 11,
  name: 'Levy',
  apply_to: 'net_pay',
  employee_value: '5',
  employer_value: '1',
  target_user_type_ids: [CONTRACT],
};
const SIGN_ON: PlanCustom = {
  ...WELFARE,
  id: 12,
  name: 'Sign-on',
  type: 'amount',
  employee_value: '2500.50',
  frequency: 'one_time',
  target_user_ids: [1],
};

function context(overrides: Partial<PlanContext> = {}): PlanContext {
  return {
    settings: DEFAULT_SETTINGS,
    companyPaymentFrequency: 'Monthly',
    users: [
      { id: 1, user_type_id: null, payment_frequency: null, annual_rent_paid: null, life_assurance_premium: null },
      { id: 2, user_type_id: CONTRACT, payment_frequency: null, annual_rent_paid: null, life_assurance_premium: null },
      { id: 3, user_type_id: null, payment_frequency: 'weekly', annual_rent_paid: null, life_assurance_premium: null },
      { id: 4, user_type_id: null, payment_frequency: null, annual_rent_paid: '1200000.00', life_assurance_premium: null },
    ],
    customs: [],
    applied: [],
    existing: [],
    ...overrides,
  };
}

/** The plan as readable rows: one line per paystub (planning order), failures by item index. */
function summary(ctx: PlanContext, items: PlanItem[]) {
  const plan = planPaystubRun(ctx, items);
  return {
    paystubs: plan.paystubs.map((p) => {
      const customs = p.records.map((r) => ` ${r.name} ${r.employee}/${r.employer}`).join('');
      const oneTime = p.oneTime.length ? ` one_time ${p.oneTime.join(',')}` : '';
      return `#${p.item.index} user ${p.paystub.userId} ${p.paystub.start} ${p.paystub.regime} tax ${p.paystub.taxWithheld} net ${p.paystub.netPay}${customs}${oneTime}`;
    }),
    failed: Object.fromEntries(plan.failed.map((f) => [f.index, f.errors])),
  };
}

const DUPLICATE = { pay_period_start: ['A paystub for this user and pay period already exists.'] };
const EXCEEDS = { taxable_income: ['Deductions exceed pay.'] };

describe('planPaystubRun', () => {
  test.each<{ name: string; context?: Partial<PlanContext>; items: PlanItem[]; paystubs: string[]; failed?: Record<number, unknown> }>([
    {
      name: 'regime by pay_period_end, not by start (engine "top band" and "monthly 500,000")',
      items: [item(0, 1, '2025-12-01', '2025-12-31'), item(1, 2, '2025-12-15', '2026-01-14')],
      paystubs: ['#0 user 1 2025-12-01 pita tax 66794.67 net 392205.33', '#1 user 2 2025-12-15 nta2025 tax 65120.00 net 393880.00'],
    },
    {
      name: 'periods per year: the user frequency over the company one (engine "weekly"); rent relief (engine "rent relief below the cap")',
      items: [item(0, 3, '2026-03-02', '2026-03-06', 100_000), item(1, 4, '2026-01-01', '2026-01-31')],
      paystubs: ['#1 user 4 2026-01-01 nta2025 tax 61520.00 net 397480.00', '#0 user 3 2026-03-02 nta2025 tax 12485.54 net 79314.46'],
    },
    {
      name: 'the company frequency for a user without one',
      context: { companyPaymentFrequency: 'Weekly' },
      items: [item(0, 1, '2026-03-02', '2026-03-06', 100_000)],
      paystubs: ['#0 user 1 2026-03-02 nta2025 tax 12485.54 net 79314.46'],
    },
    {
      name: 'allowances and reimbursements (the HTTP test "creates a run": T 100,000, R 1,234.50, A 20,000)',
      items: [item(0, 1, '2026-01-01', '2026-01-31', 100_000, 1234.5, 20_000)],
      paystubs: ['#0 user 1 2026-01-01 nta2025 tax 3770.00 net 109264.50'],
    },
    {
      name: 'settings: no tax under tax_regime none',
      context: { settings: { ...DEFAULT_SETTINGS, taxRegime: 'none' } },
      items: [item(0, 1, '2026-01-01', '2026-01-31')],
      paystubs: ['#0 user 1 2026-01-01 none tax 0.00 net 459000.00'],
    },
    {
      name: 'custom contributions by target: everyone, a user type, one user (one_time)',
      context: { customs: [WELFARE, LEVY, SIGN_ON] },
      items: [
        item(0, 1, '2025-01-01', '2025-01-31'),
        item(1, 2, '2025-03-01', '2025-03-31'),
        item(2, 3, '2025-01-01', '2025-01-07', 100_000),
      ],
      paystubs: [
        // PITA net before customs 392,205.33; Welfare 2 % of gross; Sign-on 2,500.50 (the HTTP test's figures).
        '#0 user 1 2025-01-01 pita tax 66794.67 net 379704.83 Welfare 10000.00/0.00 Sign-on 2500.50/0.00 one_time 12',
        // Weekly T 100,000: GI 5.2m, D 426,400, CRA 1,154,720, chargeable 3,618,880 → 660,531.20 ÷ 52.
        '#2 user 3 2025-01-01 pita tax 12702.52 net 77097.48 Welfare 2000.00/0.00',
        // Levy 5 % / 1 % of 392,205.33 = 19,610.27 / 3,922.05.
        '#1 user 2 2025-03-01 pita tax 66794.67 net 362595.06 Welfare 10000.00/0.00 Levy 19610.27/3922.05',
      ],
    },
    {
      name: 'one_time: once per user, on the earliest period whatever the item order',
      context: { customs: [SIGN_ON] },
      items: [item(0, 1, '2025-02-01', '2025-02-28'), item(1, 1, '2025-01-01', '2025-01-31'), item(2, 1, '2025-03-01', '2025-03-31')],
      paystubs: [
        '#1 user 1 2025-01-01 pita tax 66794.67 net 389704.83 Sign-on 2500.50/0.00 one_time 12',
        '#0 user 1 2025-02-01 pita tax 66794.67 net 392205.33',
        '#2 user 1 2025-03-01 pita tax 66794.67 net 392205.33',
      ],
    },
    {
      name: 'one_time: already applied before this run, so never again',
      context: { customs: [SIGN_ON], applied: [{ custom_contribution_id: SIGN_ON.id, user_id: 1 }] },
      items: [item(0, 1, '2025-01-01', '2025-01-31')],
      paystubs: ['#0 user 1 2025-01-01 pita tax 66794.67 net 392205.33'],
    },
    {
      name: 'one_time: the earliest item fails, so the next period of that user gets it',
      // T 1,000: net before customs 918 (no tax: exempt), less 2,500.50 is negative.
      context: { customs: [SIGN_ON] },
      items: [item(0, 1, '2025-02-01', '2025-02-28'), item(1, 1, '2025-01-01', '2025-01-31', 1000)],
      paystubs: ['#0 user 1 2025-02-01 pita tax 66794.67 net 389704.83 Sign-on 2500.50/0.00 one_time 12'],
      failed: { 1: EXCEEDS },
    },
    {
      name: 'per-item failure: deductions exceed pay fails that item only',
      context: { customs: [{ ...WELFARE, type: 'amount', employee_value: '1000000' }] },
      items: [item(0, 1, '2026-05-01', '2026-05-31'), item(1, 2, '2026-05-01', '2026-05-31', 2_000_000)],
      // T 2m: chargeable 22,032,000 → 330,000 + 1,620,000 + 21 % × 10,032,000 = 4,056,720 ÷ 12.
      paystubs: ['#1 user 2 2026-05-01 nta2025 tax 338060.00 net 497940.00 Welfare 1000000.00/0.00'],
      failed: { 0: EXCEEDS },
    },
    {
      name: 'several items of one user: other periods pass, the same period again fails, an existing period fails',
      context: { existing: [{ user_id: 1, pay_period_start: '2026-03-01', pay_period_end: '2026-03-31' }] },
      items: [
        item(0, 1, '2026-02-01', '2026-02-28'),
        item(1, 1, '2026-01-01', '2026-01-31'),
        item(2, 1, '2026-01-01', '2026-01-31', 100_000),
        item(3, 1, '2026-03-01', '2026-03-31'),
        item(4, 1, '2026-01-01', '2026-01-15'),
      ],
      paystubs: [
        '#1 user 1 2026-01-01 nta2025 tax 65120.00 net 393880.00',
        '#4 user 1 2026-01-01 nta2025 tax 65120.00 net 393880.00',
        '#0 user 1 2026-02-01 nta2025 tax 65120.00 net 393880.00',
      ],
      failed: { 2: DUPLICATE, 3: DUPLICATE },
    },
    {
      name: 'a user missing from the context (unknown, deleted, another company) fails "The selected id is invalid."',
      items: [item(0, 99, '2026-01-01', '2026-01-31'), item(1, 1, '2026-01-01', '2026-01-31')],
      paystubs: ['#1 user 1 2026-01-01 nta2025 tax 65120.00 net 393880.00'],
      failed: { 0: { id: ['The selected id is invalid.'] } },
    },
    {
      name: 'a failed item does not take its period: a later item for it is planned',
      items: [item(0, 1, '2026-01-01', '2026-01-31', 1000, 0, 0), item(1, 1, '2026-01-01', '2026-01-31')],
      context: { customs: [{ ...WELFARE, type: 'amount', employee_value: '1000' }] },
      paystubs: ['#1 user 1 2026-01-01 nta2025 tax 65120.00 net 392880.00 Welfare 1000.00/0.00'],
      failed: { 0: EXCEEDS },
    },
  ])('$name', ({ context: overrides, items, paystubs, failed = {} }) => {
    expect(summary(context(overrides), items)).toEqual({ paystubs, failed });
  });

  test('the failure echoes the id as sent', () => {
    const plan = planPaystubRun(context(), [{ ...item(5, 99, '2026-01-01', '2026-01-31'), rawId: ' 99' }]);
    expect(plan.failed).toEqual([{ index: 5, id: ' 99', errors: { id: ['The selected id is invalid.'] } }]);
  });

  test('rows are ready to insert: amounts as decimal strings, records without their paystub id', () => {
    const [planned] = planPaystubRun(context({ customs: [LEVY] }), [item(0, 2, '2026-01-01', '2026-01-31', 500_000, 10, 20)]).paystubs;
    expect(planned.paystub).toEqual({
      userId: 2,
      start: '2026-01-01',
      end: '2026-01-31',
      taxableIncome: '500000.00',
      reimbursements: '10.00',
      otherAllowances: '20.00',
      grossPay: '500020.00',
      netPay: '374215.00', // 500,020 − 65,120 − 36,000 − 5,000 = 393,900; − 5 % (19,695) + R 10
      taxWithheld: '65120.00',
      pension: '36000.00',
      nhf: '5000.00',
      nhis: '0.00',
      otherDeductions: '19695.00',
      employerPension: '45000.00',
      nhisEmployer: '0.00',
      employerCost: '548959.00',
      regime: 'nta2025',
      // D ÷ N = pension 36,000 + NHF 5,000 = 4,100,000 kobo × 156 × 10^12 units.
      taxDeductions: '639600000000000000000',
      // The snapshot: the user's statutory identity (unknown here) and T × 40/30/20 %.
      stateOfResidence: null,
      pfaCode: null,
      rsaPin: null,
      nhfNumber: null,
      basicPay: '200000.00',
      housingPay: '150000.00',
      transportPay: '100000.00',
      // No state known: no PAYE authority (the remittances' missing list).
      payeState: null,
      // No pay items: nothing beyond T is taxable, nothing irregular, a regular paystub.
      taxableItems: '0.00',
      irregularGross: '0.00',
      nsitfItems: '0.00',
      offCycle: false,
      taxTrueUp: '0.00',
      items: [],
    });
    expect(planned.records).toEqual([
      { customContributionId: LEVY.id, userId: 2, name: 'Levy', employee: '19695.00', employer: '3939.00', taxDeductible: false },
    ]);
  });

  test("a record keeps its rule's tax_deductible (the pension schedule's voluntary column reads it)", () => {
    const voluntary: PlanCustom = { ...WELFARE, id: 12, name: 'Voluntary pension', tax_deductible: true, target_user_ids: [2] };
    const [planned] = planPaystubRun(context({ customs: [WELFARE, voluntary] }), [item(0, 2, '2026-01-01', '2026-01-31')]).paystubs;
    expect(planned.records.map((r) => [r.name, r.taxDeductible])).toEqual([
      ['Welfare', false],
      ['Voluntary pension', true],
    ]);
  });
});

describe('runTotals', () => {
  test('exact sums of the rounded figures; employees counted once', () => {
    const plan = planPaystubRun(context({ customs: [LEVY] }), [
      item(0, 1, '2026-01-01', '2026-01-31'),
      item(1, 1, '2026-02-01', '2026-02-28', 100_000, 1234.5, 20_000),
      item(2, 2, '2026-01-01', '2026-01-31', 500_000, 10, 20),
    ]);
    const totals = runTotals(plan.paystubs);
    const text = Object.fromEntries(Object.entries(totals).map(([name, v]) => [name, typeof v === 'bigint' ? koboToString(v) : v]));
    expect(text).toEqual({
      employees: 2,
      grossPay: '1120020.00', // 500,000 + 120,000 + 500,020
      irregularGross: '0.00',
      taxWithheld: '134010.00', // 65,120 + 3,770 + 65,120
      taxTrueUp: '0.00',
      employeePension: '79200.00', // 36,000 + 7,200 + 36,000
      employerPension: '99000.00',
      nhf: '11000.00',
      nhisEmployee: '0.00',
      nhisEmployer: '0.00',
      otherDeductions: '19695.00',
      reimbursements: '1244.50',
      netPay: '877359.50', // 393,880 + 109,264.50 + 374,215
      employerCost: '1222959.00', // 545,000 + 129,000 + 548,959
    });
    expect(runTotals([])).toMatchObject({ employees: 0, netPay: 0n });
  });
});

describe('planPaystubRun: statutory amendments (docs/payroll.md)', () => {
  const cumulative = { ...DEFAULT_SETTINGS, taxMethod: 'cumulative' as const };
  const months = [
    ['2026-07-01', '2026-07-31'],
    ['2026-08-01', '2026-08-31'],
    ['2026-09-01', '2026-09-30'],
    ['2026-10-01', '2026-10-31'],
    ['2026-11-01', '2026-11-30'],
    ['2026-12-01', '2026-12-31'],
  ];
  const D_PER_MONTH = (41_000n * 100n * DEDUCTION_UNITS_PER_KOBO).toString(); // 8.2 % of 500,000, exact

  test('cumulative: a July joiner’s six periods in one run, in any item order (engine golden: 293,100)', () => {
    const items = months.map(([start, end], i) => item(i, 1, start, end)).reverse();
    const plan = planPaystubRun(context({ settings: cumulative }), items);
    expect(plan.paystubs.map((p) => p.paystub.taxWithheld)).toEqual(['0.00', '57700.00', '58850.00', '58850.00', '58850.00', '58850.00']);
    expect(koboToString(runTotals(plan.paystubs).taxWithheld)).toBe('293100.00');
    expect(plan.paystubs[1].figures.taxDeductions.toString()).toBe(D_PER_MONTH);
  });

  test('cumulative: stored paystubs of the same year and earlier ends count; other years and later ends do not', () => {
    const stored = (end: string, tax: string) => ({
      user_id: 1,
      pay_period_end: end,
      taxable_income: '500000.00',
      tax_deductions: D_PER_MONTH,
      tax_withheld: tax,
    });
    const yearToDate = [
      stored('2026-07-31', '0.00'),
      stored('2026-08-31', '57700.00'),
      stored('2025-12-31', '66794.67'), // another year
      stored('2026-10-31', '58850.00'), // ends after the item
      { ...stored('2026-08-31', '57700.00'), user_id: 2 }, // another user
    ];
    const plan = planPaystubRun(context({ settings: cumulative, yearToDate }), [item(0, 1, '2026-09-01', '2026-09-30')]);
    expect(plan.paystubs.map((p) => p.paystub.taxWithheld)).toEqual(['58850.00']);
    // Annualised ignores them: 65,120 as ever.
    const annualised = planPaystubRun(context({ yearToDate }), [item(0, 1, '2026-09-01', '2026-09-30')]);
    expect(annualised.paystubs.map((p) => p.paystub.taxWithheld)).toEqual(['65120.00']);
  });

  test('NHF by sector and opt-in; absent opt-in keeps NHF (engine golden: 66,020 tax without NHF)', () => {
    const user = (id: number, nhf_opt_in?: boolean) => ({
      id,
      user_type_id: null,
      payment_frequency: null,
      annual_rent_paid: null,
      life_assurance_premium: null,
      nhf_opt_in,
    });
    const users = [user(1, false), user(2, true), user(3)];
    const items = [1, 2, 3].map((id) => item(id, id, '2026-01-01', '2026-01-31'));
    const rows = (sector?: 'private' | 'public') =>
      planPaystubRun(context({ users, sector }), items).paystubs.map(
        (p) => `${p.paystub.userId} ${p.paystub.nhf} ${p.paystub.taxWithheld}`,
      );
    expect(rows('private')).toEqual(['1 0.00 66020.00', '2 5000.00 65120.00', '3 5000.00 65120.00']);
    expect(rows('public')).toEqual(['1 5000.00 65120.00', '2 5000.00 65120.00', '3 5000.00 65120.00']);
    expect(rows(undefined)).toEqual(rows('private'));
  });

  test('a period ending before 2021-01-01 fails on pay_period_end; the rest of the run goes on', () => {
    expect(summary(context(), [item(0, 1, '2020-12-01', '2020-12-31'), item(1, 1, '2021-01-01', '2021-01-31')])).toEqual({
      paystubs: ['#1 user 1 2021-01-01 pita tax 66794.67 net 392205.33'],
      failed: { 0: { pay_period_end: ['Pay periods ending before 2021-01-01 are not supported.'] } },
    });
  });

  test('a tax-deductible custom contribution reduces the tax (2 % of gross: 120,000 a year in D)', () => {
    // D = 492,000 + 120,000 = 612,000; chargeable 5,388,000 → 330,000 + 18 % × 2,388,000 = 759,840 ÷ 12 = 63,320;
    // net = 500,000 − 63,320 − 36,000 − 5,000 − 10,000 = 385,680.
    expect(
      summary(context({ customs: [{ ...WELFARE, tax_deductible: true }] }), [item(0, 1, '2026-01-01', '2026-01-31')]).paystubs,
    ).toEqual(['#0 user 1 2026-01-01 nta2025 tax 63320.00 net 385680.00 Welfare 10000.00/0.00']);
  });
});
