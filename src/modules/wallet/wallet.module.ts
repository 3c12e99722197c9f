// Wallet (issue 6): W1/W2, balance, sandbox checkout, Paystack webhook, and the verification job.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createProviders, type Providers } from './providers/index.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { walletRoutes } from './wallet.routes.js';
import { createWalletService, type WalletService } from './wallet.service.js';
import { createVerification, walletVerifyJob } from './wallet.verification.js';
import { webhookRoutes } from './webhook.routes.js';

// One provider set per app (deps object), shared by routes and the job.
const providersByDeps = new WeakMap<AppDeps, Providers>();
function providersFor(deps: AppDeps): Providers {
  let providers = providersByDeps.get(deps);
  if (!providers) {
    providers = createProviders(deps.config, deps.db);
    providersByDeps.set(deps, providers);
  }
  return providers;
}

/**
 * The wallet service of an app, for other modules (the web console: balance, ledger, transactions,
 * and top-up through the provider's checkout). Same providers as the routes and the job.
 */
export function walletServiceFor(deps: AppDeps): WalletService {
  return createWalletService({ db: deps.db, jobs: deps.jobs, config: deps.config, providers: providersFor(deps) });
}

export const walletModule: FeatureModule = {
  name: 'wallet',
  jobs: (deps) => [walletVerifyJob(createVerification({ db: deps.db, providers: providersFor(deps) })) as never],
  routes: async (app, deps) => {
    const providers = providersFor(deps);
    const service = walletServiceFor(deps);
    await walletRoutes(service)(app, deps);
    if (deps.config.paymentProvider === 'sandbox') await sandboxRoutes(app, deps.db);
    const verification = createVerification({ db: deps.db, providers });
    await app.register(webhookRoutes({ config: deps.config, db: deps.db, jobs: deps.jobs, verification }));
  },
};
