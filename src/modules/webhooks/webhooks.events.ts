// The event recorder (docs/webhooks.md): the one place a change announces itself. Called inside the
// transaction of the change, so an event exists exactly when the change does; one statement per
// call however many events (a run's paystubs, an import's summary).
import crypto from 'node:crypto';
import type { Executor } from '../../db/client.js';
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
export function recordEvents(executor: Executor, events: DomainEvent[]): Promise<number> {
  return insertEvents(
    executor,
    events.map((event) => eventRow(event)),
  );
}

/** Records one event in the caller's transaction: `await recordEvent(tx, companyId, 'user.created', serializeUser(row))`. */
export function recordEvent(executor: Executor, companyId: number, type: EventType, data: unknown): Promise<number> {
  return recordEvents(executor, [{ companyId, type, data }]);
}
