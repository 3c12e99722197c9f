// The max_deduction_ratio setting's text (docs/payroll.md, "Loans and salary advances", "The cap").
import { describe, expect, it } from 'vitest';
import { canonicalDeductionRatio, parseDeductionRatio } from './deduction-ratio.rules.js';

describe('max_deduction_ratio', () => {
  it.each([
    ['1/3', { num: 1n, den: 3n }, '1/3'],
    ['2/6', { num: 1n, den: 3n }, '1/3'],
    [' 1 / 2 ', { num: 1n, den: 2n }, '1/2'],
    ['1/1', { num: 1n, den: 1n }, '1/1'],
    ['0.5', { num: 1n, den: 2n }, '0.5'],
    ['0.50', { num: 1n, den: 2n }, '0.5'],
    ['0.3333', { num: 3333n, den: 10000n }, '0.3333'],
    ['1', { num: 1n, den: 1n }, '1'],
    ['1.0', { num: 1n, den: 1n }, '1'],
    ['0.0001', { num: 1n, den: 10000n }, '0.0001'],
  ])('%s is %o, stored as %s', (text, ratio, stored) => {
    expect(parseDeductionRatio(text)).toEqual(ratio);
    expect(canonicalDeductionRatio(text)).toBe(stored);
  });

  it.each(['0', '0/3', '0.0', '4/3', '1.0001', '2', '-0.5', '1/0', '0.33333', 'one third', '', '1/3/4', '.5', 'NaN', '1e-1'])(
    '%j is refused',
    (text) => {
      expect(parseDeductionRatio(text)).toBeNull();
      expect(canonicalDeductionRatio(text)).toBeNull();
    },
  );
});
