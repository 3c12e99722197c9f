// The `items` of a request (P2 paystubs, run overrides, off-cycle runs, final pay):
// `[{type, amount, description?, origin_period?}]` (docs/payroll.md, "Pay items"). Pure: each
// failure is named by its path (`items.0.amount`). Type codes are only read here; whether a code
// names a type is answered later by resolveTypes (built-ins and the company's own, in the write's
// transaction) and unknownTypeErrors.
import { isRecord } from '../../platform/guards.js';
import { type Kobo, toKobo } from '../../tax-engine/money.js';
import type { PayItemType } from '../../tax-engine/pay-items.js';

export const MAX_PAY_ITEMS = 50;
/** ₦1 trillion: far above any payslip, far below numeric(18,2). */
export const MAX_ITEM_AMOUNT: Kobo = 100_000_000_000_000n;
const MAX_DESCRIPTION = 200;
const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export const ITEM_MESSAGES = {
  notObject: 'Each item must be an object with a type and an amount.',
  typeRequired: 'The type field is required.',
  typeString: 'The type field must be a string.',
  unknownType: 'The selected type is invalid.',
  amountRequired: 'The amount field is required.',
  amountNumber: 'The amount field must be a number.',
  amountPositive: 'The amount field must be greater than 0.',
  amountDecimals: 'The amount field must have at most 2 decimal places.',
  amountMax: 'The amount field must not be greater than 1000000000000.',
  description: `The description field must be a string of at most ${MAX_DESCRIPTION} characters.`,
  originRequired: 'The origin period field is required for arrears, as YYYY-MM.',
  originRefused: 'The origin period field applies only to arrears.',
} as const;

/** An item as the request gave it: the type is still a code. */
export interface ParsedItemInput {
  code: string;
  amount: Kobo;
  description: string | null;
  originPeriod: string | null;
}

export type ItemErrors = Record<string, string[]>;

/** Parses `raw` (absent = no items). Errors are keyed `<field>.<index>.<name>`, every failure at once. */
export function parseItemsInput(raw: unknown, field = 'items'): { items: ParsedItemInput[] } | { errors: ItemErrors } {
  if (raw === undefined || raw === null) return { items: [] };
  if (!Array.isArray(raw)) return { errors: { [field]: [`The ${field} field must be an array.`] } };
  if (raw.length > MAX_PAY_ITEMS) return { errors: { [field]: [`The ${field} field must not have more than ${MAX_PAY_ITEMS} items.`] } };
  const errors: ItemErrors = {};
  const items: ParsedItemInput[] = [];
  raw.forEach((entry, index) => {
    const at = (name: string) => `${field}.${index}.${name}`;
    if (!isRecord(entry)) {
      errors[`${field}.${index}`] = [ITEM_MESSAGES.notObject];
      return;
    }
    const code = typeof entry.type === 'string' ? entry.type.trim() : undefined;
    if (entry.type === undefined || entry.type === null || code === '') errors[at('type')] = [ITEM_MESSAGES.typeRequired];
    else if (code === undefined) errors[at('type')] = [ITEM_MESSAGES.typeString];
    const amount = parseItemAmount(entry.amount);
    if (typeof amount === 'string') errors[at('amount')] = [amount];
    const description = readDescription(entry.description);
    if (description === false) errors[at('description')] = [ITEM_MESSAGES.description];
    const origin = entry.origin_period;
    const hasOrigin = origin !== undefined && origin !== null && origin !== '';
    // Arrears are salary of an earlier period: the period says which rules and rates they follow.
    if (code === 'arrears') {
      if (typeof origin !== 'string' || !PERIOD.test(origin)) errors[at('origin_period')] = [ITEM_MESSAGES.originRequired];
    } else if (hasOrigin) {
      errors[at('origin_period')] = [ITEM_MESSAGES.originRefused];
    }
    if (code && typeof amount === 'bigint' && description !== false)
      items.push({ code, amount, description, originPeriod: code === 'arrears' && typeof origin === 'string' ? origin : null });
  });
  return Object.keys(errors).length > 0 ? { errors } : { items };
}

/** Null when absent or blank, false when not a string of at most 200 characters. */
function readDescription(raw: unknown): string | null | false {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') return false;
  const text = raw.trim();
  if (text.length > MAX_DESCRIPTION) return false;
  return text === '' ? null : text;
}

/**
 * An amount as money is accepted elsewhere (platform/schemas.ts, MoneyInput: a JSON number or a
 * decimal string, never coerced), greater than 0, at most 2 decimals. Returns kobo or the message.
 * The sign, zero and size are told apart before toKobo, which refuses them all alike.
 */
export function parseItemAmount(raw: unknown): Kobo | string {
  if (raw === undefined || raw === null || raw === '') return ITEM_MESSAGES.amountRequired;
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return ITEM_MESSAGES.amountNumber;
    if (raw <= 0) return ITEM_MESSAGES.amountPositive;
    text = String(raw);
    // Exponent notation: JavaScript writes below 1e-6 and from 1e21 that way.
    if (text.includes('e')) return raw < 1 ? ITEM_MESSAGES.amountDecimals : ITEM_MESSAGES.amountMax;
  } else if (typeof raw === 'string') {
    text = raw.trim();
  } else {
    return ITEM_MESSAGES.amountNumber;
  }
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return ITEM_MESSAGES.amountNumber;
  const [, sign, whole, fraction = ''] = match;
  if (sign === '-' || !/[1-9]/.test(whole + fraction)) return ITEM_MESSAGES.amountPositive;
  const digits = whole.replace(/^0+(?=\d)/, '');
  if (digits.length > 13) return ITEM_MESSAGES.amountMax;
  const kobo = toKobo(fraction === '' ? digits : `${digits}.${fraction}`);
  if (kobo === null) return ITEM_MESSAGES.amountDecimals;
  if (kobo > MAX_ITEM_AMOUNT) return ITEM_MESSAGES.amountMax;
  return kobo;
}

/** `{"<field>.N.type": ["The selected type is invalid."]}` for each item whose code `types` lacks. */
export function unknownTypeErrors(
  items: readonly Pick<ParsedItemInput, 'code'>[],
  types: ReadonlyMap<string, PayItemType>,
  field = 'items',
): ItemErrors {
  const errors: ItemErrors = {};
  items.forEach((item, index) => {
    if (!types.has(item.code)) errors[`${field}.${index}.type`] = [ITEM_MESSAGES.unknownType];
  });
  return errors;
}
