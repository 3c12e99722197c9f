// The audit log (docs/audit.md): recordAudit in the change's transaction, the actor's scope, and
// the sealer and the chain verifier used by `payroll audit verify`.
export { type BrokenLink, countChains, findBrokenLinks, sealAuditEvents } from './audit.repo.js';
export { type AuditActor, type AuditActorType, auditOrigin, registerAuditContext, runAsActor, setAuditActor } from './context.js';
export { type AuditEvent, diffFields, type FieldChange, maskAccount, recordAudit, safeChange } from './record.js';
