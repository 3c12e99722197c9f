// The NUBAN check digit (CBN, "Nigeria Uniform Bank Account Number" scheme, revised March 2020).
// Pure. A NUBAN is 9 serial digits and a check digit computed over the bank's code and the serial
// with the weights 3, 7, 3 repeated:
// - 3-digit CBN codes (the 2010 scheme): over the 12 digits code + serial;
// - 6-digit codes (the NIBSS variant of the revised scheme for microfinance banks and other
//   institutions): over the 15 digits code + serial. A 3-digit code padded with "000" gives the same
//   digit (the weights repeat every three), so the two are one rule over 15 digits.

const WEIGHTS = [3, 7, 3];

/** Whether `code` is a bank code a NUBAN can be checked against (3 or 6 digits). */
export const isNubanBankCode = (code: string): boolean => /^(\d{3}|\d{6})$/.test(code);

/** The check digit of `serial` (9 digits) at the bank `code` (3 or 6 digits). */
export function nubanCheckDigit(code: string, serial: string): number {
  if (!isNubanBankCode(code) || !/^\d{9}$/.test(serial)) {
    throw new Error(`A NUBAN needs a 3- or 6-digit bank code and a 9-digit serial, got "${code}" "${serial}"`);
  }
  const digits = `${code.padStart(6, '0')}${serial}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += WEIGHTS[i % 3] * (digits.charCodeAt(i) - 48);
  return (10 - (sum % 10)) % 10;
}

/** Whether `account` is a valid NUBAN at the bank `code`: 10 digits whose last is the check digit. */
export function isValidNuban(code: string, account: string): boolean {
  if (!isNubanBankCode(code) || !/^\d{10}$/.test(account)) return false;
  return nubanCheckDigit(code, account.slice(0, 9)) === account.charCodeAt(9) - 48;
}

/** The NUBAN at `code` with this serial (9 digits): the serial and its check digit. */
export const nubanFor = (code: string, serial: string): string => `${serial}${nubanCheckDigit(code, serial)}`;
