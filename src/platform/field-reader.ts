// The one field-by-field reader of request bodies (and CSV rows): every field is checked and every
// problem collected as {field: [message]} with the Laravel-like messages of the spec, instead of
// stopping at the first. Features add their own field kinds on top (users/fields/users.fields.validation.ts).
import { isEmail } from './email.js';
import { addFieldError, type FieldErrors } from './errors.js';

/** `first_name` → `first name`: how a field is named in a message. */
export const fieldLabel = (field: string) => field.replace(/_/g, ' ');

/**
 * Unknown fields are refused by name (a silently ignored `status` or `is_active` would mislead).
 * `ignored` are fields the platform reads itself (`company_id`, tenancy).
 */
export function rejectUnknownFields(
  body: Record<string, unknown>,
  allowed: readonly string[],
  errors: FieldErrors,
  ignored: readonly string[] = [],
): void {
  for (const field of Object.keys(body)) {
    if (!allowed.includes(field) && !ignored.includes(field))
      addFieldError(errors, field, `The ${fieldLabel(field)} field is not allowed.`);
  }
}

export const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const MAX_TEXT = 255;

export class FieldReader {
  readonly errors: FieldErrors = {};
  constructor(protected readonly record: Record<string, unknown>) {}

  protected fail(field: string, message: string): undefined {
    addFieldError(this.errors, field, message);
    return undefined;
  }

  /** Trimmed text; blank is absent (or a `required` error). */
  text(field: string, required: boolean, max = MAX_TEXT): string | undefined {
    const value = this.record[field];
    if (isBlank(value)) return required ? this.fail(field, `The ${fieldLabel(field)} field is required.`) : undefined;
    if (typeof value !== 'string') return this.fail(field, `The ${fieldLabel(field)} field must be a string.`);
    const trimmed = value.trim();
    if (trimmed.length > max) return this.fail(field, `The ${fieldLabel(field)} field must not be greater than ${max} characters.`);
    return trimmed;
  }

  /** A valid address, lower-cased: mailboxes are matched case-insensitively everywhere. */
  email(field: string, required: boolean): string | undefined {
    const value = this.text(field, required);
    if (value === undefined) return undefined;
    if (!isEmail(value)) return this.fail(field, `The ${fieldLabel(field)} field must be a valid email address.`);
    return value.toLowerCase();
  }

  /** `YYYY-MM-DD`, a real calendar day from 1900. */
  date(field: string, required: boolean): string | undefined {
    const value = this.text(field, required);
    if (value === undefined) return undefined;
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return this.fail(field, `The ${fieldLabel(field)} field must match the format Y-m-d.`);
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (year < 1900 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
      return this.fail(field, `The ${fieldLabel(field)} field must be a valid date.`);
    }
    return value;
  }

  /** true/false, 1/0 and their strings (CSV cells, form fields). */
  bool(field: string): boolean | undefined {
    const value = this.record[field];
    if (isBlank(value)) return undefined;
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === '1' || value === 'true') return true;
    if (value === 0 || value === '0' || value === 'false') return false;
    return this.fail(field, `The ${fieldLabel(field)} field must be true or false.`);
  }

  has(field: string): boolean {
    return !isBlank(this.record[field]);
  }
}
