// The bank fields of a user (docs/banks.md), kept together: bank_code read on input or derived from
// bank_name, the NUBAN check of account_number, what an update changes, and the read-only
// account_name / bank_account_verified_at of the User object. Pure.
import { Type } from 'typebox';
import { addFieldError, type FieldErrors } from '../../../platform/errors.js';
import { type FieldReader, isBlank } from '../../../platform/field-reader.js';
import { bankByCode, bankCodeForName, isValidNuban } from '../../banks/index.js';
import type { UserRow } from '../users.repo.js';

export const INVALID_NUBAN = 'The account number is not a valid NUBAN for this bank.';
export const TEN_DIGITS = 'The account number field must be 10 digits.';
export const UNKNOWN_BANK_CODE = 'The selected bank code is invalid.';

/** Request field of U3/U4 (OpenAPI). */
export const BankCodeInput = Type.Optional(
  Type.String({ description: 'a code of GET /api/banks; derived from bank_name when it names one bank' }),
);

const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });
/** The User object's bank fields after account_number (the last two are read-only). */
export const BankUserFields = {
  bank_code: NullableString,
  account_name: NullableString,
  bank_account_verified_at: NullableString,
};

/** bank_code as given (a code of ours, or the one Paystack uses for the same bank), or an error. */
export function readBankCode(reader: FieldReader, record: Record<string, unknown>): string | undefined {
  if (isBlank(record.bank_code)) return undefined;
  const text = reader.text('bank_code', false);
  if (text === undefined) return undefined;
  const bank = bankByCode(text);
  if (!bank) addFieldError(reader.errors, 'bank_code', UNKNOWN_BANK_CODE);
  return bank?.code;
}

/** The account must be a NUBAN of the bank, or ten digits when the bank is not one we know. */
function checkAccount(errors: FieldErrors, code: string | null, account: string): void {
  // One message per problem: a missing bank or a malformed number is reported already.
  if (errors.account_number || errors.bank_code || errors.bank_name) return;
  if (code !== null && !isValidNuban(code, account)) addFieldError(errors, 'account_number', INVALID_NUBAN);
  if (code === null && !/^\d{10}$/.test(account)) addFieldError(errors, 'account_number', TEN_DIGITS);
}

/**
 * U3 / a U8 row: the bank code (given, else derived from bank_name) and the bank name (given, else
 * the named bank's). The account is checked against the code.
 */
export function settleNewBankAccount(
  errors: FieldErrors,
  input: { bankName: string | null; bankCode: string | undefined; accountNumber: string | null },
): { bankName: string | null; bankCode: string | null } {
  const code = input.bankCode ?? (input.bankName ? bankCodeForName(input.bankName) : undefined) ?? null;
  const bankName = input.bankName ?? (input.bankCode ? (bankByCode(input.bankCode)?.name ?? null) : null);
  if (input.accountNumber !== null) checkAccount(errors, code, input.accountNumber);
  return { bankName, bankCode: code };
}

/** What an update does to the bank fields: only when it names one of them. */
export interface BankUpdate {
  bank_name?: string;
  bank_code: string | null;
  /** The code or the number changed: the stored code is replaced and the verification cleared. */
  bank_identity_changed: boolean;
}

/**
 * U4 / a U9 row. A new bank_code wins (and names the bank when no bank_name is given); a new
 * bank_name alone derives the code again; a new account_number alone keeps the code. The account
 * (new or stored) is checked only when one of the three is given: stored invalid numbers stay readable.
 */
export function planBankUpdate(
  errors: FieldErrors,
  values: { bankName?: string; bankCode?: string; accountNumber?: string },
  user: UserRow,
): BankUpdate | undefined {
  if (values.bankName === undefined && values.bankCode === undefined && values.accountNumber === undefined) return undefined;
  const code = values.bankCode ?? (values.bankName !== undefined ? (bankCodeForName(values.bankName) ?? null) : (user.bankCode ?? null));
  const bankName = values.bankName ?? (values.bankCode !== undefined ? bankByCode(values.bankCode)?.name : undefined);
  const account = values.accountNumber ?? user.accountNumber ?? null;
  if (account) checkAccount(errors, code, account);
  const changed = code !== (user.bankCode ?? null) || account !== (user.accountNumber ?? null);
  return {
    ...(bankName !== undefined && bankName !== user.bankName ? { bank_name: bankName } : {}),
    bank_code: code,
    bank_identity_changed: changed,
  };
}
