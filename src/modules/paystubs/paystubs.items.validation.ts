// Validation of one P2 item. Items are independent: each failure is reported on its own as {id,
// errors: {field: [message]}} and never fails the run (docs/payroll.md, "The payroll rules").

import { fieldLabel } from '../../platform/field-reader.js';
import { isRecord } from '../../platform/guards.js';
import { type Kobo, toKobo } from '../../tax-engine/money.js';
import { type ItemInput, parseItemsInput } from './paystubs.item-input.validation.js';
import type { FailedItem, PlanItem } from './paystubs.plan.types.js';

/** A valid P2 item whose pay items' types are still codes (resolved in one lookup per call). */
export type ValidatedItem = PlanItem & { itemInputs: ItemInput[] };

/** ₦1 trillion per period: far above any payslip, far below numeric(18,2). */
const MAX_AMOUNT = 100_000_000_000_000n;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function validDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const label = fieldLabel;

function amount(item: Record<string, unknown>, field: string, errors: Record<string, string[]>): Kobo {
  const raw = item[field];
  if (raw === undefined || raw === null || raw === '') {
    errors[field] = [`The ${label(field)} field is required.`];
    return 0n;
  }
  if (typeof raw !== 'number' && (typeof raw !== 'string' || !/^-?\d+(\.\d+)?$/.test(raw.trim()))) {
    errors[field] = [`The ${label(field)} field must be a number.`];
    return 0n;
  }
  if (Number(raw) < 0) {
    errors[field] = [`The ${label(field)} field must be at least 0.`];
    return 0n;
  }
  const kobo = toKobo(raw);
  if (kobo === null) {
    errors[field] = [`The ${label(field)} field must have at most 2 decimal places.`];
    return 0n;
  }
  if (kobo > MAX_AMOUNT) {
    errors[field] = [`The ${label(field)} field must not be greater than 1000000000000.`];
    return 0n;
  }
  return kobo;
}

export function validateItem(raw: unknown, index: number): ValidatedItem | FailedItem {
  if (!isRecord(raw)) return { index, id: null, errors: { paystub: ['Each paystub must be an object.'] } };
  const item = raw;
  const errors: Record<string, string[]> = {};
  let userId = 0;
  const id = item.id;
  if (id === undefined || id === null || id === '') {
    errors.id = ['The id field is required.'];
  } else {
    const text = typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
    if (!/^[0-9]{1,10}$/.test(text) || Number(text) < 1 || Number(text) > 2_147_483_647) errors.id = ['The selected id is invalid.'];
    else userId = Number(text);
  }
  const dates: Record<string, string> = {};
  for (const field of ['pay_period_start', 'pay_period_end']) {
    const value = item[field];
    if (value === undefined || value === null || value === '') errors[field] = [`The ${label(field)} field is required.`];
    else if (typeof value !== 'string' || !validDate(value))
      errors[field] = [`The ${label(field)} field must be a valid date in the format YYYY-MM-DD.`];
    else dates[field] = value;
  }
  if (dates.pay_period_start && dates.pay_period_end && dates.pay_period_end < dates.pay_period_start) {
    errors.pay_period_end = ['The pay period end field must be a date after or equal to pay period start.'];
  }
  const taxableIncome = amount(item, 'taxable_income', errors);
  const reimbursements = amount(item, 'reimbursements', errors);
  const otherAllowances = amount(item, 'other_allowances', errors);
  const payItems = parseItemsInput(item.items);
  if ('errors' in payItems) Object.assign(errors, payItems.errors);
  if (Object.keys(errors).length > 0 || 'errors' in payItems) return { index, id: id ?? null, errors };
  return {
    index,
    rawId: id,
    userId,
    start: dates.pay_period_start,
    end: dates.pay_period_end,
    taxableIncome,
    reimbursements,
    otherAllowances,
    itemInputs: payItems.items,
  };
}
