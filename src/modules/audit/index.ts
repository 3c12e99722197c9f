// The audit log's reading side (docs/audit.md): GET /api/audit-events and its CSV export, and the
// job that seals the chain. Writing is platform/audit (recordAudit in each change's transaction).
import type { AppDeps, FeatureModule } from '../../platform/deps.js';
import { auditSealJob } from './audit.jobs.js';
import { auditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';

export { AUDIT_SEAL, SEAL_EVERY_SECONDS } from './audit.jobs.js';
export { ACTOR_TYPES, createAuditService, type VerifyReport } from './audit.service.js';

export function createAuditModule(deps: AppDeps) {
  const services = { events: createAuditService(deps) };
  return {
    services,
    routes: auditRoutes(services.events),
    jobs: [auditSealJob(deps.db)],
  } satisfies FeatureModule<typeof services>;
}

export type AuditServices = ReturnType<typeof createAuditModule>['services'];
