// Properties of cumulative tax over generated years of pay: joining mid-year, raises, bonuses,
// allowances, weekly, bi-weekly and monthly, any settings, NHF on or off, rent, life assurance and
// tax-deductible custom contributions. The reference is the annual tax on the year's income: the
// annualised engine with N = 1 on the year's totals (T, allowances, the premium's share, amounts).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addToYtd, EMPTY_YTD, type YtdState } from './cumulative.js';
import { computePaystub, prepareCustom, prepareRun } from './engine.js';
import { DEFAULT_SETTINGS, type EngineSettings, type PaystubInput, type PreparedCustom } from './engine.types.js';
import { koboToString } from './money.js';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every pay_period_end of a schedule in `y`: month ends, or every 7 / 14 days from the first. */
function schedule(y: number, n: number, offset: number): string[] {
  if (n === 12) return Array.from({ length: 12 }, (_, m) => iso(Date.UTC(y, m + 1, 0)));
  const step = 364 / n;
  const ends: string[] = [];
  for (let t = Date.UTC(y, 0, 1) + (offset % step) * DAY; new Date(t).getUTCFullYear() === y; t += step * DAY) ends.push(iso(t));
  return ends;
}

const kobo = (max: number) => fc.bigInt({ min: 0n, max: BigInt(max) * 100n });
const settingsArb: fc.Arbitrary<Partial<EngineSettings>> = fc.record({
  taxRegime: fc.constantFrom('auto', 'pita', 'nta2025') as fc.Arbitrary<EngineSettings['taxRegime']>,
  basicPercentage: fc.integer({ min: 0, max: 60 }).map(String),
  housingPercentage: fc.integer({ min: 0, max: 20 }).map(String),
  pensionEnabled: fc.boolean(),
  employeePensionRate: fc.constantFrom('8', '10', '7.5', '0'),
  nhfEnabled: fc.boolean(),
  nhfRate: fc.constantFrom('2.5', '3.75'),
  nhisEnabled: fc.boolean(),
});
const customArb = fc.record({
  percentage: fc.boolean(),
  value: fc.integer({ min: 0, max: 1000 }), // percent ÷ 100 (≤ 10 %) or kobo × 100 (≤ ₦1,000)
  taxDeductible: fc.boolean(),
});
const yearArb = fc.record({
  settings: settingsArb,
  year: fc.integer({ min: 2021, max: 2027 }),
  n: fc.constantFrom(12, 26, 52),
  offset: fc.integer({ min: 0, max: 13 }),
  /** Joins at this share of the year's periods. */
  join: fc.double({ min: 0, max: 0.99, noNaN: true }),
  base: kobo(3_000_000),
  raises: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), amount: kobo(1_000_000) }), { maxLength: 3 }),
  bonuses: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), amount: kobo(10_000_000) }), { maxLength: 2 }),
  allowances: kobo(200_000),
  nhf: fc.boolean(),
  rent: fc.option(kobo(5_000_000), { nil: undefined }),
  /** The premium in units of 156 kobo, so its share over any number of periods is whole kobo. */
  life: fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: undefined }),
  customs: fc.array(customArb, { maxLength: 2 }),
});
type Year = typeof yearArb extends fc.Arbitrary<infer T> ? T : never;

function rules(y: Year, periods = 1n): PreparedCustom[] {
  return y.customs.map((c, i) =>
    prepareCustom({
      id: i,
      name: `c${i}`,
      type: c.percentage ? 'percentage' : 'amount',
      applyTo: 'gross_pay',
      // Over the year a percentage of gross is the same percentage of the year's gross; an amount adds up.
      employeeValue: c.percentage ? (c.value / 100).toFixed(2) : koboToString(BigInt(c.value) * periods),
      employerValue: null,
      taxDeductible: c.taxDeductible,
    }),
  );
}

