// @payroll/client: a typed client of the payroll API (clients/typescript/README.md).
export {
  createPayrollClient,
  IDEMPOTENCY_HEADER,
  idempotencyKey,
  idempotencyKeyMiddleware,
  PayrollApiError,
  type PayrollClient,
  type PayrollClientOptions,
  type RetryOptions,
  retryAfterMs,
  retryingFetch,
  unwrap,
  withIdempotencyKey,
} from './client.js';
export {
  type LaravelItem,
  type LaravelListOptions,
  type LaravelListPath,
  paginate,
  paginateUsers,
  type User,
  type UsersListOptions,
} from './pagination.js';
export type { components, operations, paths, webhooks } from './schema.js';
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';

import type { components } from './schema.js';

export type PayrollRun = components['schemas']['PayrollRun'];
export type Paystub = components['schemas']['Paystub'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
