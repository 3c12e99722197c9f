// The reference's introduction (info.description, Markdown) and its tags, each with a description.
// Sources: docs/decisions.md (authentication, errors, idempotency, rate limits), docs/webhooks.md,
// docs/users.md and docs/payroll-runs.md (the two pagination families).
import { GETTING_STARTED } from './getting-started.js';

const OVERVIEW = `Multi-company payroll and workforce API for Nigerian employers: employees, payroll runs and
paystubs (PAYE, pension, NHF, NHIS), the wallet that funds salaries, claims (invoices), child
companies, statutory remittances and webhooks. Amounts are naira; money travels as decimal text with
two places (\`"350000.00"\`) except where a schema says number.

## Authentication

Every \`/api\` route needs \`Authorization: Bearer <token>\`. A company has one API token at a time
(\`pk_\` and 43 characters), issued by the operator (\`POST /admin/companies\`,
\`POST /admin/companies/{id}/token\`) or by an administrator in the console; it is shown once and
expires after 30 days without use. A missing, unknown, expired or revoked token is \`401
{"error": "Unauthorized"}\`.

**Scopes.** A token carries scopes: \`all\`, a route name (\`users.index\`, the operationId here is the
same name in camelCase: \`usersIndex\`), or a prefix wildcard (\`users.*\`, \`payroll-runs.*\`). A route
outside the token's scopes answers 403 \`{"error": …}\`.

**Companies.** A token acts for its company and may target any company below it (\`company_id\` in
the query, the body or the path); another company is the route's 403 (or its 404 where documented).

The operator API (\`/admin/…\`) exists only when the server has \`ADMIN_TOKEN\`, and takes that token.

## Errors

Errors have one of a few shapes, decided per route family; each operation's 4XX examples show its own:

| Family | Routes | Validation | Other errors |
|---|---|---|---|
| plain | users, invoices, pay item types, payroll runs, wallet ledger, webhooks, compliance | 422 \`{"error": {"field": ["message"]}}\` | \`{"error": "message"}\` |
| companies | companies | 422 \`{"error": "Validation failed.", "messages": {"field": ["message"]}}\` | \`{"error": "message"}\` |
| bulk | users bulk create/update | 422 \`{"errors": {"field": ["message"]}}\` | \`{"error": "message"}\` |
| paystubs | paystubs | 400 \`{"error": "message"}\` | \`{"error": "message"}\` |
| settings | contribution settings, custom contributions, operator API | 422 \`{"error": "message"}\` | \`{"error": "message"}\` |
| wallet | top-up, transaction status | 400 \`{"status": "error", "message": "…"}\` | \`{"status": "error", "message": "…"}\` |

401, 429 and the access and scope 403s are \`{"error": …}\` on every route. Bodies over 1 MiB are 413;
malformed JSON is 400 \`{"error": "Malformed JSON body."}\`; a lost database is 503 with \`Retry-After\`.

## Pagination

Two families, as the routes were specified:

- **SCIM-style list** (\`GET /api/users\`): \`{"Resources": [...], "totalResults", "startIndex",
  "itemsPerPage"}\`, paged with \`startIndex\` (from 1) and \`count\` (or \`page\`/\`per_page\`).
- **Laravel paginator** (\`GET /api/payroll-runs\`, \`/api/paystubs\`, \`/api/wallet/transactions\`,
  \`/api/webhook-endpoints\` and its deliveries): \`{"data": {"current_page", "data": [...],
  "first_page_url", "from", "last_page", "last_page_url", "next_page_url", "path", "per_page",
  "prev_page_url", "to", "total"}}\` (with a \`message\` beside \`data\` on most), paged with
  \`page\` (from 1) and \`per_page\` (1 to 100). Follow \`next_page_url\` until it is null.

The other lists keep the shapes they were published with (companies, invoices, a company's custom
contributions as one array): each list operation's 200 schema shows what it answers.

## Idempotency

Send \`Idempotency-Key: <unique string>\` on a \`POST\` to make a retry safe: for 24 hours, the same
key with the same request replays the first answer (and never repeats the change); the same key with
a different request is 409; a retry while the first is still running is 409 until it finishes. If the
server died while running it, a retry is served within about 15 seconds: from the change it made
(creating a user, creating, approving, paying, retrying or cancelling a run) or, where the answer
cannot be rebuilt, a 409 naming what was done. Keys are read on \`POST\` only (a \`PUT\`, \`PATCH\`
or \`DELETE\` sets a state, so repeating it is harmless). The operator API does not take keys.

## Rate limits

Each token has a per-route and a global budget per window, by plan (standard, premium,
enterprise); every answer carries \`X-RateLimit-Limit-Endpoint\`, \`X-RateLimit-Remaining-Endpoint\`,
\`X-RateLimit-Limit-Global\` and \`X-RateLimit-Remaining-Global\`. Over budget: \`429 {"error": "Too
many requests."}\` with \`Retry-After\` (seconds until the window ends). Failed authentication is
limited per IP address.

## Webhooks

Register endpoints with \`/api/webhook-endpoints\`; the events and their payloads are in the
webhooks section of this document. Deliveries follow [Standard Webhooks](https://www.standardwebhooks.com):
\`webhook-id\` (the event id, the same on every retry), \`webhook-timestamp\` and \`webhook-signature\`
(\`v1,<base64 HMAC-SHA256>\` of \`id.timestamp.body\` with the endpoint's secret; two during a secret
rotation). A 2xx answer within 10 s is a delivery; failures are retried over about a day and a half.
`;

export const API_INTRODUCTION = `${OVERVIEW}\n${GETTING_STARTED}`;

/** Every tag the routes use, in the order the reference shows them. */
export const API_TAGS = [
  { name: 'users', description: 'Employees: create, update, suspend, deactivate, delete, CSV imports, bank accounts.' },
  {
    name: 'payroll runs',
    description: 'The pay cycle: draft run from salaries, approval by a second admin, payment from the wallet, retries.',
  },
  {
    name: 'pay schedules',
    description: "Pay schedules: each period's draft run created before its payment date, exactly once, holiday-aware.",
  },
  {
    name: 'pay items',
    description:
      'Pay item types: the built-in ones (bonus, overtime, arrears, benefit in kind...) and a company’s own, with their statutory flags.',
  },
  {
    name: 'loans',
    description: 'Loans and salary advances: repaid by deductions on regular paystubs, the balance falling as they are paid.',
  },
  { name: 'paystubs', description: 'Paystubs of runs, with their statutory deductions, and their PDF payslips.' },
  { name: 'payroll settings', description: 'Contribution settings (pension, NHF, NHIS, tax) and custom contributions per company.' },
  { name: 'wallet', description: 'The company wallet: top-ups through the payment provider, balance and ledger.' },
  { name: 'invoices', description: "Employees' claims (invoices): manager and finance approval, payments." },
  { name: 'companies', description: 'Child companies below the authenticated one.' },
  {
    name: 'compliance',
    description: 'Monthly PAYE, pension, NHF and NSITF schedules, their filings and deadlines, annual PAYE returns and the ITF levy.',
  },
  { name: 'webhooks', description: 'Webhook endpoints, their deliveries, secret rotation and test events.' },
  { name: 'audit', description: 'The audit log: every change, who made it and from where, on a per-company hash chain nobody can edit.' },
  { name: 'reference data', description: 'States with their PAYE authorities, and the Pension Fund Administrators.' },
  { name: 'banks', description: 'Nigerian banks with their CBN codes.' },
  { name: 'admin', description: 'The operator API (only when ADMIN_TOKEN is set): root companies, tokens, the e-mail outbox.' },
];
