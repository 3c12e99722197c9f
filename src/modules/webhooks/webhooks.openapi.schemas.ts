// The OpenAPI 3.1 `webhooks` section: one entry per event type, describing the request we send.
// `data` is the resource as the API answers it: a $ref to the route's shared schema where the API
// has one (components named by $id, src/platform/openapi.ts), the summary's own shape otherwise.
import { EVENT_TYPES } from './webhooks.events.js';

const ref = (name: string, description: string) => ({ $ref: `#/components/schemas/${name}`, description });
const nullableString = { type: ['string', 'null'] };
const object = (properties: Record<string, unknown>, description: string) => ({
  type: 'object',
  description,
  required: Object.keys(properties),
  properties,
});

const DATA: Record<string, unknown> = {
  user: ref('User', 'The user as GET /api/users/{id} answers it.'),
  users: object(
    {
      operation: { type: 'string', enum: ['create', 'update'] },
      status: { type: 'string' },
      summary: { type: 'string' },
      succeeded: { type: 'integer' },
      failed: { type: 'integer' },
      user_ids: { type: 'array', items: { type: ['integer', 'null'] } },
    },
    'The upload summary: one event per bulk upload, never one per row.',
  ),
  payroll_run: ref('PayrollRun', 'The run as GET /api/payroll-runs/{id} answers it.'),
  paystub: object(
    {
      run_id: { type: 'string' },
      reference: { type: 'string' },
      status: { type: 'string', enum: ['paid', 'failed'] },
      net_pay: { type: 'string', description: 'decimal, NGN' },
      failure_reason: nullableString,
      pay_period_start: { type: 'string', format: 'date' },
      pay_period_end: { type: 'string', format: 'date' },
    },
    'A settled paystub.',
  ),
  invoice: ref('Invoice', 'The invoice as GET /api/invoices/{transaction_id} answers it.'),
  wallet: object(
    {
      id: { type: 'integer' },
      type: { type: 'string', enum: ['top_up', 'payroll_debit', 'payroll_refund'] },
      amount: { type: 'string', description: 'signed decimal, NGN' },
      balance_after: nullableString,
      reference: nullableString,
      description: { type: 'string' },
      created_at: { type: 'string' },
    },
    'The ledger entry as GET /api/wallet/transactions lists it.',
  ),
  company: ref('Company', 'The company as GET /api/companies/{id} answers it.'),
  loan: ref('Loan', 'The loan as GET /api/loans/{id} answers it.'),
  remittance: object(
    {
      kind: { type: 'string', enum: ['paye', 'pension', 'nhf', 'nsitf'] },
      month: { type: 'string', description: 'YYYY-MM: the month of the payments it remits' },
      authority: nullableString,
      due_date: { type: 'string', format: 'date' },
      amount: { type: 'number', description: 'NGN, two places' },
      status: { type: 'string', enum: ['due', 'overdue'] },
    },
    'A remittance schedule nearing (3 working days before) or past its due date, unfiled (GET /api/remittances/calendar).',
  ),
  webhook: object(
    { endpoint_id: { type: 'integer' }, message: { type: 'string' } },
    'A test event (POST /api/webhook-endpoints/{id}/test).',
  ),
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
                  data: DATA[type.split('.')[0]],
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
