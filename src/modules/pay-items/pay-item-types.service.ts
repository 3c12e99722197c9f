// Pay item types (docs/payroll.md, "Pay item types"): the built-in catalog (law, in
// src/tax-engine/pay-items.ts) and each company's own types. The paystub and run services resolve
// the codes of a request's items through resolveTypes.
import type { Db, Executor } from '../../db/client.js';
import { recordAudit } from '../../platform/audit/index.js';
import { invalid, invalidField } from '../../platform/errors.js';
import { markIdempotentChange } from '../../platform/idempotency-claims.js';
import { BUILT_IN_PAY_ITEM_TYPES, builtInPayItemType, type PayItemType } from '../../tax-engine/pay-items.js';
import { payItemTypesRepo as repo } from './pay-item-types.repo.js';
import { serializeRow, serializeType, typeOfRow } from './pay-item-types.serializer.js';
import { CODE_PATTERN, MAX_COMPANY_TYPES, readPayItemType, TYPE_MESSAGES } from './pay-item-types.validation.js';

export const PAY_ITEM_TYPES_FORBIDDEN = 'Unauthorized or invalid company ID.';
const MESSAGES = {
  listed: 'Pay item types retrieved successfully.',
  created: 'Pay item type created successfully.',
} as const;

/** Looks up item type codes for a company: the built-ins and its own types. */
export type ResolveTypes = (companyId: number, codes: readonly string[], tx?: Executor) => Promise<Map<string, PayItemType>>;

export function createPayItemTypesService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * The types `codes` name, by code: built-ins from the catalog, the company's own in one query
   * (none when every code is a built-in, or cannot be a company's code). Codes that name nothing
   * are absent (unknownTypeErrors words them). `tx`: the caller's transaction, so the types are
   * read where the items are written.
   */
  const resolveTypes: ResolveTypes = async (companyId, codes, tx) => {
    const types = new Map<string, PayItemType>();
    const own = new Set<string>();
    for (const code of codes) {
      const builtIn = builtInPayItemType(code);
      if (builtIn) types.set(code, builtIn);
      else if (CODE_PATTERN.test(code)) own.add(code);
    }
    if (own.size === 0) return types;
    for (const row of await repo.byCodes(tx ?? db, companyId, [...own])) types.set(row.code, typeOfRow(row));
    return types;
  };

  return {
    resolveTypes,

    /** Built-ins first (catalog order), then the company's own by code. */
    async list(companyId: number) {
      const own = await repo.list(db, companyId);
      return {
        message: MESSAGES.listed,
        data: [...BUILT_IN_PAY_ITEM_TYPES.map((type) => serializeType(type)), ...own.map(serializeRow)],
      };
    },

    /** A company's own type; 422 naming each bad field, a built-in's code or one the company has. */
    async create(companyId: number, body: unknown) {
      const read = readPayItemType(body);
      if ('errors' in read) throw invalid(read.errors);
      const row = await db.transaction(async (tx) => {
        if ((await repo.lockAndCount(tx, companyId)) >= MAX_COMPANY_TYPES) throw invalidField('code', TYPE_MESSAGES.tooMany);
        const inserted = await repo.insert(tx, companyId, read.type);
        if (!inserted) throw invalidField('code', TYPE_MESSAGES.codeTaken);
        await markIdempotentChange(tx, { kind: 'pay-item-type', id: inserted.id });
        await recordAudit(tx, [
          {
            companyId,
            action: 'pay_item_type.created',
            target: { type: 'pay_item_type', id: inserted.id },
            changes: { code: [null, inserted.code] },
          },
        ]);
        return inserted;
      });
      return { message: MESSAGES.created, pay_item_type: serializeRow(row) };
    },

    /** The answer of a create whose Idempotency-Key committed but whose answer was lost (docs/decisions.md). */
    async recoverCreated(companyId: number, id: number) {
      const row = Number.isInteger(id) ? await repo.find(db, companyId, id) : undefined;
      return row ? { message: MESSAGES.created, pay_item_type: serializeRow(row) } : undefined;
    },
  };
}

export type PayItemTypesService = ReturnType<typeof createPayItemTypesService>;
