// Tables of outbound webhooks (owned by src/modules/webhooks); created by migrations/0096_webhooks.sql.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    includeChildren: boolean('include_children').notNull().default(false),
    disabled: boolean('disabled').notNull().default(false),
    disabledReason: text('disabled_reason'),
    secretEncrypted: text('secret_encrypted').notNull(),
    previousSecretEncrypted: text('previous_secret_encrypted'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    failingSince: ts('failing_since'),
    // 0187: who created the endpoint (docs/webhooks.md, "Scopes"): a token (of created_by_company_id,
    // whose live token's scopes filter deliveries) or the console (the company's `all`).
    createdVia: text('created_via').$type<'token' | 'console'>().notNull().default('token'),
    createdByCompanyId: integer('created_by_company_id'),
    createdByTokenId: integer('created_by_token_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId, t.id)],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_company_idx').on(t.companyId, t.createdAt)],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastResponseBody: text('last_response_body'),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
