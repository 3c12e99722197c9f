// Payroll runs: the module's one public entry. createPayrollRunsModule(deps) gives the services
// (for the API routes and the console), the routes and the transfer jobs, all sharing one
// transfer provider. recordPaystubsRun is what P2 calls to make each of its calls a run.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import type { ResolveItemTypes } from '../paystubs/index.js';
import { createPayslipLinks } from '../paystubs/index.js';
import { payrollRunsRoutes } from './payroll-runs.routes.js';
import { createPayrollRunsService, recordPaystubsRun } from './payroll-runs.service.js';
import { createRunHistoryService } from './run-history.service.js';
import { createFunding } from './transfers/funding.service.js';
import { createPaystackTransferProvider } from './transfers/paystack-transfers.provider.js';
import { createSandboxTransferProvider } from './transfers/sandbox-transfers.provider.js';
import type { TransferProvider } from './transfers/transfer.provider.js';
import { transferJobs } from './transfers/transfers.jobs.js';
import { settleRunNow } from './transfers/transfers.now.service.js';
import { createTransferWebhook } from './transfers/transfers.webhook.service.js';
import { createWebhookPulse } from './transfers/webhook-pulse.service.js';

export type { ListedRunRow, RunOrder, RunSort } from './payroll-runs.list.repo.js';
export { RUN_SORTS } from './payroll-runs.list.repo.js';
export type { RunRow } from './payroll-runs.repo.js';
export type { CreateRunInput, ScheduledCreation } from './payroll-runs.service.js';
export { PeriodAlreadyClaimed, RUN_NOT_FOUND, RUNS_FORBIDDEN } from './payroll-runs.service.js';
export type { MonthTotals } from './run-history.service.js';
export type { TransferProvider } from './transfers/transfer.provider.js';
export type { TransferEventHandler } from './transfers/transfers.webhook.service.js';

/** PAYMENT_PROVIDER=paystack pays salaries with Paystack Transfers; otherwise the built-in sandbox. */
function configuredProvider(deps: AppDeps): TransferProvider {
  const { config, db } = deps;
  if (config.paymentProvider === 'paystack' && config.paystackSecretKey) {
    return createPaystackTransferProvider({ db, secretKey: config.paystackSecretKey, baseUrl: config.paystackBaseUrl });
  }
  return createSandboxTransferProvider({ db, delaySeconds: config.sandboxTransferDelaySeconds });
}

export function createPayrollRunsModule(deps: AppDeps, needs: { resolveItemTypes?: ResolveItemTypes; provider?: TransferProvider } = {}) {
  const transferProvider = needs.provider ?? configuredProvider(deps);
  const payslipLinks = createPayslipLinks(deps.config.publicUrl);
  // One pulse for the webhook handler and the settle jobs of this process (transfers/webhook-pulse.service.ts).
  const transferDeps = { db: deps.db, mailer: deps.mailer, provider: transferProvider, payslipLinks, webhooks: createWebhookPulse() };
  const services = {
    runs: createPayrollRunsService({ ...deps, resolveItemTypes: needs.resolveItemTypes }),
    /** The console overview's last twelve months of paid net pay and tax (one query). */
    history: createRunHistoryService({ db: deps.db }),
    funding: createFunding({ db: deps.db, provider: transferProvider }),
    /** What the payroll module calls so that every P2 call is a run too. */
    recordPaystubsRun,
    /** Paystack's transfer.* webhooks: the wallet's POST /webhooks/paystack hands them here (createModules). */
    transferEvents: createTransferWebhook(transferDeps),
    /** The transfer provider the jobs use (tests send through it to stage a crash). */
    provider: transferProvider,
    /** Sends and settles a funded run's transfers now, without the job worker (the demo seed). */
    settleNow: (companyId: number, runId: string) => settleRunNow(transferDeps, companyId, runId),
  };
  return {
    services,
    routes: payrollRunsRoutes(services),
    jobs: transferJobs(transferDeps),
  } satisfies FeatureModule<typeof services>;
}

export type PayrollRunsServices = ReturnType<typeof createPayrollRunsModule>['services'];
