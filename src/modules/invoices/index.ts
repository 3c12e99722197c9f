// Invoices (I1-I7): benefit and expense claims and their two-step approval.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { invoicesRoutes } from './invoices.routes.js';
import { createInvoicesService } from './invoices.service.js';

export function createInvoicesModule(deps: AppDeps) {
  const services = { invoices: createInvoicesService(deps) };
  return {
    services,
    routes: (app) => invoicesRoutes(app, services.invoices),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type InvoicesServices = ReturnType<typeof createInvoicesModule>['services'];
