// The one money kernel (pure, no imports): amounts are integer kobo held in BigInt, rates are
// integer "micro-fractions" (a percentage p is held as p × 10^4, so 2.5 % = 25_000 and the fraction
// is P / 10^6). No binary floating point ever touches an amount; numbers appear only at the JSON
// edge (koboToNumber, columnToNumber) and in the console's display (naira).

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
  const fraction = match[2] ?? '';
  // Only zeros may follow the last allowed place. A linear scan: `/0+$/` on a long run of zeros
  // backtracks from every zero (quadratic; 200,000 zeros took 29 s).
  if (/[1-9]/.test(fraction.slice(places))) return null;
  return BigInt(match[1] + fraction.slice(0, places).padEnd(places, '0'));
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

/**
 * A plain signed decimal with at most two places (`"1500"`, `"1500.5"`, `"-3.25"`) → kobo; null
 * when it has more places or is not plain. Reads numeric(18,2) column text and typed amounts.
 */
export function parseKobo(text: string): Kobo | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const kobo = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' ? -kobo : kobo;
}

/** A numeric(18,2) column's text ("150.5", "150.50") → kobo. */
export function columnToKobo(value: string): Kobo {
  const kobo = parseKobo(value);
  if (kobo === null) throw new Error(`not a money value: ${value}`);
  return kobo;
}

/** Kobo as a decimal string with two places (SQL numeric literals, messages): 123456n → "1234.56". */
export function koboToString(kobo: Kobo): string {
  const negative = kobo < 0n;
  const abs = negative ? -kobo : kobo;
  const whole = abs / 100n;
  const fraction = abs % 100n;
  return `${negative ? '-' : ''}${whole}.${fraction < 10n ? '0' : ''}${fraction}`;
}

/**
 * Kobo as a JSON number (the API returns amounts as numbers, docs/reference.md, "Common rules").
 * Parsing the exact decimal text gives the double nearest to it, which JSON prints back as that
 * same decimal text.
 */
export function koboToNumber(kobo: Kobo): number {
  return Number(koboToString(kobo));
}

const PLAIN_KOBO_TEXT = /^-?\d+(?:\.\d{1,2})?$/;

/**
 * A decimal text with at most two places as a JSON number, exactly `koboToNumber(parseKobo(text) ??
 * 0n)` without the BigInt: a plain text denotes the same decimal as its canonical form, so Number()
 * of either gives the same double (and `+ 0` turns `-0` into 0). Anything else (blank, more places)
 * goes the long way. ~80 ns against ~450 ns a value; a run's 13 stored totals are read this way.
 */
export function koboTextToNumber(text: string): number {
  return PLAIN_KOBO_TEXT.test(text) ? Number(text) + 0 : koboToNumber(parseKobo(text) ?? 0n);
}

/**
 * A numeric(18,2) column's text as a JSON number (null → 0): the double nearest the exact decimal
 * text, which JSON prints back as that text (exact to the kobo below 2^53 kobo).
 */
export const columnToNumber = (value: string | number | null | undefined): number =>
  value === null || value === undefined ? 0 : Number(value);

/** A numeric column's text with exactly two places (`"250000"` → `"250000.00"`); null stays null. */
export function moneyString(value: string): string;
export function moneyString(value: string | null | undefined): string | null;
export function moneyString(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${`${fraction}00`.slice(0, 2)}`;
}

/**
 * `₦1,234,567.89` for the console, from a decimal string (or an integer/bigint of naira), with no
 * binary floats: the digits are grouped as text and the fraction is rounded half-up to kobo on the
 * digits. Empty → `—`.
 */
export function naira(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  let text = typeof value === 'string' ? value.trim() : String(value);
  if (typeof value === 'number' && !Number.isInteger(value)) text = value.toFixed(2); // JSON numbers already rounded to kobo
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return text;
  const negative = match[1] === '-';
  let whole = BigInt(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(3, '0');
  let kobo = BigInt(fraction.slice(0, 2));
  if (Number(fraction[2]) >= 5) kobo += 1n;
  if (kobo === 100n) {
    kobo = 0n;
    whole += 1n;
  }
  const grouped = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = negative && (whole > 0n || kobo > 0n) ? '−' : '';
  return `${sign}₦${grouped}.${kobo.toString().padStart(2, '0')}`;
}
