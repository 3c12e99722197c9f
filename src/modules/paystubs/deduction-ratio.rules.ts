// The company setting `max_deduction_ratio` (docs/payroll.md, "Loans and salary advances", "The
// cap"): the share of a paystub's net pay before loans that loan repayments may take together. A
// string like every setting, read exactly: a fraction `n/d` (one third has no finite decimal) or a
// decimal with at most 4 places, greater than 0 and at most 1.

/** An exact ratio num/den, 0 < num ≤ den. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** The default: one third, the project's policy default (no statute names a figure). */
export const DEFAULT_DEDUCTION_RATIO = '1/3';

export const DEDUCTION_RATIO_MESSAGE =
  'The max_deduction_ratio must be greater than 0 and at most 1: a fraction n/d (such as 1/3) or a decimal with at most 4 decimal places (such as 0.5).';

const FRACTION = /^(\d{1,6})\s*\/\s*(\d{1,6})$/;
const DECIMAL = /^(\d{1,6})(?:\.(\d{1,4}))?$/;

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/** The ratio of a setting's text, reduced; null when it is not a ratio in (0, 1]. */
export function parseDeductionRatio(text: string): Ratio | null {
  const value = text.trim();
  let num: bigint;
  let den: bigint;
  const fraction = FRACTION.exec(value);
  const decimal = fraction ? null : DECIMAL.exec(value);
  if (fraction) {
    num = BigInt(fraction[1]);
    den = BigInt(fraction[2]);
  } else if (decimal) {
    const places = decimal[2] ?? '';
    num = BigInt(decimal[1] + places);
    den = 10n ** BigInt(places.length);
  } else return null;
  if (num <= 0n || den <= 0n || num > den) return null;
  const divisor = gcd(num, den);
  return { num: num / divisor, den: den / divisor };
}

/**
 * The stored form: a fraction stays a reduced fraction (`2/6` → `1/3`), a decimal stays a decimal
 * without trailing zeros (`0.50` → `0.5`, `1.0` → `1`); null when invalid.
 */
export function canonicalDeductionRatio(text: string): string | null {
  const ratio = parseDeductionRatio(text);
  if (!ratio) return null;
  if (FRACTION.test(text.trim())) return `${ratio.num}/${ratio.den}`;
  const [whole, places = ''] = text.trim().split('.');
  const trimmed = places.replace(/0+$/, '');
  return trimmed ? `${BigInt(whole)}.${trimmed}` : `${BigInt(whole)}`;
}
