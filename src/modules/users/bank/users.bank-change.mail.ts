// A change of an employee's bank details (docs/payroll-runs.md, "Payment destinations"): whoever
// makes it (U4, U9, the console, re-invitation through U3/U8), the employee hears of it at their
// company and personal addresses, in the transaction of the change, with the bank and the new
// account's last 4 digits. The paystubs approved to the old account are held by the database in
// the same statement as the change (trigger of migrations/0186_paystub_destinations.sql). Pure.
import type { MailMessage } from '../../../platform/mail/outbox.js';
import type { UserPatch, UserRow } from '../users.repo.js';

export interface BankState {
  bankName: string | null;
  bankCode: string | null;
  accountNumber: string | null;
}

/** The user's bank details once `patch` is written (usersRepo.patchMany's rules). */
export function bankAfterPatch(user: UserRow, patch: UserPatch): BankState {
  return {
    bankName: patch.bank_name ?? user.bankName ?? null,
    accountNumber: patch.account_number ?? user.accountNumber ?? null,
    bankCode: patch.bank_identity_changed ? (patch.bank_code ?? null) : (user.bankCode ?? null),
  };
}

const norm = (value: string | null | undefined) => value?.trim() || null;

export function bankChanged(before: BankState, after: BankState): boolean {
  return (
    norm(before.bankName) !== norm(after.bankName) ||
    norm(before.bankCode) !== norm(after.bankCode) ||
    norm(before.accountNumber) !== norm(after.accountNumber)
  );
}

export interface BankChange {
  companyId: number;
  firstName: string;
  /** Company and personal addresses after the change; the previous personal one when it changed too. */
  addresses: (string | null | undefined)[];
  after: BankState;
}

/** One message per distinct address. */
export function bankChangedMails(change: BankChange, company: string): MailMessage[] {
  const last4 = (norm(change.after.accountNumber) ?? '').slice(-4);
  const bank = norm(change.after.bankName) ?? change.after.bankCode ?? 'no bank';
  const account = last4 ? `${bank}, account ending ${last4}` : `${bank}, no account number`;
  const to = [
    ...new Set(
      change.addresses
        .map(norm)
        .filter((a): a is string => a !== null)
        .map((a) => a.toLowerCase()),
    ),
  ];
  return to.map((address) => ({
    companyId: change.companyId,
    to: address,
    subject: `Your bank account at ${company} was changed`,
    text:
      `Hello ${change.firstName},\n\nThe bank account ${company} pays your salary into was changed to: ${account}.\n` +
      'Salary payments already approved to your previous account are held until an administrator approves the new one.\n' +
      'If you did not ask for this change, contact your administrator at once.\n',
  }));
}

/**
 * The bank changes among written patches (before: the locked row; after: the patch applied), as
 * messages. Hook point: the audit log records each of these changes (account numbers as last 4).
 */
export function bankChangeNotices(
  company: string,
  written: readonly { companyId: number; user: UserRow; patch: UserPatch; email: string }[],
): MailMessage[] {
  return written.flatMap(({ companyId, user, patch, email }) => {
    const after = bankAfterPatch(user, patch);
    if (!bankChanged({ bankName: user.bankName, bankCode: user.bankCode ?? null, accountNumber: user.accountNumber }, after)) return [];
    const personal = patch.personal_email ?? user.personalEmail;
    const addresses = [email, personal, personal !== user.personalEmail ? user.personalEmail : null];
    return bankChangedMails({ companyId, firstName: patch.first_name ?? user.firstName, addresses, after }, company);
  });
}

/** Whether any patch names a bank field (the only ones that can change bank details). */
export const touchesBank = (patches: readonly UserPatch[]) =>
  patches.some((p) => p.bank_name !== undefined || p.account_number !== undefined || p.bank_identity_changed);
