// The console's Verify button (docs/console.md, "Employees"): before anything is saved, checks the
// NUBAN check digit of the typed account at the chosen bank and asks the payment provider whose
// account it is. Nothing is stored here: the name is stored by the user's bank-account
// verification once the employee is saved (docs/banks.md).
import type { Config } from '../../config.js';
import { AccountNotResolved, createAccountResolver, ResolverUnavailable } from './account-resolver.provider.js';
import { bankByCode } from './banks.lookup.rules.js';
import { isValidNuban } from './nuban.rules.js';

export type AccountCheck =
  | { ok: true; accountName: string; bankName: string }
  | { ok: false; field: 'bank_code' | 'account_number'; message: string; unavailable?: boolean };

export const ACCOUNT_CHECK_MESSAGES = {
  noBank: 'Choose the bank.',
  noAccount: 'Type the 10-digit account number.',
  nuban: 'The account number is not a valid NUBAN for this bank.',
  notResolved: 'Account could not be resolved.',
  unavailable: 'The bank could not be reached to resolve the account. Try again later.',
} as const;

export function createAccountsService(config: Config) {
  const resolver = createAccountResolver(config);
  return {
    async check(bankCode: string, accountNumber: string, holderName: string): Promise<AccountCheck> {
      const bank = bankByCode(bankCode);
      if (!bank) return { ok: false, field: 'bank_code', message: ACCOUNT_CHECK_MESSAGES.noBank };
      const account = accountNumber.replace(/\s+/g, '');
      if (!/^\d{10}$/.test(account)) return { ok: false, field: 'account_number', message: ACCOUNT_CHECK_MESSAGES.noAccount };
      if (!isValidNuban(bank.code, account)) return { ok: false, field: 'account_number', message: ACCOUNT_CHECK_MESSAGES.nuban };
      try {
        const accountName = await resolver.resolve({ bankCode: bank.code, accountNumber: account, holderName });
        return { ok: true, accountName, bankName: bank.name };
      } catch (error) {
        if (error instanceof AccountNotResolved) return { ok: false, field: 'account_number', message: ACCOUNT_CHECK_MESSAGES.notResolved };
        if (error instanceof ResolverUnavailable)
          return { ok: false, field: 'account_number', message: ACCOUNT_CHECK_MESSAGES.unavailable, unavailable: true };
        throw error;
      }
    },
  };
}
