// The event recorder (docs/webhooks.md): the one place a change announces itself. Called inside the
// transaction of the change, so an event exists exactly when the change does; one statement per
// call however many events (a run's paystubs, an import's summary).
import crypto from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { type AuditEvent, type FieldChange, recordAudit } from '../../platform/audit/index.js';
import { type EventRow, insertEvents } from './webhooks.events.repo.js';

export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.activated',
  'user.deactivated',
  'user.suspended',
  'user.unsuspended',
  'user.deleted',
  'user.exited',
  'user.reinstated',
  'users.import.completed',
  'payroll_run.created',
  'payroll_run.approved',
  'payroll_run.paid',
  'payroll_run.partially_paid',
  'payroll_run.failed',
  'payroll_run.cancelled',
  'paystub.paid',
  'paystub.failed',
  'invoice.created',
  'invoice.approved',
  'invoice.rejected',
  'invoice.paid',
  'invoice.deleted',
  'wallet.credited',
  'wallet.debited',
  'company.created',
  'company.activated',
  'company.deactivated',
  'loan.created',
  'loan.paid_off',
  'remittance.due_soon',
  'remittance.overdue',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface DomainEvent {
  companyId: number;
  type: EventType;
  /** The object the API returns for the resource (its serializer's output). */
  data: unknown;
  /** Field-level changes for the audit log, where the change knows its before state. */
  changes?: Record<string, FieldChange>;
}

/**
 * Every announced change is also an audit event (docs/audit.md, "What is recorded"), in the same
 * statement batch: `user.updated` on target `user` with the resource's id. A test delivery
 * changes nothing of the company's data. A bulk upload is one summarising event with its counts
 * and user ids (docs/audit.md, "Bulk changes").
 */
function auditOf(event: DomainEvent): AuditEvent | undefined {
  if (event.type === 'webhook.test') return undefined;
  const data = (event.data ?? {}) as { id?: unknown; user_ids?: unknown[]; succeeded?: number; failed?: number; operation?: string };
  // An import that changed no user changed nothing.
  if (event.type === 'users.import.completed' && data.succeeded === 0) return undefined;
  const dot = event.type.lastIndexOf('.');
  const type = event.type === 'users.import.completed' ? 'users_import' : event.type.slice(0, dot);
  const id = data.id ?? (type === 'users_import' ? `${(data.user_ids ?? []).length} users` : event.companyId);
  const counts =
    type === 'users_import' ? { operation: [null, data.operation], succeeded: [null, data.succeeded], failed: [null, data.failed] } : null;
  return {
    companyId: event.companyId,
    action: event.type,
    target: { type, id: String(id) },
    changes: event.changes ?? (counts as Record<string, FieldChange> | null),
  };
}

export const newEventId = () => `evt_${crypto.randomBytes(16).toString('hex')}`;

/** JSON with bigints (kobo) as decimal strings, the way the API writes them. */
const json = (value: unknown) => JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));

export function eventRow(event: DomainEvent, endpointId?: number): EventRow {
  const timestamp = new Date().toISOString();
  return {
    id: newEventId(),
    companyId: event.companyId,
    type: event.type,
    body: json({ type: event.type, timestamp, company_id: event.companyId, data: event.data }),
    endpointId,
  };
}

/** Records several events in the caller's transaction (one statement); returns the deliveries written. */
export async function recordEvents(executor: Executor, events: DomainEvent[]): Promise<number> {
  const deliveries = await insertEvents(
    executor,
    events.map((event) => eventRow(event)),
  );
  await recordAudit(
    executor,
    events.map(auditOf).filter((event) => event !== undefined),
  );
  return deliveries;
}

/** Records one event in the caller's transaction: `await recordEvent(tx, companyId, 'user.created', serializeUser(row))`. */
export function recordEvent(
  executor: Executor,
  companyId: number,
  type: EventType,
  data: unknown,
  changes?: Record<string, FieldChange>,
): Promise<number> {
  return recordEvents(executor, [{ companyId, type, data, changes }]);
}
