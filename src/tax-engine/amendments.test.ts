// Golden tables of the statutory amendments (docs/payroll.md, "Statutory amendments"): NHF voluntary
// in the private sector, no periods before 2021, tax-deductible custom contributions, cumulative
// tax. Every figure was computed by hand; the arithmetic is in the comments. Defaults as in
// engine.test.ts: pension 7.2 % of T, NHF 1 % of T, so D = 8.2 % of GI (7.2 % without NHF). Amounts
// in naira.
import { describe, expect, test } from 'vitest';
import { belowMinimumWage, nhfApplies, nhfAppliesTo, pensionApplies } from './amendments.js';
import { addToYtd, EMPTY_YTD, periodOrdinal, type YtdState } from './cumulative.js';
import { computePaystub, prepareCustom, prepareRun } from './engine.js';
import {
  type CustomContributionRule,
  DEFAULT_SETTINGS,
  type EngineSettings,
  type PaystubInput,
  type PaystubResult,
} from './engine.types.js';
import { koboToString, toKobo } from './money.js';

const k = (naira: string | number) => toKobo(naira) as bigint;
const s = koboToString;

function compute(settings: Partial<EngineSettings>, input: Partial<PaystubInput> & { t: string; end: string }): PaystubResult {
  return computePaystub(prepareRun({ ...DEFAULT_SETTINGS, ...settings }), {
    payPeriodEnd: input.end,
    taxableIncome: k(input.t),
    reimbursements: 0n,
    otherAllowances: 0n,
    periodsPerYear: 12,
    ...input,
  });
}
function figures(settings: Partial<EngineSettings>, input: Partial<PaystubInput> & { t: string; end: string }) {
  const result = compute(settings, input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.figures;
}
const custom = (rule: Omit<CustomContributionRule, 'id' | 'name'>, id = 1) => prepareCustom({ id, name: `c${id}`, ...rule });

describe('NHF voluntary in the private sector (Business Facilitation Act 2023 s.45)', () => {
  test('applies to the public sector or an employee who opted in; an opt-in not given keeps NHF', () => {
    expect(nhfApplies('private', false)).toBe(false);
    expect(nhfApplies('private', true)).toBe(true);
    expect(nhfApplies('public', false)).toBe(true);
    expect(nhfApplies('public', true)).toBe(true);
    expect(nhfApplies(undefined, undefined)).toBe(true);
    expect(nhfApplies('private', undefined)).toBe(true);
  });

  test('not deducted, and not in D, for a private-sector employee who did not opt in', () => {
    // T 500,000 (2026): D = 7.2 % × 6,000,000 = 432,000; chargeable 5,568,000; tax = 330,000
    // + 18 % × 2,568,000 (462,240) = 792,240 ÷ 12 = 66,020; net = 500,000 − 66,020 − 36,000 = 397,980.
    const f = figures({}, { t: '500000', end: '2026-01-31', nhfApplies: false });
    expect([s(f.nhf), s(f.taxWithheld), s(f.pension), s(f.netPay)]).toEqual(['0.00', '66020.00', '36000.00', '397980.00']);
  });

  test('deducted when it applies: the figures of before the amendment (65,120 tax, 5,000 NHF)', () => {
    for (const applies of [true, undefined]) {
      const f = figures({}, { t: '500000', end: '2026-01-31', nhfApplies: applies });
      expect([s(f.nhf), s(f.taxWithheld), s(f.netPay)]).toEqual(['5000.00', '65120.00', '393880.00']);
    }
  });

  test('nhf_enabled false: no NHF even for an employee who opted in', () => {
    const f = figures({ nhfEnabled: false }, { t: '500000', end: '2026-01-31', nhfApplies: true });
    expect([s(f.nhf), s(f.taxWithheld)]).toEqual(['0.00', '66020.00']);
  });
});

describe('the tax year: NHF below the minimum wage or for expatriates, pension exemption', () => {
  const optedIn = { sector: 'private' as const, nhfOptIn: true };
  // Monthly pay = (T + other allowances) × N ÷ 12 against the minimum wage on pay_period_end
  // (₦30,000 a month; ₦70,000 from 2024-07-29), exact in kobo; "below" is strictly less.
  test.each([
    ['monthly ₦69,999.99', '69999.99', '0', 12, '2026-01-31', true],
    ['monthly ₦70,000.00 (at the wage)', '70000', '0', 12, '2026-01-31', false],
    ['₦60,000 + ₦10,000 non-taxable allowances', '60000', '10000', 12, '2026-01-31', false],
    ['weekly ₦16,000 (× 52 ÷ 12 = ₦69,333.33)', '16000', '0', 52, '2026-01-04', true],
    ['weekly ₦16,153.85 (₦70,000.02 a month)', '16153.85', '0', 52, '2026-01-04', false],
    ['bi-weekly ₦32,307.69 (₦69,999.995 a month)', '32307.69', '0', 26, '2026-01-11', true],
    ['monthly ₦50,000 on 2024-07-28 (wage ₦30,000)', '50000', '0', 12, '2024-07-28', false],
    ['monthly ₦50,000 on 2024-07-29 (wage ₦70,000)', '50000', '0', 12, '2024-07-29', true],
  ])('%s: below the minimum wage %s', (_label, t, a, n, end, below) => {
    expect(belowMinimumWage(k(t) + k(a), n, end)).toBe(below);
    expect(nhfAppliesTo(optedIn, { periodPay: k(t) + k(a), periodsPerYear: n, payPeriodEnd: end })).toBe(!below);
  });

  test('no NHF for an expatriate or below the minimum wage, in the public sector too; else sector and opt-in decide', () => {
    const pay = { periodPay: k('500000'), periodsPerYear: 12, payPeriodEnd: '2026-01-31' };
    const low = { ...pay, periodPay: k('50000') };
    expect(nhfAppliesTo({ sector: 'public', nhfOptIn: false, isExpatriate: true }, pay)).toBe(false);
    expect(nhfAppliesTo({ sector: 'public', nhfOptIn: false }, low)).toBe(false);
    expect(nhfAppliesTo({ sector: 'public', nhfOptIn: false, isExpatriate: false }, pay)).toBe(true);
    expect(nhfAppliesTo({ sector: 'private', nhfOptIn: false }, pay)).toBe(false);
    expect(nhfAppliesTo({ sector: 'private', nhfOptIn: true, isExpatriate: null }, pay)).toBe(true);
    expect(nhfAppliesTo({ sector: undefined, nhfOptIn: undefined }, pay)).toBe(true);
  });

  test('pension applies unless the employee is exempt', () => {
    expect([pensionApplies(true), pensionApplies(false), pensionApplies(null), pensionApplies(undefined)]).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  test('an exempt employee has no employee or employer pension, and none in D', () => {
    // T 500,000 (2026), NHF on: D = 1 % × 6,000,000 = 60,000; chargeable 5,940,000; tax = 330,000
    // + 18 % × 2,940,000 (529,200) = 859,200 ÷ 12 = 71,600; net = 500,000 − 71,600 − 5,000 = 423,400.
    const f = figures({}, { t: '500000', end: '2026-01-31', pensionApplies: false });
    expect([s(f.pension), s(f.employerPension), s(f.nhf), s(f.taxWithheld), s(f.netPay), s(f.employerCost)]).toEqual([
      '0.00',
      '0.00',
      '5000.00',
      '71600.00',
      '423400.00',
      '500000.00',
    ]);
    // Without NHF too: D = 0; tax = 330,000 + 18 % × 3,000,000 = 870,000 ÷ 12 = 72,500; net 427,500.
    const both = figures({}, { t: '500000', end: '2026-01-31', pensionApplies: false, nhfApplies: false });
    expect([s(both.pension), s(both.nhf), s(both.taxWithheld), s(both.netPay)]).toEqual(['0.00', '0.00', '72500.00', '427500.00']);
    // pensionApplies true or absent: the figures of before (65,120 tax, 36,000 pension).
    for (const applies of [true, undefined]) {
      const f2 = figures({}, { t: '500000', end: '2026-01-31', pensionApplies: applies });
      expect([s(f2.pension), s(f2.employerPension), s(f2.taxWithheld)]).toEqual(['36000.00', '45000.00', '65120.00']);
    }
    // The company's pension off: exemption changes nothing.
    const off = figures({ pensionEnabled: false }, { t: '500000', end: '2026-01-31', pensionApplies: false });
    expect([s(off.pension), s(off.taxWithheld)]).toEqual(['0.00', '71600.00']);
  });

  test('the exempt variant of a run is prepared once and kept apart from the NHF one', () => {
    const run = prepareRun(DEFAULT_SETTINGS);
    const input = { payPeriodEnd: '2026-01-31', taxableIncome: k('500000'), reimbursements: 0n, otherAllowances: 0n, periodsPerYear: 12 };
    computePaystub(run, { ...input, pensionApplies: false });
    const exempt = run.withoutPension;
    computePaystub(run, { ...input, pensionApplies: false, nhfApplies: false });
    computePaystub(run, { ...input, nhfApplies: false });
    expect(run.withoutPension).toBe(exempt);
    expect(exempt?.withoutNhf).toBeDefined();
    expect(run.withoutNhf).not.toBe(exempt?.withoutNhf);
  });
});

describe('periods ending before 2021-01-01 (before Finance Act 2020)', () => {
  test('fail on pay_period_end, before any other check', () => {
    const error = { ok: false, errors: { pay_period_end: ['Pay periods ending before 2021-01-01 are not supported.'] } };
    expect(compute({}, { t: '500000', end: '2020-12-31' })).toEqual(error);
    expect(compute({}, { t: '500000', end: '1999-01-31' })).toEqual(error);
    const loan = custom({ type: 'amount', applyTo: 'gross_pay', employeeValue: '9000000', employerValue: null });
    expect(compute({}, { t: '500000', end: '2020-12-31', customs: [loan] })).toEqual(error);
  });

  test('a period ending on 2021-01-01 is computed (PITA, as "top band" in engine.test.ts: 66,794.67)', () => {
    expect(s(figures({}, { t: '500000', end: '2021-01-01' }).taxWithheld)).toBe('66794.67');
  });
});

describe('tax-deductible custom contributions (Pension Reform Act 2014 s.10(1); NTA 2025 s.30)', () => {
  test('a percentage of gross: its annual employee part is added to D (NTA 2025)', () => {
    // 5 % of gross 500,000 = 25,000 a month, 300,000 a year: D = 492,000 + 300,000 = 792,000;
    // chargeable 5,208,000; tax = 330,000 + 18 % × 2,208,000 (397,440) = 727,440 ÷ 12 = 60,620;
    // net = 500,000 − 60,620 − 36,000 − 5,000 − 25,000 = 373,380.
    const voluntary = custom({ type: 'percentage', applyTo: 'gross_pay', employeeValue: '5', employerValue: null, taxDeductible: true });
    const f = figures({}, { t: '500000', end: '2026-01-31', customs: [voluntary] });
    expect([s(f.taxWithheld), s(f.otherDeductions), s(f.netPay)]).toEqual(['60620.00', '25000.00', '373380.00']);
  });

  test('an amount, exact to the kobo (PITA)', () => {
    // 10,000.50 a month → 120,006 a year: D = 492,000 + 120,006 = 612,006; base 5,387,994;
    // CRA = 200,000 + 20 % × 5,387,994 (1,077,598.80) = 1,277,598.80; taxable = 6,000,000 − 1,277,598.80
    // − 612,006 = 4,110,395.20; tax = 560,000 + 24 % × 910,395.20 (218,494.848) = 778,494.848 ÷ 12
    // = 64,874.5707 → 64,874.57; net = 500,000 − 64,874.57 − 36,000 − 5,000 − 10,000.50 = 384,124.93.
    const voluntary = custom({
      type: 'amount',
      applyTo: 'gross_pay',
      employeeValue: '10000.50',
      employerValue: '5000',
      taxDeductible: true,
    });
    const f = figures({}, { t: '500000', end: '2025-03-31', customs: [voluntary] });
    expect([s(f.taxWithheld), s(f.netPay)]).toEqual(['64874.57', '384124.93']);
  });

  test('not deductible (the default): tax unchanged (65,120), only net pay falls', () => {
    const plain = custom({ type: 'percentage', applyTo: 'gross_pay', employeeValue: '5', employerValue: null });
    const f = figures({}, { t: '500000', end: '2026-01-31', customs: [plain] });
    expect([s(f.taxWithheld), s(f.netPay)]).toEqual(['65120.00', '368880.00']);
  });

  test('on net pay or without an employee part it cannot be deductible (it would depend on the tax)', () => {
    expect(() => custom({ type: 'percentage', applyTo: 'net_pay', employeeValue: '5', employerValue: null, taxDeductible: true })).toThrow(
      RangeError,
    );
    expect(() => custom({ type: 'amount', applyTo: 'gross_pay', employeeValue: null, employerValue: '5', taxDeductible: true })).toThrow(
      RangeError,
    );
  });
});

/** Computes a user's paystubs in order, threading the year to date; returns each period's tax. */
function year(settings: Partial<EngineSettings>, periods: { end: string; t: string }[], n = 12, extra: Partial<PaystubInput> = {}) {
  const run = prepareRun({ ...DEFAULT_SETTINGS, ...settings });
  let ytd: YtdState = EMPTY_YTD;
  const taxes: string[] = [];
  for (const p of periods) {
    const t = k(p.t);
    const result = computePaystub(run, {
      payPeriodEnd: p.end,
      taxableIncome: t,
      reimbursements: 0n,
      otherAllowances: 0n,
      periodsPerYear: n,
      ytd,
      ...extra,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    ytd = addToYtd(ytd, { taxableIncome: t, deductions: result.figures.taxDeductions, taxWithheld: result.figures.taxWithheld });
    taxes.push(s(result.figures.taxWithheld));
  }
  return { taxes, total: s(ytd.taxWithheld) };
}
const MONTH_ENDS_2026 = ['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31'].map(
  (d) => `2026-${d}`,
);

describe('cumulative tax (Nigeria Tax Administration Act 2025 s.51(7))', () => {
  test('k: the month; weekly ⌈day ÷ 7⌉ capped at 52; bi-weekly ⌈day ÷ 14⌉ capped at 26', () => {
    expect(periodOrdinal('2026-07-31', 12)).toBe(7);
    expect(periodOrdinal('2026-01-07', 52)).toBe(1);
    expect(periodOrdinal('2026-01-08', 52)).toBe(2);
    expect(periodOrdinal('2026-12-23', 52)).toBe(51); // day 357
    expect(periodOrdinal('2026-12-24', 52)).toBe(52); // day 358
    expect(periodOrdinal('2026-12-31', 52)).toBe(52); // ⌈365 ÷ 7⌉ = 53, capped
    expect(periodOrdinal('2024-12-31', 52)).toBe(52); // leap year, day 366
    expect(periodOrdinal('2026-01-14', 26)).toBe(1);
    expect(periodOrdinal('2026-01-15', 26)).toBe(2);
    expect(periodOrdinal('2026-12-31', 26)).toBe(26); // ⌈365 ÷ 14⌉ = 27, capped
  });

  test('a July joiner on 500,000 a month: 293,100 withheld by December, not 390,720', () => {
    // D = 8.2 % of T (41,000 a month). Tax due to date = NTA tax(GI_ytd × 12 ÷ k, D_ytd × 12 ÷ k) × k ÷ 12:
    // Jul k 7: GI 857,142.86 (not exempt: > 840,000), D 70,285.71, chargeable 786,857.14 < 800,000 → 0.
    // Aug k 8: GI 1,500,000, D 123,000, chargeable 1,377,000 → 15 % × 577,000 = 86,550 × 8/12 = 57,700.
    // Sep k 9: GI 2,000,000, D 164,000 → 15 % × 1,036,000 = 155,400 × 9/12 = 116,550 (58,850 this month).
    // Oct k 10: GI 2,400,000, D 196,800 → 210,480 × 10/12 = 175,400 (58,850). Nov k 11: GI 2,727,272.73,
    // D 223,636.36 → 255,545.45 × 11/12 = 234,250 (58,850). Dec: GI 3,000,000, D 246,000, chargeable
    // 2,754,000 → 15 % × 1,954,000 = 293,100 (58,850): the annual tax on the 3,000,000 earned.
    // Annualised: 65,120 a month (as a full-year employee) × 6 = 390,720.
    const july = MONTH_ENDS_2026.slice(6).map((end) => ({ end, t: '500000' }));
    expect(year({ taxMethod: 'cumulative' }, july)).toEqual({
      taxes: ['0.00', '57700.00', '58850.00', '58850.00', '58850.00', '58850.00'],
      total: '293100.00',
    });
    expect(year({}, july).total).toBe('390720.00');
    expect(year({ taxMethod: 'annualised' }, july).total).toBe('390720.00');
  });

  test('a December bonus: the year withholds the annual tax on 7,000,000 (946,680), not 957,990', () => {
    // 500,000 a month and a 1,000,000 bonus in December. Jan–Nov: due to date = 781,440 × k ÷ 12, so
    // 65,120 a month (716,320). Dec: GI 7,000,000, D 574,000, chargeable 6,426,000; tax = 330,000
    // + 18 % × 3,426,000 (616,680) = 946,680 → December withholds 946,680 − 716,320 = 230,360.
    // Annualised, December is taxed as if 1,500,000 were earned every month: 241,670 (716,320 + 241,670 = 957,990).
    const months = MONTH_ENDS_2026.map((end, i) => ({ end, t: i === 11 ? '1500000' : '500000' }));
    const cumulative = year({ taxMethod: 'cumulative' }, months);
    expect(cumulative.taxes).toEqual([...Array(11).fill('65120.00'), '230360.00']);
    expect(cumulative.total).toBe('946680.00');
    expect(year({}, months)).toEqual({ taxes: [...Array(11).fill('65120.00'), '241670.00'], total: '957990.00' });
  });

  test('no refund: a period whose due amount fell withholds nothing', () => {
    // Jan 500,000 → 65,120. Feb nothing: GI_ytd 500,000 × 12 ÷ 2 = 3,000,000, D 246,000, chargeable
    // 2,754,000 → 293,100 × 2/12 = 48,850 < 65,120 withheld → 0 (the 16,270 over-withheld stays).
    expect(
      year({ taxMethod: 'cumulative' }, [
        { end: '2026-01-31', t: '500000' },
        { end: '2026-02-28', t: '0' },
      ]).taxes,
    ).toEqual(['65120.00', '0.00']);
  });

  test('the exemption is tested on GI_ytd × N ÷ k: a July joiner on 120,000 a month is exempt in July', () => {
    // Jul: 120,000 × 12 ÷ 7 = 205,714.29 ≤ 840,000 → exempt. Aug: 240,000 × 12 ÷ 8 = 360,000, exempt …
    // Dec: 720,000 ≤ 840,000 → exempt all year (annualised: GI 1,440,000, not exempt, but in the
    // 0 % band: D 118,080, chargeable 1,321,920 → 15 % × 521,920 = 78,288 ÷ 12 = 6,524 a month).
    const july = MONTH_ENDS_2026.slice(6).map((end) => ({ end, t: '120000' }));
    expect(year({ taxMethod: 'cumulative' }, july).total).toBe('0.00');
    expect(year({}, july).total).toBe('39144.00');
  });

  test('a weekly employee who joins in the last week of June withholds the tax on what was earned', () => {
    // 100,000 a week from the week ending 2026-07-02 (day 183, k 27) to 2026-12-31 (k 52, capped): 27
    // paystubs, GI 2,700,000, D 221,400, chargeable 2,478,600 → 15 % × 1,678,600 = 251,790 for the year.
    const weeks = Array.from({ length: 27 }, (_, i) => ({
      end: new Date(Date.UTC(2026, 6, 2 + 7 * i)).toISOString().slice(0, 10),
      t: '100000',
    }));
    expect(weeks.at(-1)?.end).toBe('2026-12-31');
    expect(year({ taxMethod: 'cumulative' }, weeks, 52).total).toBe('251790.00');
  });

  test('annualised ignores a year to date', () => {
    const ytd = { taxableIncome: k('9000000'), deductions: 0n, taxWithheld: k('1') };
    expect(s(figures({}, { t: '500000', end: '2026-03-31', ytd }).taxWithheld)).toBe('65120.00');
  });

  test('life assurance and rent relief count under cumulative as under annualised (a full year of the same pay)', () => {
    // Annualised with rent 1,200,000 and premium 300,000: D 792,000, relief 240,000, chargeable
    // 4,968,000 → 330,000 + 18 % × 1,968,000 (354,240) = 684,240 ÷ 12 = 57,020 a month.
    const extra = { annualRentPaid: k('1200000'), lifeAssurancePremium: k('300000') };
    const months = MONTH_ENDS_2026.map((end) => ({ end, t: '500000' }));
    expect(year({ taxMethod: 'cumulative' }, months, 12, extra)).toEqual({ taxes: Array(12).fill('57020.00'), total: '684240.00' });
  });
});
