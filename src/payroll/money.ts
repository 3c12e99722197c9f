// Decimal-exact money: amounts are integer kobo held in BigInt, rates are integer "micro-fractions"
// (a percentage p is held as p × 10^4, so 2.5 % = 25_000 and the fraction is P / 10^6). No binary
// floating point ever touches an amount; numbers appear only at the JSON edge (koboToNumber).

export type Kobo = bigint;

/** Denominator of a rate: percent × 10^4 ⇒ fraction = P / RATE_SCALE. */
export const RATE_SCALE = 1_000_000n;

const DECIMAL = /^(\d{1,15})(?:\.(\d+))?$/;

/**
 * Parses a non-negative decimal (string, or a JS number via its shortest round-trip text) into an
 * integer scaled by 10^places. More fractional digits than `places` (other than trailing zeros),
 * negatives, exponents and non-numbers give null.
 */
export function parseScaled(value: unknown, places: number): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return null;
  return BigInt(match[1] + fraction.padEnd(places, '0'));
}

/** Naira with at most two decimals → kobo. */
export const toKobo = (value: unknown): Kobo | null => parseScaled(value, 2);

/** A percentage with at most four decimals → rate units (P / 10^6 is the fraction). */
export const toRate = (value: unknown): bigint | null => parseScaled(value, 4);

/** n / d rounded half-up (half away from zero for negative n); d > 0. */
export function divRound(n: bigint, d: bigint): bigint {
  if (n >= 0n) return (2n * n + d) / (2n * d);
  return -((-2n * n + d) / (2n * d));
}

/** Kobo as a decimal string with two places: 123456n → "1234.56". */
export function koboToString(kobo: Kobo): string {
  const negative = kobo < 0n;
  const abs = negative ? -kobo : kobo;
  const whole = abs / 100n;
  const fraction = abs % 100n;
  return `${negative ? '-' : ''}${whole}.${fraction < 10n ? '0' : ''}${fraction}`;
}

/**
 * Kobo as a JSON number (the API returns amounts as numbers, decisions.md §2). Parsing the exact
 * decimal text gives the double nearest to it, which JSON prints back as that same decimal text.
 */
export function koboToNumber(kobo: Kobo): number {
  return Number(koboToString(kobo));
}
