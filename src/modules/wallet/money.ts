// Naira amounts as integer kobo (BigInt) — never binary floating point for money.

/** Parses a plain decimal string (`"1500"`, `"1500.5"`, `"-3.25"`) into kobo; null if it has more than 2 decimals or is not plain. */
export function parseKobo(text: string): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const kobo = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign === '-' ? -kobo : kobo;
}

/** Kobo as a two-place decimal string for SQL numeric (`150050n` → `"1500.50"`). */
export function koboToDecimal(kobo: bigint): string {
  const negative = kobo < 0n;
  const abs = negative ? -kobo : kobo;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** A numeric column's string as a JSON number (exact to the kobo below 2^53 kobo). */
export function decimalToNumber(value: string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const kobo = parseKobo(value);
  if (kobo === null) throw new Error(`not a money value: ${value}`);
  return Number(koboToDecimal(kobo));
}
