// The `items` of a request (P2 paystubs, run overrides, off-cycle runs): `[{type, amount,
// description?, origin_period?}]` (docs/payroll.md, "Pay items"). Parsing is pure and names each
// failure by its path (`items.0.amount`); type codes are resolved later, in the write's transaction,
// against the built-in catalog and the company's own types.
import { isRecord } from '../../platform/guards.js';
import { type Kobo, toKobo } from '../../tax-engine/money.js';
import { builtInPayItemType, type PayItemType } from '../../tax-engine/pay-items.js';
import type { PlanPayItem } from './paystubs.planner.js';

export const MAX_PAY_ITEMS = 50;
/** ₦1 trillion: far above any payslip, far below numeric(18,2). */
const MAX_AMOUNT = 100_000_000_000_000n;
const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const UNKNOWN_TYPE = 'The selected type is invalid.';

/** An item as the request gave it: the type is still a code. */
export interface ItemInput {
  code: string;
  amount: Kobo;
  description: string | null;
  originPeriod: string | null;
}

export type ItemErrors = Record<string, string[]>;

/** Parses `raw` (absent = no items). Errors are keyed `<field>.<index>.<name>`. */
export function parseItemsInput(raw: unknown, field = 'items'): { items: ItemInput[] } | { errors: ItemErrors } {
  if (raw === undefined || raw === null) return { items: [] };
  if (!Array.isArray(raw)) return { errors: { [field]: [`The ${field} field must be an array.`] } };
  if (raw.length > MAX_PAY_ITEMS) return { errors: { [field]: [`The ${field} field must not have more than ${MAX_PAY_ITEMS} items.`] } };
  const errors: ItemErrors = {};
  const items: ItemInput[] = [];
  raw.forEach((entry, index) => {
    const at = (name: string) => `${field}.${index}.${name}`;
    if (!isRecord(entry)) {
      errors[`${field}.${index}`] = ['Each item must be an object with a type and an amount.'];
      return;
    }
    const code = entry.type;
    if (typeof code !== 'string' || code.trim() === '') errors[at('type')] = ['The type field is required.'];
    const amount = parseAmount(entry.amount);
    if (typeof amount === 'string') errors[at('amount')] = [amount];
    const description = entry.description;
    if (description !== undefined && description !== null && (typeof description !== 'string' || description.length > 200))
      errors[at('description')] = ['The description field must be a string of at most 200 characters.'];
    const origin = entry.origin_period;
    if (code === 'arrears') {
      if (typeof origin !== 'string' || !PERIOD.test(origin))
        errors[at('origin_period')] = ['The origin period field is required for arrears, as YYYY-MM.'];
    } else if (origin !== undefined && origin !== null) {
      errors[at('origin_period')] = ['The origin period field applies only to arrears.'];
    }
    if (typeof code === 'string' && typeof amount === 'bigint')
      items.push({
        code: code.trim(),
        amount,
        description: typeof description === 'string' && description !== '' ? description : null,
        originPeriod: typeof origin === 'string' ? origin : null,
      });
  });
  return Object.keys(errors).length > 0 ? { errors } : { items };
}

function parseAmount(raw: unknown): Kobo | string {
  if (raw === undefined || raw === null || raw === '') return 'The amount field is required.';
  if (typeof raw !== 'number' && (typeof raw !== 'string' || !/^-?\d+(\.\d+)?$/.test(raw.trim())))
    return 'The amount field must be a number.';
  const kobo = toKobo(raw);
  if (kobo === null) return 'The amount field must have at most 2 decimal places.';
  if (kobo <= 0n) return 'The amount field must be greater than 0.';
  if (kobo > MAX_AMOUNT) return 'The amount field must not be greater than 1000000000000.';
  return kobo;
}

/** Looks up type codes: the built-in catalog and the company's own types (one query). */
export type ResolveItemTypes = (companyId: number, codes: readonly string[]) => Promise<ReadonlyMap<string, PayItemType>>;

/** Built-ins only: what a service without company types resolves. */
export const resolveBuiltIns: ResolveItemTypes = async (_companyId, codes) => {
  const map = new Map<string, PayItemType>();
  for (const code of codes) {
    const type = builtInPayItemType(code);
    if (type) map.set(code, type);
  }
  return map;
};

/** The inputs with their types, or errors naming each unknown type. */
export function resolveItems(
  inputs: readonly ItemInput[],
  types: ReadonlyMap<string, PayItemType>,
  field = 'items',
): { items: PlanPayItem[] } | { errors: ItemErrors } {
  const errors: ItemErrors = {};
  const items: PlanPayItem[] = [];
  inputs.forEach((input, index) => {
    const type = types.get(input.code);
    if (!type) errors[`${field}.${index}.type`] = [UNKNOWN_TYPE];
    else items.push({ type, amount: input.amount, description: input.description, originPeriod: input.originPeriod });
  });
  return Object.keys(errors).length > 0 ? { errors } : { items };
}

/** Every code named by these lists of inputs, once. */
export const codesOf = (lists: readonly (readonly ItemInput[] | undefined)[]) => [
  ...new Set(lists.flatMap((list) => (list ?? []).map((input) => input.code))),
];
