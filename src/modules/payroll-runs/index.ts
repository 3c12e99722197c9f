// Payroll runs: the module's one public entry. createPayrollRunsModule(deps) gives the services
// (for the API routes and the console), the routes and the transfer jobs, all sharing one
// transfer provider. recordPaystubsRun is what P2 calls to make each of its calls a run.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createPayslipLinks } from '../payroll/index.js';
import { createFunding } from './payroll-runs.funding.js';
import { payrollRunsRoutes } from './payroll-runs.routes.js';
import { createPayrollRunsService, recordPaystubsRun } from './payroll-runs.service.js';
import { createSandboxTransferProvider, type TransferProvider } from './transfer-provider.js';
import { transferJobs } from './transfers.jobs.js';
import { settleRunNow } from './transfers.now.js';

export { RUN_NOT_FOUND, RUNS_FORBIDDEN } from './payroll-runs.service.js';
export type { TransferProvider } from './transfer-provider.js';

export function createPayrollRunsModule(deps: AppDeps, provider?: TransferProvider) {
  const transferProvider =
    provider ?? createSandboxTransferProvider({ db: deps.db, delaySeconds: deps.config.sandboxTransferDelaySeconds });
  const payslipLinks = createPayslipLinks(deps.config.publicUrl);
  const transferDeps = { db: deps.db, mailer: deps.mailer, provider: transferProvider, payslipLinks };
  const services = {
    runs: createPayrollRunsService(deps),
    funding: createFunding({ db: deps.db, provider: transferProvider }),
    /** What the payroll module calls so that every P2 call is a run too. */
    recordPaystubsRun,
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
