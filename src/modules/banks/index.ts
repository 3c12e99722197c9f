// Banks: the Nigerian banks a salary can be paid into (GET /api/banks), the NUBAN check digit,
// finding a bank by code or by name, and resolving an account holder's name through the payment
// provider. No tables: the bank list is a data file (docs/banks.md).
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createAccountsService } from './banks.accounts.service.js';
import { banksRoutes } from './banks.routes.js';

export function createBanksModule(deps: AppDeps) {
  const services = { accounts: createAccountsService(deps.config) };
  return { services, routes: banksRoutes, jobs: [] } satisfies FeatureModule<typeof services>;
}

export {
  AccountNotResolved,
  type AccountResolver,
  createAccountResolver,
  namesMatch,
  ResolverUnavailable,
} from './account-resolver.provider.js';
export { ACCOUNT_CHECK_MESSAGES, type AccountCheck } from './banks.accounts.service.js';
export { BANK_DATA_SOURCE } from './banks.data.js';
export { BANKS, type Bank, bankByCode, bankCodeForName, paystackBankCode } from './banks.lookup.rules.js';
export { isNubanBankCode, isValidNuban, nubanCheckDigit, nubanFor } from './nuban.rules.js';
