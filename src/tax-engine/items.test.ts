// Pay items in the engine: worked examples (each figure worked by hand in docs/payroll.md, "Tax on
// irregular items") and properties. Settings: the defaults (basic 40, housing 30, transport 20:
// pension on 90 % of salary at 8 %), NHF not applying (a private-sector employee who did not opt
// in), pay periods in 2026 (Nigeria Tax Act 2025 bands 0/15/18/21/23/25 %).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { taxDueToDate } from './cumulative.js';
import { computePaystub, prepareCustom, prepareRun } from './engine.js';
import { DEFAULT_SETTINGS, type PaystubFigures, type PaystubInput } from './engine.types.js';
import { koboToString } from './money.js';
import { builtInPayItemType, type EngineItem } from './pay-items.js';
import { STATUTORY_TABLE, statutoryRowAt } from './statutory.js';

const N = (naira: number) => BigInt(Math.round(naira * 100));
const item = (code: string, naira: number | bigint, flags: Partial<EngineItem> = {}): EngineItem => {
  const type = builtInPayItemType(code) ?? { ...builtInPayItemType('bonus')!, code };
  return { ...type, amount: typeof naira === 'bigint' ? naira : N(naira), ...flags };
};
const annualised = prepareRun(DEFAULT_SETTINGS);
const cumulative = prepareRun({ ...DEFAULT_SETTINGS, taxMethod: 'cumulative' });

