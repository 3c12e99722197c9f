// Year-end true-up under annualised tax: a worked example (docs/payroll.md, "Year-end true-up") and
// the property that a year's withholding with the true-up on its last paystub equals the year's
// liability (the cumulative figure) to the kobo, for joiners, leavers, pay rises and bonuses.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EMPTY_YTD, taxDueToDate, type YtdState } from './cumulative.js';
import { computePaystub, prepareRun } from './engine.js';
import { DEFAULT_SETTINGS } from './engine.types.js';
import { divRound } from './money.js';
import { builtInPayItemType } from './pay-items.js';
import { STATUTORY_TABLE, statutoryRowAt } from './statutory.js';

const annualised = prepareRun(DEFAULT_SETTINGS);
const monthEnd = (month: number) => new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10);
const bonus = (amount: bigint) => [{ ...builtInPayItemType('bonus')!, amount }];

/** A year of monthly paystubs (null = not paid that month); the true-up on the last one paid. */
function year(salaries: (bigint | null)[], bonusMonth: number | null = null, bonusAmount = 0n) {
  const last = salaries.reduce<number>((found, salary, i) => (salary === null ? found : i + 1), 0);
  let ytd: YtdState = EMPTY_YTD;
  const withheld: bigint[] = [];
  let trueUp = 0n;
  let lastNet = 0n;
  for (let month = 1; month <= 12; month++) {
    const t = salaries[month - 1];
    if (t === null) continue;
    const result = computePaystub(annualised, {
      payPeriodEnd: monthEnd(month),
      taxableIncome: t,
      reimbursements: 0n,
      otherAllowances: 0n,
      periodsPerYear: 12,
      nhfApplies: false,
      ytd,
      items: month === bonusMonth ? bonus(bonusAmount) : [],
      yearEndTrueUp: month === last,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const f = result.figures;
    withheld.push(f.taxWithheld);
    if (month === last) {
      trueUp = f.taxTrueUp;
      lastNet = f.netPay;
    }
    ytd = {
      taxableIncome: ytd.taxableIncome + t + f.taxableItems,
      deductions: ytd.deductions + f.taxDeductions,
      taxWithheld: ytd.taxWithheld + f.taxWithheld,
    };
  }
  const row = statutoryRowAt('2026-12-31', STATUTORY_TABLE);
  const due = taxDueToDate({
    law: row.law,
    minimumWageMonthly: row.minimumWageMonthly,
    periodsPerYear: 12,
    k: 12,
    taxableIncomeYtd: ytd.taxableIncome,
    deductionsYtd: ytd.deductions,
    annualRentPaid: 0n,
  });
  return { withheld, total: ytd.taxWithheld, trueUp, lastNet, liability: divRound(due.num, due.den) };
}

describe('year-end true-up', () => {
  test('a leaver is trued up to the tax on what they earned in the year, not annualised over their months', () => {
    // ₦500,000 a month January to March, then gone: the year's income 1,500,000 − pension 108,000 =
    // 1,392,000 → 15 % × 592,000 = 88,800; annualised withheld 3 × 66,020 = 198,060: March refunds 109,260.
    const { total, trueUp } = year([50_000_000n, 50_000_000n, 50_000_000n, ...Array(9).fill(null)]);
    expect([total, trueUp]).toEqual([8_880_000n, -10_926_000n]);
  });

  test('a July joiner on ₦500,000 a month: annualised withholds 396,120; December refunds 98,520 to the year’s 297,600', () => {
    const salaries = [...Array(6).fill(null), ...Array(6).fill(50_000_000n)];
    const { withheld, total, trueUp, liability } = year(salaries);
    expect(withheld.slice(0, 5)).toEqual(Array(5).fill(6_602_000n));
    expect(trueUp).toBe(-9_852_000n);
    expect(withheld[5]).toBe(6_602_000n - 9_852_000n);
    expect([total, liability]).toEqual([29_760_000n, 29_760_000n]);
  });

  test('a pay cut after a bonus never refunds more than the year withheld', () => {
    const { total, liability } = year([100_000_000n, ...Array(11).fill(0n)], 1, 500_000_000n);
    expect(total).toBe(liability);
    expect(total >= 0n).toBe(true);
  });

  test('property: with the true-up, the year withholds its liability to the kobo (joiners, leavers, rises, bonuses)', () => {
    const salary = fc.bigInt({ min: 0n, max: 3_000_000_00n });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        salary,
        salary,
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.bigInt({ min: 1n, max: 20_000_000_00n })), { nil: null }),
        (join, leave, before, after, riseMonth, bonusAt) => {
          const [first, last] = join <= leave ? [join, leave] : [leave, join];
          const salaries = Array.from({ length: 12 }, (_, i) =>
            i + 1 < first || i + 1 > last ? null : i + 1 < riseMonth ? before : after,
          );
          const bonusMonth = bonusAt && bonusAt[0] >= first && bonusAt[0] <= last ? bonusAt[0] : null;
          const { total, liability, lastNet } = year(salaries, bonusMonth, bonusAt?.[1] ?? 0n);
          // Exact, unless the last paystub's net pay could not carry the whole charge (it is then 0).
          if (total !== liability) expect([lastNet, total < liability]).toEqual([0n, true]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
