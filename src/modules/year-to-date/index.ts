// Opening year-to-date (docs/payroll.md, "Opening year-to-date"): a user's pay and tax of a year
// before this service, per (user, year), through GET/PUT /api/users/{id}/year-to-date/{year} and a
// CSV import. Cumulative tax reads the stored figures itself (the paystubs module's run loader), so
// this module exports nothing but its routes.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { yearToDateRoutes } from './year-to-date.routes.js';
import { createYearToDateService } from './year-to-date.service.js';

export function createYearToDateModule(deps: AppDeps) {
  const services = { yearToDate: createYearToDateService({ db: deps.db }) };
  return {
    services,
    routes: yearToDateRoutes(deps, services.yearToDate),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type YearToDateServices = ReturnType<typeof createYearToDateModule>['services'];
