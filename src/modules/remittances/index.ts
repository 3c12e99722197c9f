// Remittances (docs/compliance.md): the month's PAYE, pension, NHF and NSITF schedules with their
// due dates and downloads, the annual PAYE return and the ITF levy. Read-only over the paystubs'
// snapshots and the runs' payment dates.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { createAnnualReturnsService } from './annual-returns.service.js';
import { remittancesRoutes } from './remittances.routes.js';
import { createRemittancesService } from './remittances.service.js';

export function createRemittancesModule(deps: AppDeps) {
  const services = { remittances: createRemittancesService(deps), annualReturns: createAnnualReturnsService(deps) };
  return {
    services,
    routes: remittancesRoutes(services),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type RemittancesServices = ReturnType<typeof createRemittancesModule>['services'];
/** Weekends and the Nigerian public holidays (holidays.data.ts): pay schedules move payment dates off them. */
export { isWorkingDay } from './due-dates.js';
export type { Download } from './remittances.service.js';
