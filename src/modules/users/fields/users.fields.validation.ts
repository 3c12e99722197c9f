// Field-level rules of U3/U4, shared by the JSON endpoints and the CSV import so every entry point
// accepts and rejects exactly the same values with the same Laravel-like messages.
import { addFieldError, type FieldErrors } from '../../../platform/errors.js';
import { FieldReader, fieldLabel, isBlank } from '../../../platform/field-reader.js';
import { readBankCode, settleNewBankAccount } from '../bank/users.bank-fields.validation.js';
import { readStatutory, type StatutoryValues, settlePensionExemption } from './users.statutory-fields.validation.js';

/** A validated create request (U3, one CSV row of U8). */
export interface CreateValues {
  firstName: string;
  lastName: string;
  personalEmail: string;
  domainName: string;
  userType: string;
  title: string | null;
  department: string | null;
  officeLocation: string | null;
  baseSalary: string | null;
  allowances: string | null;
  startDate: string;
  managerEmail: string | null;
  bankName: string | null;
  accountNumber: string | null;
  /** Given, or derived from bankName (users.bank-fields.validation.ts); null when no known bank is named. */
  bankCode: string | null;
  roles: string[];
  isActive: boolean;
  notify: boolean;
  /** users.statutory-fields.validation.ts: the given statutory fields. */
  statutory?: StatutoryValues;
}

/** A validated update (U4, one CSV row of U9); undefined = leave unchanged. */
export interface UpdateValues {
  firstName?: string;
  lastName?: string;
  personalEmail?: string;
  domainName?: string;
  userType?: string;
  title?: string;
  department?: string;
  officeLocation?: string;
  baseSalary?: string;
  allowances?: string;
  startDate?: string;
  managerEmail?: string;
  bankName?: string;
  accountNumber?: string;
  bankCode?: string;
  password?: string;
  notify: boolean;
  /** users.statutory-fields.validation.ts: the given statutory fields (null clears). */
  statutory?: StatutoryValues;
}

// Up to 16 integer digits and 2 decimals: fits numeric(18,2) exactly, never a float. Decimal
// notation only: no exponent, hex, sign or spaces inside (docs/users.md, Money).
const MONEY = /^\d{1,16}(\.\d{1,2})?$/;
/** Thousands separators, only where they group: `1,250,000.50`, not `1,2,3`. */
const GROUPED = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** The platform reader plus the users' own kinds of field. */
class Reader extends FieldReader {
  money(field: string): string | undefined {
    const value = this.record[field];
    if (isBlank(value)) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') return this.fail(field, `The ${fieldLabel(field)} field must be a number.`);
    const trimmed = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
    const text = trimmed.includes(',') && GROUPED.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
    if (text.startsWith('-')) return this.fail(field, `The ${fieldLabel(field)} field must be at least 0.`);
    if (!MONEY.test(text)) {
      return /^\d+\.\d{3,}$/.test(text)
        ? this.fail(field, `The ${fieldLabel(field)} field must have at most 2 decimal places.`)
        : this.fail(field, `The ${fieldLabel(field)} field must be a number.`);
    }
    return text;
  }

  roles(field: string): string[] | undefined {
    const value = this.record[field];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) return this.fail(field, `The ${fieldLabel(field)} field must be an array.`);
    const names: string[] = [];
    for (const [index, item] of value.entries()) {
      if (typeof item !== 'string' || item.trim() === '')
        return this.fail(`${field}.${index}`, `The ${field}.${index} field must be a string.`);
      if (!names.includes(item.trim())) names.push(item.trim());
    }
    if (names.length === 0) return this.fail(field, `The ${fieldLabel(field)} field must have at least 1 items.`);
    return names;
  }

  accountNumber(field: string): string | undefined {
    const value = this.text(field, false);
    if (value === undefined) return undefined;
    // Kept as text: leading zeros are part of the account number.
    if (!/^\d{6,20}$/.test(value)) return this.fail(field, `The ${fieldLabel(field)} field must be between 6 and 20 digits.`);
    return value;
  }

  /** bank_name and account_number come together or not at all. */
  pair(bank: string | undefined, account: string | undefined, present: (field: string) => boolean): void {
    if (bank !== undefined && account === undefined && !present('account_number')) {
      this.fail('account_number', 'The account number field is required when bank name is present.');
    }
    if (account !== undefined && bank === undefined && !present('bank_name')) {
      this.fail('bank_name', 'The bank name field is required when account number is present.');
    }
  }
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export function checkCreate(record: Record<string, unknown>): Checked<CreateValues> {
  const r = new Reader(record);
  const value = {
    firstName: r.text('first_name', true),
    lastName: r.text('last_name', true),
    personalEmail: r.email('personal_email', true),
    domainName: r.text('domain_name', true)?.toLowerCase(),
    userType: r.text('user_types', true),
    title: r.text('title', false) ?? null,
    department: r.text('department', false) ?? null,
    officeLocation: r.text('office_location', false) ?? null,
    baseSalary: r.money('base_salary') ?? null,
    allowances: r.money('allowances') ?? null,
    startDate: r.date('start_date', true),
    managerEmail: r.email('manager_email', false) ?? null,
    bankName: r.text('bank_name', false) ?? null,
    accountNumber: r.accountNumber('account_number') ?? null,
    bankCode: null as string | null,
    roles: r.roles('roles') ?? ['user'],
    isActive: r.bool('is_active') ?? false,
    notify: r.bool('notify') ?? false,
    statutory: readStatutory(r, record, false),
  };
  Object.assign(value, settleNewBankAccount(r.errors, { ...value, bankCode: readBankCode(r, record) }));
  settlePensionExemption(value.statutory, r.errors);
  r.pair(value.bankName ?? undefined, value.accountNumber ?? undefined, (field) => r.has(field));
  if (Object.keys(r.errors).length > 0) return { ok: false, errors: r.errors };
  return { ok: true, value: value as CreateValues };
}

/**
 * U4/U9: every field optional; a blank value means "leave unchanged" (CSV empty cells).
 * `withPassword` is false for CSV rows (passwords are never imported from files).
 */
export function checkUpdate(record: Record<string, unknown>, passwordErrors?: FieldErrors): Checked<UpdateValues> {
  const r = new Reader(record);
  const value: UpdateValues = {
    firstName: r.text('first_name', false),
    lastName: r.text('last_name', false),
    personalEmail: r.email('personal_email', false),
    domainName: r.text('domain_name', false)?.toLowerCase(),
    userType: r.text('user_types', false),
    title: r.text('title', false),
    department: r.text('department', false),
    officeLocation: r.text('office_location', false),
    baseSalary: r.money('base_salary'),
    allowances: r.money('allowances'),
    startDate: r.date('start_date', false),
    managerEmail: r.email('manager_email', false),
    bankName: r.text('bank_name', false),
    accountNumber: r.accountNumber('account_number'),
    bankCode: readBankCode(r, record),
    notify: r.bool('notify') ?? false,
    statutory: readStatutory(r, record, true),
  };
  for (const [field, messages] of Object.entries(passwordErrors ?? {})) for (const m of messages) addFieldError(r.errors, field, m);
  if (Object.keys(r.errors).length > 0) return { ok: false, errors: r.errors };
  return { ok: true, value };
}
