// Wallet: W1/W2, balance, sandbox checkout, Paystack webhook, and the verification job.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createProviders } from './providers/index.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { createWalletService } from './wallet.service.js';
import { createVerification, walletVerifyJob } from './wallet.verification.service.js';
import { walletLedgerRoutes } from './wallet-ledger.routes.js';
import { webhookRoutes } from './webhook.routes.js';

/**
 * Handles Paystack events the wallet does not own (`transfer.*`: salary transfers), after the
 * route checked their signature. Passed in by createModules so the wallet never imports payroll runs.
 */
export type PaystackEventHandler = (event: string, data: unknown, log: FastifyBaseLogger) => Promise<void>;

export function createWalletModule(deps: AppDeps, options: { transferEvents?: PaystackEventHandler } = {}) {
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
      if (deps.config.paymentProvider === 'sandbox') await sandboxRoutes(app, deps.db, verification);
      await app.register(
        webhookRoutes({ config: deps.config, db: deps.db, jobs: deps.jobs, verification, transferEvents: options.transferEvents }),
      );
    },
  } satisfies FeatureModule<typeof services>;
}

export type WalletServices = ReturnType<typeof createWalletModule>['services'];

export { ProviderError, ProviderRateLimited, retryAfterSeconds } from './providers/payment.provider.js';
// Paystack's HTTP client and webhook signature (salary transfers talk to the same API).
export { type PaystackOptions, type PaystackReply, paystackRequest, validPaystackSignature } from './providers/paystack.provider.js';
// The ledger's one writer of payroll debits and refunds (payroll runs fund and refund through it).
export { type Refund, walletLedger } from './wallet-ledger.service.js';