function paystub(input: Partial<PaystubInput> & { t: number }, run = annualised): PaystubFigures {
  const { t, ...rest } = input;
  const result = computePaystub(run, {
    payPeriodEnd: '2026-03-31',
    taxableIncome: N(t),
    reimbursements: 0n,
    otherAllowances: 0n,
    periodsPerYear: 12,
    nhfApplies: false,
    ...rest,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.figures;
}
const naira = (kobo: bigint) => koboToString(kobo);

describe('worked examples (docs/payroll.md, "Tax on irregular items")', () => {
  test('A: a ₦1,000,000 bonus paid on its own to an employee on ₦500,000 a month is taxed once at 18 %', () => {
    const f = paystub({ t: 0, items: [item('bonus', 1_000_000)], marginBase: { taxableIncome: N(500_000) } });
    expect([naira(f.taxWithheld), naira(f.pension), naira(f.grossPay), naira(f.netPay), naira(f.irregularGross)]).toEqual([
      '180000.00',
      '0.00',
      '1000000.00',
      '820000.00',
      '1000000.00',
    ]);
  });

  test('B: the same bonus on the regular paystub: 66,020 for the month plus 180,000 once', () => {
    const f = paystub({ t: 500_000, items: [item('bonus', 1_000_000)] });
    expect([naira(f.taxWithheld), naira(f.pension), naira(f.netPay)]).toEqual(['246020.00', '36000.00', '1217980.00']);
    expect(naira(paystub({ t: 500_000 }).taxWithheld)).toBe('66020.00');
  });

  test('C: ₦1,000,000 of arrears of salary are pensionable as salary (72,000) and taxed once', () => {
    const f = paystub({ t: 500_000, items: [item('arrears', 1_000_000)] });
    expect([naira(f.pension), naira(f.employerPension), naira(f.taxWithheld)]).toEqual(['108000.00', '135000.00', '233060.00']);
  });

  test('D: loss of office: ₦60m in 2026 has ₦10m taxable at the margin; in 2025 none of it is in PAYE', () => {
    const margin = { taxableIncome: N(500_000) };
    const f2026 = paystub({ t: 0, items: [item('loss_of_office', 60_000_000)], marginBase: margin });
    expect(naira(f2026.taxWithheld)).toBe('1907040.00');
    expect(f2026.items).toEqual([{ code: 'loss_of_office', amount: N(60_000_000), taxableAmount: N(10_000_000) }]);
    const f2025 = paystub({ t: 0, payPeriodEnd: '2025-11-30', items: [item('loss_of_office', 60_000_000)], marginBase: margin });
    expect(naira(f2025.taxWithheld)).toBe('0.00');
    // The exemption is per employment: ₦45m paid before leaves ₦5m of it.
    const later = paystub({ t: 0, items: [item('loss_of_office', 10_000_000)], marginBase: margin, lossOfOfficePaidBefore: N(45_000_000) });
    expect(later.items[0].taxableAmount).toBe(N(5_000_000));
  });

  test('E: a one-off ₦500,000 voluntary pension on ₦1,100,000 a month is deducted once (saves 97,488, not 90,624)', () => {
    const custom = (oneOff: boolean) =>
      prepareCustom({
        id: 1,
        name: 'AVC',
        type: 'amount',
        applyTo: 'gross_pay',
        employeeValue: '500000',
        employerValue: null,
        taxDeductible: true,
        oneOff,
      });
    expect(naira(paystub({ t: 1_100_000 }).taxWithheld)).toBe('166868.00');
    const once = paystub({ t: 1_100_000, customs: [custom(true)] });
    expect([naira(once.taxWithheld), naira(once.netPay)]).toEqual(['69380.00', '451420.00']);
    // A recurring one is still a monthly deduction (× N in the annual figures).
    expect(naira(paystub({ t: 1_100_000, customs: [custom(false)] }).taxWithheld)).toBe('76244.00');
  });

  test('G: a ₦100,000 benefit in kind is taxed every month but not paid', () => {
    const f = paystub({ t: 500_000, items: [item('benefit_in_kind', 100_000)] });
    expect([naira(f.grossPay), naira(f.taxWithheld), naira(f.netPay), naira(f.taxableItems)]).toEqual([
      '500000.00',
      '84020.00',
      '379980.00',
      '100000.00',
    ]);
  });

  test('I: ₦50,000 of overtime is regular pay: annualised with salary', () => {
    const f = paystub({ t: 500_000, items: [item('overtime', 50_000)] });
    expect([naira(f.grossPay), naira(f.taxWithheld), naira(f.netPay), naira(f.irregularGross)]).toEqual([
      '550000.00',
      '75020.00',
      '438980.00',
      '0.00',
    ]);
  });

  test('H: deductions come off net after tax; reimbursements are added to net outside gross and tax', () => {
    const f = paystub({ t: 500_000, items: [item('deduction', 10_000), item('reimbursement', 25_000)] });
    expect([naira(f.grossPay), naira(f.taxWithheld), naira(f.otherDeductions), naira(f.reimbursements), naira(f.netPay)]).toEqual([
      '500000.00',
      '66020.00',
      '10000.00',
      '25000.00',
      '412980.00',
    ]);
    const result = computePaystub(annualised, {
      payPeriodEnd: '2026-03-31',
      taxableIncome: N(100),
      reimbursements: 0n,
      otherAllowances: 0n,
      periodsPerYear: 12,
      items: [item('deduction', 1_000)],
    });
    expect(result).toEqual({ ok: false, errors: { items: ['Deductions exceed pay.'] } });
  });

  test('F: cumulative, ₦500,000 a month and a ₦1,000,000 December bonus: December withholds 246,020; the year 972,240', () => {
    let ytd = { taxableIncome: 0n, deductions: 0n, taxWithheld: 0n };
    const withheld: string[] = [];
    for (let month = 1; month <= 12; month++) {
      const end = new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10);
      const f = paystub({ t: 500_000, payPeriodEnd: end, ytd, items: month === 12 ? [item('bonus', 1_000_000)] : [] }, cumulative);
      withheld.push(naira(f.taxWithheld));
      ytd = {
        taxableIncome: ytd.taxableIncome + N(500_000) + f.taxableItems,
        deductions: ytd.deductions + f.taxDeductions,
        taxWithheld: ytd.taxWithheld + f.taxWithheld,
      };
    }
    expect(withheld.slice(0, 11)).toEqual(Array(11).fill('66020.00'));
    expect(withheld[11]).toBe('246020.00');
    expect(naira(ytd.taxWithheld)).toBe('972240.00');
  });
});

const period = (month: number) => new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10);
const salaryArb = fc.bigInt({ min: 0n, max: 5_000_000_00n });
const bonusArb = fc.bigInt({ min: 1n, max: 50_000_000_00n });
const irregularCode = fc.constantFrom('bonus', 'thirteenth_month', 'leave_allowance', 'arrears', 'loss_of_office');

