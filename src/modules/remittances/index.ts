// Remittances (docs/compliance.md): the month's PAYE, pension, NHF and NSITF schedules with their
// due dates and downloads, the annual PAYE return and the ITF levy. Read-only over the paystubs'
// snapshots and the runs' payment dates.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { annualReturnsRoutes } from './annual-returns.routes.js';
import { createAnnualReturnsService } from './annual-returns.service.js';
import { remittanceDeadlinesJob } from './filings.jobs.js';
import { filingsRoutes } from './filings.routes.js';
import { createFilingsService } from './filings.service.js';
import { remittancesRoutes } from './remittances.routes.js';
import { createRemittancesService } from './remittances.service.js';

export function createRemittancesModule(deps: AppDeps) {
  const services = {
    remittances: createRemittancesService(deps),
    annualReturns: createAnnualReturnsService(deps),
    filings: createFilingsService(deps),
  };
  const remittanceRoutes = remittancesRoutes(services.remittances);
  const annualReturnRoutes = annualReturnsRoutes(services.annualReturns);
  const filingRoutes = filingsRoutes(services.filings);
  return {
    services,
    routes: async (app) => {
      await remittanceRoutes(app);
      await annualReturnRoutes(app);
      await filingRoutes(app);
    },
    jobs: [remittanceDeadlinesJob(services.filings)],
  } satisfies FeatureModule<typeof services>;
}

export type RemittancesServices = ReturnType<typeof createRemittancesModule>['services'];
/** Weekends and the Nigerian public holidays (holidays.data.ts): pay schedules move payment dates off them. */
export { isWorkingDay } from './due-dates.rules.js';
export type { Download } from './remittances.service.js';
