// The opening figures' field rules (docs/payroll.md, "Opening year-to-date"), shared by the PUT body
// and each CSV row: every problem at once, in the users' Laravel-like messages. Pure.
import { addFieldError, type FieldErrors } from '../../platform/errors.js';
import { fieldLabel, isBlank, rejectUnknownFields } from '../../platform/field-reader.js';
import { type Kobo, toKobo } from '../../tax-engine/money.js';

export const AMOUNT_FIELDS = ['gross_pay', 'taxable_pay', 'tax_withheld', 'employee_pension', 'nhf', 'nhis'] as const;
export type AmountField = (typeof AMOUNT_FIELDS)[number];
export const OPENING_FIELDS = [...AMOUNT_FIELDS, 'months'] as const;

/** Tax years the service accepts: from 2021 (the oldest tax law of the engine's dated table) to 2100. */
export const MIN_YEAR = 2021;
export const MAX_YEAR = 2100;
/** numeric(18,2): at most 16 whole digits. */
const MAX_KOBO = 10n ** 18n - 1n;

export interface OpeningValues {
  amounts: Record<AmountField, Kobo>;
  months: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** A tax year as the path or a CSV cell gives it. */
export function checkYear(value: unknown, errors: FieldErrors, field = 'year'): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{4}$/.test(text) || Number(text) < MIN_YEAR || Number(text) > MAX_YEAR) {
    addFieldError(errors, field, `The ${fieldLabel(field)} must be a year between ${MIN_YEAR} and ${MAX_YEAR}.`);
    return undefined;
  }
  return Number(text);
}

/**
 * Every figure is required: an opening is a statement of the whole year so far, and a missing column
 * silently read as zero would understate the tax already withheld (decision, docs/payroll.md).
 */
export function checkOpening(record: Record<string, unknown>, ignored: readonly string[] = []): Checked<OpeningValues> {
  const errors: FieldErrors = {};
  rejectUnknownFields(record, OPENING_FIELDS, errors, ignored);
  const amounts = {} as Record<AmountField, Kobo>;
  for (const field of AMOUNT_FIELDS) {
    const value = record[field];
    if (isBlank(value)) {
      addFieldError(errors, field, `The ${fieldLabel(field)} field is required.`);
      continue;
    }
    const kobo = typeof value === 'number' || typeof value === 'string' ? toKobo(value) : null;
    if (kobo === null || kobo > MAX_KOBO) {
      addFieldError(errors, field, `The ${fieldLabel(field)} field must be an amount of at least 0 with at most 2 decimal places.`);
      continue;
    }
    amounts[field] = kobo;
  }
  const raw = record.months;
  const monthsText = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  let months = 0;
  if (isBlank(raw)) addFieldError(errors, 'months', 'The months field is required.');
  else if (monthsText === undefined || !/^\d{1,2}$/.test(monthsText) || Number(monthsText) > 12)
    addFieldError(errors, 'months', 'The months field must be a whole number between 0 and 12.');
  else months = Number(monthsText);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { amounts, months } };
}
