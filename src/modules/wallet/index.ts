// Wallet (issue 6): W1/W2, balance, sandbox checkout, Paystack webhook, and the verification job.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createProviders } from './providers/index.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { createWalletService } from './wallet.service.js';
import { createVerification, walletVerifyJob } from './wallet.verification.js';
import { walletLedgerRoutes } from './wallet-ledger.routes.js';
import { webhookRoutes } from './webhook.routes.js';

export function createWalletModule(deps: AppDeps) {
  // One provider set per app, shared by the service (checkout, W2), the webhook and the job.
  const providers = createProviders(deps.config, deps.db);
  const verification = createVerification({ db: deps.db, providers });
  /** wallet: balance, ledger, transactions and top-up through the provider's checkout (the console uses it too). */
  const services = { wallet: createWalletService({ db: deps.db, jobs: deps.jobs, config: deps.config, providers }) };
  return {
    services,
    jobs: [walletVerifyJob(verification)],
    routes: async (app) => {
      await walletRoutes(services.wallet)(app);
      await walletLedgerRoutes(deps)(app);
      if (deps.config.paymentProvider === 'sandbox') await sandboxRoutes(app, deps.db);
      await app.register(webhookRoutes({ config: deps.config, db: deps.db, jobs: deps.jobs, verification }));
    },
  } satisfies FeatureModule<typeof services>;
}

export type WalletServices = ReturnType<typeof createWalletModule>['services'];

// The ledger's one writer of payroll debits and refunds (payroll runs fund and refund through it).
export { type Refund, walletLedger } from './wallet-ledger.js';
