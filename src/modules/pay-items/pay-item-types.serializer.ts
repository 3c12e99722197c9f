// The API shape of a pay item type (docs/payroll.md, "Pay item types"): built-ins and a company's
// own alike, told apart by `built_in` (a built-in has no id and no creation time).
import { isoTimestamp } from '../../platform/format.js';
import type { PayItemType } from '../../tax-engine/pay-items.js';
import type { PayItemTypeRow } from './pay-item-types.repo.js';

export function serializeType(type: PayItemType, own?: { id: number; createdAt: Date }) {
  return {
    id: own?.id ?? null,
    code: type.code,
    name: type.name,
    treatment: type.treatment,
    taxable: type.taxable,
    pensionable: type.pensionable,
    nhf_base: type.nhfBase,
    nsitf_base: type.nsitfBase,
    regular: type.regular,
    cash: type.cash,
    built_in: own === undefined,
    created_at: own ? isoTimestamp(own.createdAt) : null,
  };
}

/** A company's row as the engine's PayItemType (the same flags the built-ins carry). */
export function typeOfRow(row: PayItemTypeRow): PayItemType {
  return {
    code: row.code,
    name: row.name,
    treatment: row.treatment,
    taxable: row.taxable,
    pensionable: row.pensionable,
    nhfBase: row.nhfBase,
    nsitfBase: row.nsitfBase,
    regular: row.regular,
    cash: row.cash,
  };
}

export const serializeRow = (row: PayItemTypeRow) => serializeType(typeOfRow(row), row);
