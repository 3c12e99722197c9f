// Properties of the engine over generated inputs (the golden tables and edges are in engine.test.ts).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { computePaystub, prepareCustom, prepareRun } from './engine.js';
import type { EngineSettings } from './engine.types.js';
import { koboTextToNumber, koboToNumber, parseKobo } from './money.js';

const dateArb = fc
  .date({ min: new Date('2023-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const koboArb = (max: number) => fc.bigInt({ min: 0n, max: BigInt(max) * 100n });
const pctArb = fc.integer({ min: 0, max: 1_000_000 }).map((v) => (v / 10_000).toFixed(4)); // 0..100 with 4 places
const settingsArb: fc.Arbitrary<EngineSettings> = fc.record({
  taxRegime: fc.constantFrom('auto', 'pita', 'nta2025', 'none'),
  basicPercentage: fc.integer({ min: 0, max: 60 }).map(String),
  housingPercentage: fc.integer({ min: 0, max: 20 }).map(String),
  transportPercentage: fc.integer({ min: 0, max: 20 }).map(String),
  pensionEnabled: fc.boolean(),
  employeePensionRate: pctArb.map((p) => (Number(p) / 5).toFixed(4)),
  employerPensionRate: pctArb,
  nhfEnabled: fc.boolean(),
  nhfRate: fc.constantFrom('2.5', '0', '3.75'),
  nhisEnabled: fc.boolean(),
  nhisEmployeeRate: fc.constantFrom('5', '1.25'),
  nhisEmployerRate: fc.constantFrom('10', '0'),
}) as fc.Arbitrary<EngineSettings>;
const customArb = fc.record({
  type: fc.constantFrom<'amount' | 'percentage'>('amount', 'percentage'),
  applyTo: fc.constantFrom<'gross_pay' | 'net_pay'>('gross_pay', 'net_pay'),
  employee: fc.option(
    fc.integer({ min: 0, max: 5000 }).map((v) => (v / 100).toFixed(2)),
    { nil: null },
  ),
  employer: fc.option(
    fc.integer({ min: 0, max: 5000 }).map((v) => (v / 100).toFixed(2)),
    { nil: null },
  ),
});
const inputArb = fc.record({
  settings: settingsArb,
  t: koboArb(20_000_000),
  r: koboArb(100_000),
  a: koboArb(500_000),
  n: fc.constantFrom(12, 26, 52),
  end: dateArb,
  rent: fc.option(koboArb(10_000_000), { nil: null }),
  life: fc.option(koboArb(2_000_000), { nil: null }),
  customs: fc.array(customArb, { maxLength: 3 }),
});
type Input = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;

function compute(input: Input, t = input.t) {
  return computePaystub(prepareRun(input.settings), {
    payPeriodEnd: input.end,
    taxableIncome: t,
    reimbursements: input.r,
    otherAllowances: input.a,
    periodsPerYear: input.n,
    annualRentPaid: input.rent,
    lifeAssurancePremium: input.life,
    customs: input.customs.map((c, i) =>
      prepareCustom({ id: i, name: `c${i}`, type: c.type, applyTo: c.applyTo, employeeValue: c.employee, employerValue: c.employer }),
    ),
  });
}

describe('properties', () => {
  test('net identity to the kobo, every figure ≥ 0', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = compute(input);
        if (!result.ok) {
          expect(result.errors).toEqual({ taxable_income: ['Deductions exceed pay.'] });
          return;
        }
        const f = result.figures;
        expect(f.netPay).toBe(f.grossPay - f.taxWithheld - f.pension - f.nhf - f.nhis - f.otherDeductions + input.r);
        expect(f.otherDeductions).toBe(f.customs.reduce((sum, c) => sum + c.employee, 0n));
        for (const value of [
          f.grossPay,
          f.taxWithheld,
          f.pension,
          f.employerPension,
          f.nhf,
          f.nhis,
          f.nhisEmployer,
          f.otherDeductions,
          f.netPay,
          f.employerCost,
        ]) {
          expect(value >= 0n).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('tax is non-decreasing in taxable income', () => {
    fc.assert(
      fc.property(inputArb, koboArb(1_000_000), (input, extra) => {
        const noCustoms = { ...input, customs: [] };
        const low = compute(noCustoms);
        const high = compute(noCustoms, input.t + extra);
        if (low.ok && high.ok) expect(high.figures.taxWithheld >= low.figures.taxWithheld).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test('auto picks the regime by pay_period_end', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = compute({ ...input, settings: { ...input.settings, taxRegime: 'auto' }, customs: [], r: 10n ** 12n });
        if (result.ok) expect(result.figures.regime).toBe(input.end < '2026-01-01' ? 'pita' : 'nta2025');
      }),
    );
  });

  test('same inputs, same figures', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(compute(input)).toEqual(compute(structuredClone(input)));
      }),
    );
  });
});

describe('koboTextToNumber', () => {
  // Texts as the run totals store them (koboToString) and as a hand-edited value might read: any
  // sign, one or two places or none, leading zeros, and texts that are not plain at all.
  const plainArb = fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 19n }), fc.constantFrom('', '.', '.0', '.5', '.05', '.50', '.99', '.123'))
    .map(([negative, whole, tail]) => `${negative ? '-' : ''}${whole}${tail}`);
  const anyArb = fc.oneof(plainArb, fc.string(), fc.constantFrom('', ' 12.5 ', '-0', '-0.00', '007.10', '1e3', '12.'));

  test('is exactly koboToNumber(parseKobo(text) ?? 0n), as JSON prints it', () => {
    fc.assert(
      fc.property(anyArb, (text) => {
        const expected = koboToNumber(parseKobo(text) ?? 0n);
        expect(JSON.stringify(koboTextToNumber(text))).toBe(JSON.stringify(expected));
        expect(Object.is(koboTextToNumber(text), expected)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
