// The `items` of a request (P2 paystubs, run overrides, off-cycle runs, final pay): `[{type, amount,
// description?, origin_period?}]` (docs/payroll.md, "Pay items"). The pay-items module parses them;
// here their codes are resolved, in one lookup per request, against the built-in catalog and the
// company's own types (the resolver createModules hands in), and turned into the planner's items.
import type { Executor } from '../../db/client.js';
import { builtInPayItemType, LOAN_ITEM_CODES, type PayItemType } from '../../tax-engine/pay-items.js';
import { type ParsedItemInput, parseItemsInput, unknownTypeErrors } from '../pay-items/index.js';
import type { PlanPayItem } from './paystubs.plan.types.js';

/** The request's shape is parsed by the pay-items module (one parser for every route that takes items). */
export { parseItemsInput };
export type ItemInput = ParsedItemInput;
export type ItemErrors = Record<string, string[]>;

/**
 * Looks up type codes: the built-in catalog and the company's own types (one query). Inside a
 * transaction pass it: on the embedded database a read outside the open transaction would wait for it.
 */
export type ResolveItemTypes = (companyId: number, codes: string[], tx?: Executor) => Promise<ReadonlyMap<string, PayItemType>>;

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
  // Loan repayments are put on paystubs by the loans module alone: a request naming one names no type.
  const usable = new Map([...types].filter(([code]) => !LOAN_ITEM_CODES.has(code)));
  const errors: ItemErrors = unknownTypeErrors(inputs, usable, field);
  if (Object.keys(errors).length > 0) return { errors };
  return {
    items: inputs.map((input) => ({
      type: usable.get(input.code) as PayItemType,
      amount: input.amount,
      description: input.description,
      originPeriod: input.originPeriod,
    })),
  };
}

/** Every code named by these lists of inputs, once. */
export const codesOf = (lists: readonly (readonly ItemInput[] | undefined)[]) => [
  ...new Set(lists.flatMap((list) => (list ?? []).map((input) => input.code))),
];
