// The rules of a company's own pay item type (docs/payroll.md, "Pay item types"). Pure: the fields
// of a create request in, the type or every failure by field out. The route's schema checks the
// JSON types first; these rules hold for any caller of the service (the console included).
import type { FieldErrors } from '../../platform/errors.js';
import { isRecord } from '../../platform/guards.js';
import { BUILT_IN_CODES, type PayItemFlags, type PayItemTreatment } from '../../tax-engine/pay-items.js';

export const CODE_PATTERN = /^[a-z][a-z0-9_]{1,39}$/;
export const MAX_NAME = 100;
/** A company's own types: the list is one page, so it stays short (docs/payroll.md, "Pay item types"). */
export const MAX_COMPANY_TYPES = 200;

export const TYPE_MESSAGES = {
  codeRequired: 'The code field is required.',
  codeFormat: 'The code field must start with a lower-case letter and hold 2 to 40 lower-case letters, digits or underscores.',
  codeBuiltIn: 'The code field must not be the code of a built-in type.',
  codeTaken: 'The code has already been taken.',
  nameRequired: 'The name field is required.',
  nameMax: `The name field must not be greater than ${MAX_NAME} characters.`,
  treatment: 'The selected treatment is invalid.',
  boolean: (field: string) => `The ${field.replace(/_/g, ' ')} field must be true or false.`,
  deductionFlag: (field: string) =>
    `A deduction is taken from net pay after tax and is in no statutory base: the ${field.replace(/_/g, ' ')} field must be false.`,
  deductionCash: 'A deduction is taken from pay: the cash field must be true.',
  nonCashUntaxed: 'A non-cash earning must be taxable: it is not paid, so untaxed it would change nothing.',
  tooMany: `A company may have at most ${MAX_COMPANY_TYPES} pay item types of its own.`,
} as const;

export interface NewPayItemType extends PayItemFlags {
  code: string;
  name: string;
  treatment: PayItemTreatment;
}

const FLAGS = ['taxable', 'pensionable', 'nhf_base', 'nsitf_base', 'regular', 'cash'] as const;
type FlagField = (typeof FLAGS)[number];
const STATUTORY: readonly FlagField[] = ['taxable', 'pensionable', 'nhf_base', 'nsitf_base'];

/**
 * Flags left out take the plain case of the treatment: an earning is taxable cash, irregular, in no
 * base but PAYE's (pension and NHF bases are basic salary and named emoluments, docs/payroll.md,
 * "Pay item types"); a deduction is cash and in no base.
 */
const DEFAULTS: Record<PayItemTreatment, Record<FlagField, boolean>> = {
  earning: { taxable: true, pensionable: false, nhf_base: false, nsitf_base: false, regular: false, cash: true },
  deduction: { taxable: false, pensionable: false, nhf_base: false, nsitf_base: false, regular: false, cash: true },
};

/** Reads a create request's fields; every failure at once, keyed by field. */
export function readPayItemType(body: unknown): { type: NewPayItemType } | { errors: FieldErrors } {
  const input = isRecord(body) ? body : {};
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };

  const code = input.code;
  if (code === undefined || code === null || code === '') fail('code', TYPE_MESSAGES.codeRequired);
  else if (typeof code !== 'string' || !CODE_PATTERN.test(code)) fail('code', TYPE_MESSAGES.codeFormat);
  else if (BUILT_IN_CODES.has(code)) fail('code', TYPE_MESSAGES.codeBuiltIn);

  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') fail('name', TYPE_MESSAGES.nameRequired);
  else if (name.length > MAX_NAME) fail('name', TYPE_MESSAGES.nameMax);

  const treatment = input.treatment === 'earning' || input.treatment === 'deduction' ? input.treatment : undefined;
  if (!treatment) fail('treatment', TYPE_MESSAGES.treatment);

  const flags = { ...DEFAULTS[treatment ?? 'earning'] };
  for (const field of FLAGS) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') fail(field, TYPE_MESSAGES.boolean(field));
    else flags[field] = value;
  }
  if (treatment === 'deduction') {
    for (const field of STATUTORY) if (input[field] === true) fail(field, TYPE_MESSAGES.deductionFlag(field));
    if (input.cash === false) fail('cash', TYPE_MESSAGES.deductionCash);
  } else if (treatment === 'earning' && !flags.cash && !flags.taxable && !errors.taxable) {
    fail('taxable', TYPE_MESSAGES.nonCashUntaxed);
  }

  if (Object.keys(errors).length > 0 || typeof code !== 'string' || !treatment) return { errors };
  return {
    type: {
      code,
      name,
      treatment,
      taxable: flags.taxable,
      pensionable: flags.pensionable,
      nhfBase: flags.nhf_base,
      nsitfBase: flags.nsitf_base,
      regular: flags.regular,
      cash: flags.cash,
    },
  };
}
