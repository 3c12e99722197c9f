// The OpenAPI 3.1 `webhooks` section: one entry per event type, describing the request we send.
import { EVENT_TYPES } from './webhooks.events.js';

const RESOURCE: Record<string, string> = {
  user: 'the user as GET /api/users/{id} answers it',
  users: 'the upload summary {operation, status, summary, succeeded, failed, user_ids}',
  payroll_run: 'the run as GET /api/payroll-runs/{id} answers it',
  paystub: 'a paystub summary {run_id, reference, status, net_pay, failure_reason, pay_period_start, pay_period_end}',
  invoice: 'the invoice as GET /api/invoices/{transaction_id} answers it',
  wallet: 'the ledger entry as GET /api/wallet/transactions lists it',
  company: 'the company as GET /api/companies/{id} answers it',
  webhook: '{endpoint_id, message}',
};

const header = (name: string, description: string) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });

export function openApiWebhooks(): Record<string, unknown> {
  const entries = EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        tags: ['webhooks'],
        summary: `${type} (docs/webhooks.md)`,
        description:
          'Signed per Standard Webhooks; answer 2xx within 10 s, or the delivery is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).',
        parameters: [
          header('webhook-id', 'The event id (evt_…), the same on every retry: deduplicate by it.'),
          header('webhook-timestamp', 'Unix seconds of this attempt.'),
          header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">, space-separated during a secret rotation.'),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'company_id', 'data'],
                properties: {
                  type: { type: 'string', const: type },
                  timestamp: { type: 'string', format: 'date-time' },
                  company_id: { type: 'integer' },
                  data: { type: 'object', description: RESOURCE[type.split('.')[0]] },
                },
              },
            },
          },
        },
        responses: { '2XX': { description: 'Received (any 2xx).' } },
      },
    },
  ]);
  return Object.fromEntries(entries);
}
