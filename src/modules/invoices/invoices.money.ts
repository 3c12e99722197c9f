// Money for invoices as integer kobo (BigInt): parsed from the request's decimal text, compared and
// sent to SQL as exact decimal strings. No binary floating point touches an amount.

/** numeric(18,2): at most 16 digits before the point. */
const MAX_KOBO = 10n ** 18n - 1n;

export type MoneyParse = { kobo: bigint } | { error: string };

/**
 * Reads a JSON number or a decimal string. A JSON number is taken by its shortest decimal text
 * (what the client wrote for any amount with up to 15 significant digits).
 */
export function parseMoney(value: unknown, label: string): MoneyParse {
  let text: string;
  if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'string') text = value.trim();
  else return { error: `The ${label} field must be a number.` };
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { error: `The ${label} field must be a number.` };
  const [, sign, whole, fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > 2) return { error: `The ${label} field must have at most 2 decimal places.` };
  const kobo = BigInt(whole) * 100n + BigInt(`${fraction}00`.slice(0, 2));
  if (sign === '-' || kobo === 0n) return { error: `The ${label} field must be greater than 0.` };
  if (kobo > MAX_KOBO) return { error: `The ${label} field must not be greater than ${koboToString(MAX_KOBO)}.` };
  return { kobo };
}

/** 12345n → "123.45" (the numeric literal written to SQL and shown in messages). */
export function koboToString(kobo: bigint): string {
  const negative = kobo < 0n;
  const abs = negative ? -kobo : kobo;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** A numeric column's text ("150.5", "150.50") → kobo. */
export function columnToKobo(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  const negative = whole.startsWith('-');
  const kobo = BigInt(whole.replace('-', '')) * 100n + BigInt(`${fraction}00`.slice(0, 2));
  return negative ? -kobo : kobo;
}
