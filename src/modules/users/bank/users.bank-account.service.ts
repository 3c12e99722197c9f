// POST /api/users/{id}/bank-account/verify: asks the payment provider whose account the user's
// bank_code + account_number is, stores that name and when, and says whether it is the employee's
// (docs/banks.md). The provider is asked outside any transaction; the answer is stored only if
// the account did not change meanwhile. The route is users.bank-account.routes.ts.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.js';
import { recordAudit } from '../../../platform/audit/index.js';
import { badGateway, conflict, invalid, notFound } from '../../../platform/errors.js';
import { AccountNotResolved, type AccountResolver, isValidNuban, namesMatch, ResolverUnavailable } from '../../banks/index.js';
import { usersRepo } from '../users.repo.js';
import { serializeUser } from '../users.serializer.js';
import { bankAccountRepo } from './users.bank-account.repo.js';
import { INVALID_NUBAN } from './users.bank-fields.validation.js';

export const BANK_ACCOUNT_MESSAGES = {
  verified: 'Bank account verified successfully.',
  notResolved: 'Account could not be resolved.',
  noAccount: 'The user has no account number to verify.',
  noBankCode: 'The user has no bank code: set bank_code before verifying the account.',
  unavailable: 'The bank could not be reached to resolve the account. Try again later.',
  changed: 'The bank account changed while it was being verified. Try again.',
} as const;

export function createBankAccountVerification(deps: { db: Db; resolver: AccountResolver }) {
  const { db, resolver } = deps;
  return {
    async verify(companyId: number, id: number, mayGrantConsoleAccess: boolean, log: FastifyBaseLogger) {
      const row = await usersRepo.findById(db, companyId, id);
      if (!row) throw notFound('User not found.');
      const { user } = row;
      if (!user.accountNumber) throw invalid({ account_number: [BANK_ACCOUNT_MESSAGES.noAccount] });
      if (!user.bankCode) throw invalid({ bank_code: [BANK_ACCOUNT_MESSAGES.noBankCode] });
      if (!isValidNuban(user.bankCode, user.accountNumber)) throw invalid({ account_number: [INVALID_NUBAN] });
      let accountName: string;
      try {
        accountName = await resolver.resolve({
          bankCode: user.bankCode,
          accountNumber: user.accountNumber,
          holderName: `${user.firstName} ${user.lastName}`,
        });
      } catch (error) {
        if (error instanceof AccountNotResolved) throw invalid({ account_number: [BANK_ACCOUNT_MESSAGES.notResolved] });
        if (error instanceof ResolverUnavailable) {
          log.error({ err: error, provider: resolver.name }, 'payment provider could not resolve a bank account');
          throw badGateway(BANK_ACCOUNT_MESSAGES.unavailable);
        }
        throw error;
      }
      const { bankCode, accountNumber } = user;
      const stored = await db.transaction(async (tx) => {
        const written = await bankAccountRepo.storeResolvedName(tx, companyId, id, {
          bankCode,
          accountNumber,
          accountName,
        });
        if (written)
          await recordAudit(tx, [
            {
              companyId,
              action: 'user.bank_account_verified',
              target: { type: 'user', id },
              changes: { account_number: [null, accountNumber], account_name: [null, accountName] },
            },
          ]);
        return written;
      });
      const fresh = stored ? await usersRepo.findById(db, companyId, id) : undefined;
      if (!fresh) throw conflict(BANK_ACCOUNT_MESSAGES.changed);
      return {
        message: BANK_ACCOUNT_MESSAGES.verified,
        user: serializeUser(fresh, mayGrantConsoleAccess),
        account_name: accountName,
        name_matches: namesMatch(accountName, user.firstName, user.lastName),
      };
    },
  };
}

export type BankAccountVerification = ReturnType<typeof createBankAccountVerification>;
