// Verifying a webhook delivery (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature)
// with the maintained `standardwebhooks` package, and the typed events of the API reference's
// webhooks section.
import { Webhook } from 'standardwebhooks';
import type { webhooks } from './schema.js';

export { WebhookVerificationError } from 'standardwebhooks';

/** Every event a delivery may carry, told apart by `type` (`payroll_run.paid`, …). */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K] extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;
}[keyof webhooks];
export type WebhookEventType = WebhookEvent['type'];
/** The event of one type: `WebhookEventOf<'payroll_run.paid'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** A delivery's headers as a fetch Headers, or as node:http gives them (lower-case names). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The delivery's event, once its signature is checked against the endpoint's secret (`whsec_…`,
 * shown when the endpoint was made or its secret rotated). `body` must be the raw body as received:
 * JSON parsed and written again no longer matches the signature. Throws WebhookVerificationError for
 * a wrong signature or a timestamp more than five minutes away. Deliveries are retried with the same
 * webhook-id: deduplicate by it.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Buffer): WebhookEvent {
  return new Webhook(secret).verify(body, {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  }) as WebhookEvent;
}
