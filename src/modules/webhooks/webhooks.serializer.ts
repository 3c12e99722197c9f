// The API shapes of an endpoint and of one delivery (docs/webhooks.md). Secrets never appear here.
import { isoTimestamp } from '../../platform/format.js';
import type { DeliveryRow, EndpointRow } from './webhooks.repo.js';

export function serializeEndpoint(row: EndpointRow) {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > Date.now() ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    company_id: row.companyId,
    url: row.url,
    description: row.description,
    events: row.events,
    include_children: row.includeChildren,
    disabled: row.disabled,
    disabled_reason: row.disabled ? row.disabledReason : null,
    /** Until when deliveries are also signed with the secret before the last rotation. */
    previous_secret_expires_at: isoTimestamp(overlap),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export function serializeDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_attempt_at: isoTimestamp(row.last_attempt_at),
    next_attempt_at: row.status === 'pending' ? isoTimestamp(row.next_attempt_at) : null,
    created_at: isoTimestamp(row.created_at),
  };
}
