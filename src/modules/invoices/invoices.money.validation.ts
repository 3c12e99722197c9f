// An invoice amount read from the request (a JSON number or decimal text) as integer kobo, with the
// invoice family's messages. Formatting and column reading are the money kernel's (payroll/money.ts).
import { koboToString } from '../../tax-engine/money.js';

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
  // A non-zero digit after the second place, found by a linear scan: `/0+$/` on a long run of
  // zeros backtracks from every zero (quadratic; 200,000 zeros took 29 s).
  if (/[1-9]/.test(fraction.slice(2))) return { error: `The ${label} field must have at most 2 decimal places.` };
  const kobo = BigInt(whole) * 100n + BigInt(`${fraction}00`.slice(0, 2));
  if (sign === '-' || kobo === 0n) return { error: `The ${label} field must be greater than 0.` };
  if (kobo > MAX_KOBO) return { error: `The ${label} field must not be greater than ${koboToString(MAX_KOBO)}.` };
  return { kobo };
}
