// The operator API; its routes exist only when ADMIN_TOKEN is set (docs/decisions.md, "Operator API
// and CLI"). The same service backs the `payroll` CLI, which builds it without HTTP
// (createAdminService).
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import type { CompaniesServices } from '../companies/index.js';
import { adminRoutes } from './admin.routes.js';
import { createAdminService } from './admin.service.js';

export function createAdminModule(deps: AppDeps, companies: Pick<CompaniesServices, 'vocabulary'>) {
  const services = { admin: createAdminService({ ...deps, vocabulary: companies.vocabulary }) };
  return {
    services,
    routes: (app) => adminRoutes(app, deps, services.admin),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type AdminServices = ReturnType<typeof createAdminModule>['services'];
export { type CreateCompanyInput, createAdminService, type OutboxQuery, type UpdateCompanyInput } from './admin.service.js';