/** Runs the year under cumulative; also reports whether some period's due amount fell below what was withheld. */
function runYear(y: Year) {
  const ends = schedule(y.year, y.n, y.offset);
  const first = Math.floor(y.join * ends.length);
  const run = prepareRun({ ...DEFAULT_SETTINGS, ...y.settings, taxMethod: 'cumulative' });
  const life = y.life === undefined ? undefined : y.life * 156n;
  const customs = rules(y);
  let ytd: YtdState = EMPTY_YTD;
  let fell = false;
  let paystubs = 0;
  for (let i = first; i < ends.length; i++) {
    const at = i / ends.length;
    const t =
      y.base +
      y.raises.filter((r) => r.at <= at).reduce((sum, r) => sum + r.amount, 0n) +
      y.bonuses.filter((b) => Math.floor(b.at * ends.length) === i).reduce((sum, b) => sum + b.amount, 0n);
    const input: PaystubInput = {
      payPeriodEnd: ends[i],
      taxableIncome: t,
      reimbursements: 10n ** 12n, // keeps "Deductions exceed pay." out of the way
      otherAllowances: y.allowances,
      periodsPerYear: y.n,
      nhfApplies: y.nhf,
      annualRentPaid: y.rent,
      lifeAssurancePremium: life,
      customs,
      ytd,
    };
    const result = computePaystub(run, input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    // The tax due to date alone (nothing withheld before): below what was withheld = the due amount fell.
    const due = computePaystub(run, { ...input, ytd: { ...ytd, taxWithheld: 0n } });
    if (due.ok && due.figures.taxWithheld < ytd.taxWithheld) fell = true;
    ytd = addToYtd(ytd, { taxableIncome: t, deductions: result.figures.taxDeductions, taxWithheld: result.figures.taxWithheld });
    paystubs++;
  }
  // The annual tax on the year's income: one "period" of the year's totals, annualised.
  const annual = computePaystub(prepareRun({ ...DEFAULT_SETTINGS, ...y.settings }), {
    payPeriodEnd: ends[ends.length - 1],
    taxableIncome: ytd.taxableIncome,
    reimbursements: 10n ** 15n,
    otherAllowances: y.allowances * BigInt(paystubs),
    periodsPerYear: 1,
    nhfApplies: y.nhf,
    annualRentPaid: y.rent,
    lifeAssurancePremium: life === undefined ? undefined : (life * BigInt(paystubs)) / BigInt(y.n),
    customs: rules(y, BigInt(paystubs)),
  });
  if (!annual.ok) throw new Error(JSON.stringify(annual.errors));
  return { withheld: ytd.taxWithheld, annual: annual.figures.taxWithheld, fell, paystubs };
}

describe('cumulative tax over generated years', () => {
  test('by the year end the sum withheld is the annual tax on the year’s income, unless a due amount fell', () => {
    let compared = 0;
    fc.assert(
      fc.property(yearArb, (y) => {
        const { withheld, annual, fell, paystubs } = runYear(y);
        const gap = withheld - annual;
        // Never short by more than the rounding, whatever happened during the year.
        expect(gap >= -1n).toBe(true);
        if (fell) return;
        compared++;
        // One kobo per paystub is the documented bound; the identity holds within one kobo overall
        // (each period is rounded from the exact due-to-date minus what was withheld, so errors do not add up).
        expect(gap <= 1n && gap >= -1n, `withheld ${withheld} vs annual ${annual} over ${paystubs} paystubs`).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(compared).toBeGreaterThan(100);
  });

  test('a full year of the same pay withholds what annualised withholds, within one kobo a period', () => {
    fc.assert(
      fc.property(yearArb, (y) => {
        const steady = { ...y, join: 0, raises: [], bonuses: [] };
        const ends = schedule(y.year, y.n, y.offset);
        // Periods beyond N (a 53rd week) are taxed on a year of N: compare the first N only when equal.
        if (ends.length !== y.n) return;
        const cumulative = runYear(steady);
        const annualised = prepareRun({ ...DEFAULT_SETTINGS, ...y.settings });
        // Annualised, period by period at each period's own date: the law can change during a year
        // (the minimum wage rose on 2024-07-29, so pay below the new threshold stops being taxed).
        let reference = 0n;
        for (const end of ends) {
          const once = computePaystub(annualised, {
            payPeriodEnd: end,
            taxableIncome: y.base,
            reimbursements: 10n ** 12n,
            otherAllowances: y.allowances,
            periodsPerYear: y.n,
            nhfApplies: y.nhf,
            annualRentPaid: y.rent,
            lifeAssurancePremium: y.life === undefined ? undefined : y.life * 156n,
            customs: rules(y),
          });
          if (!once.ok) throw new Error('annualised failed');
          reference += once.figures.taxWithheld;
        }
        const diff = cumulative.withheld - reference;
        expect(diff <= BigInt(y.n) && diff >= -BigInt(y.n), `cumulative ${cumulative.withheld} vs annualised ${reference}`).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('a year in which the minimum wage rose (2024, bi-weekly, below the new threshold) stops withholding from 2024-07-29, like annualised', () => {
    const steady: Year = {
      settings: {
        taxRegime: 'auto',
        basicPercentage: '0',
        housingPercentage: '0',
        pensionEnabled: false,
        nhfEnabled: false,
        nhisEnabled: false,
      },
      year: 2024,
      n: 26,
      offset: 2,
      join: 0,
      base: 1_384_616n,
      raises: [],
      bonuses: [],
      allowances: 0n,
      nhf: false,
      rent: undefined,
      life: undefined,
      customs: [],
    };
    const { withheld, paystubs } = runYear(steady);
    expect(paystubs).toBe(26);
    // 15 bi-weekly periods end before 2024-07-29 (₦13,846.16 × 26 is above ₦360,000, below ₦840,000).
    expect(withheld >= 15n * 23_692n && withheld <= 15n * 23_692n + 15n).toBe(true);
  });

  test('the first period of a year with nothing before (k = 1) is taxed exactly as annualised', () => {
    const firstWeekArb = fc.integer({ min: 1, max: 7 }).map((d) => `-01-0${d}`);
    fc.assert(
      fc.property(yearArb, firstWeekArb, kobo(20_000_000), (y, day, t) => {
        const input: PaystubInput = {
          payPeriodEnd: `${y.year}${day}`,
          taxableIncome: t,
          reimbursements: 10n ** 12n,
          otherAllowances: y.allowances,
          periodsPerYear: y.n,
          nhfApplies: y.nhf,
          annualRentPaid: y.rent,
          lifeAssurancePremium: y.life,
          customs: rules(y),
        };
        const annualised = computePaystub(prepareRun({ ...DEFAULT_SETTINGS, ...y.settings }), input);
        const cumulative = computePaystub(prepareRun({ ...DEFAULT_SETTINGS, ...y.settings, taxMethod: 'cumulative' }), input);
        expect(cumulative).toEqual(annualised);
      }),
      { numRuns: 1000 },
    );
  });
});
