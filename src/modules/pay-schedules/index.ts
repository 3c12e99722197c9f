// Pay schedules (docs/payroll-runs.md, "Pay schedules"): the module's one public entry. Its runs
// are created by the payroll-runs service it is handed (createModules), so they follow every rule
// of any run.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import type { PayrollRunsServices } from '../payroll-runs/index.js';
import { paySchedulesDueJob } from './pay-schedules.jobs.js';
import { paySchedulesRoutes } from './pay-schedules.routes.js';
import { createPaySchedulesService } from './pay-schedules.service.js';

export { firstOpenPeriod, lagosDay, type Period, upcomingPeriods, WEEKDAYS } from './pay-schedules.planner.js';
export type { ScheduleView } from './pay-schedules.serializer.js';
export { SCHEDULE_NOT_FOUND } from './pay-schedules.service.js';

export function createPaySchedulesModule(deps: AppDeps, needs: { runs: PayrollRunsServices['runs'] }) {
  const service = createPaySchedulesService({ ...deps, runs: needs.runs });
  const services = { paySchedules: service };
  return {
    services,
    routes: paySchedulesRoutes(service),
    jobs: [paySchedulesDueJob(service)],
  } satisfies FeatureModule<typeof services>;
}

export type PaySchedulesServices = ReturnType<typeof createPaySchedulesModule>['services'];
