// The audit log's reading side (docs/audit.md): GET /api/audit-events and its CSV export. Writing
// is platform/audit (recordAudit in each change's transaction); this module only reads.
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { auditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';

export { ACTOR_TYPES, createAuditService, type VerifyReport } from './audit.service.js';

export function createAuditModule(deps: AppDeps) {
  const services = { events: createAuditService(deps) };
  return {
    services,
    routes: auditRoutes(services.events),
    jobs: [],
  } satisfies FeatureModule<typeof services>;
}

export type AuditServices = ReturnType<typeof createAuditModule>['services'];