describe('properties', () => {
  test('an irregular item never changes the tax of the regular part (annualised: regular + its own margin, to 1 kobo)', () => {
    fc.assert(
      fc.property(salaryArb, bonusArb, irregularCode, fc.boolean(), (t, amount, code, nhf) => {
        const base = { payPeriodEnd: '2026-06-30', reimbursements: 0n, otherAllowances: 0n, periodsPerYear: 12, nhfApplies: nhf };
        const regular = computePaystub(annualised, { ...base, taxableIncome: t });
        const together = computePaystub(annualised, { ...base, taxableIncome: t, items: [item(code, amount)] });
        const alone = computePaystub(annualised, {
          ...base,
          taxableIncome: 0n,
          items: [item(code, amount)],
          marginBase: { taxableIncome: t },
        });
        if (!regular.ok || !together.ok || !alone.ok) return;
        // Arrears add their own pension, which the separate paystub computes on its own: compare tax only.
        const diff = together.figures.taxWithheld - (regular.figures.taxWithheld + alone.figures.taxWithheld);
        expect(diff >= -1n && diff <= 1n).toBe(true);
        if (code !== 'arrears') {
          expect(together.figures.pension).toBe(regular.figures.pension);
          expect(together.figures.nhf).toBe(regular.figures.nhf);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('under cumulative, twelve months with a December bonus withhold exactly the annual liability', () => {
    const row = statutoryRowAt('2026-12-31', STATUTORY_TABLE);
    fc.assert(
      fc.property(salaryArb, bonusArb, irregularCode, (t, amount, code) => {
        let ytd = { taxableIncome: 0n, deductions: 0n, taxWithheld: 0n };
        for (let month = 1; month <= 12; month++) {
          const result = computePaystub(cumulative, {
            payPeriodEnd: period(month),
            taxableIncome: t,
            reimbursements: 0n,
            otherAllowances: 0n,
            periodsPerYear: 12,
            nhfApplies: false,
            ytd,
            items: month === 12 ? [item(code, amount)] : [],
          });
          if (!result.ok) return;
          const f = result.figures;
          ytd = {
            taxableIncome: ytd.taxableIncome + t + f.taxableItems,
            deductions: ytd.deductions + f.taxDeductions,
            taxWithheld: ytd.taxWithheld + f.taxWithheld,
          };
        }
        // The year's liability: the annual tax on the year's taxable pay and deductions, rounded once.
        const due = taxDueToDate({
          law: row.law,
          minimumWageMonthly: row.minimumWageMonthly,
          periodsPerYear: 12,
          k: 12,
          taxableIncomeYtd: ytd.taxableIncome,
          deductionsYtd: ytd.deductions,
          annualRentPaid: 0n,
        });
        const liability = (2n * due.num + due.den) / (2n * due.den);
        expect(ytd.taxWithheld).toBe(liability);
      }),
      { numRuns: 200 },
    );
  });

  test('net identity to the kobo with items: net = gross − tax − pension − NHF − NHIS − other + reimbursements', () => {
    const codes = ['bonus', 'overtime', 'commission', 'arrears', 'benefit_in_kind', 'reimbursement', 'deduction', 'loss_of_office'];
    fc.assert(
      fc.property(
        salaryArb,
        fc.array(fc.record({ code: fc.constantFrom(...codes), amount: fc.bigInt({ min: 1n, max: 2_000_000_00n }) }), { maxLength: 5 }),
        fc.constantFrom('2025-06-30', '2026-06-30'),
        (t, list, end) => {
          const result = computePaystub(annualised, {
            payPeriodEnd: end,
            taxableIncome: t,
            reimbursements: 0n,
            otherAllowances: 0n,
            periodsPerYear: 12,
            items: list.map((entry) => item(entry.code, entry.amount)),
          });
          if (!result.ok) return;
          const f = result.figures;
          expect(f.netPay).toBe(f.grossPay - f.taxWithheld - f.pension - f.nhf - f.nhis - f.otherDeductions + f.reimbursements);
          expect(f.otherDeductions).toBe(f.customDeductions + f.itemDeductions);
          expect(f.taxWithheld >= 0n && f.irregularGross <= f.grossPay).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});
