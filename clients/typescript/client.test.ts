// The typed client over real HTTP against the app listening on a port, on the database of the run
// (PGlite or PostgreSQL): an employee, both pagination families, a run approved by the token, paid
// on the sandbox with an Idempotency-Key (a retry replays, never pays twice), a payslip PDF, and a
// webhook delivery verified with verifyWebhook. Also: schema.d.ts matches this app's /openapi.json.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientSchemaSource, SCHEMA_ADMIN_TOKEN } from '../../scripts/client-schema.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import { signatureHeader, signingKey } from '../../src/modules/webhooks/webhooks.secrets.rules.js';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { drainJobs, fundWallet } from '../../test/helpers/payroll-runs.js';
import { type Receiver, startReceiver, webhookTestConfig } from '../../test/helpers/webhooks.js';
import {
  createPayrollClient,
  type LaravelListPath,
  PayrollApiError,
  type PayrollClient,
  paginate,
  paginateUsers,
  unwrap,
  verifyWebhook,
  type WebhookEventOf,
  WebhookVerificationError,
  withIdempotencyKey,
} from './src/index.js';

let ctx: TestContext;
let company: TestCompany;
let receiver: Receiver;
let client: PayrollClient;
/** Every request the client sent, as `METHOD path?query`. */
const sent: string[] = [];

beforeAll(async () => {
  // The operator API on, as in the generated schema (scripts/client-schema.ts).
  ctx = await createTestApp({ ...webhookTestConfig, adminToken: SCHEMA_ADMIN_TOKEN, sandboxTransferDelaySeconds: 0 });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  receiver = await startReceiver();
  company = await createCompany(ctx.db, { runApproval: 'token' });
  client = createPayrollClient({
    baseUrl: `http://127.0.0.1:${port}`,
    token: company.token,
    fetch: (request) => {
      const url = new URL(request.url);
      sent.push(`${request.method} ${url.pathname}${url.search}`);
      return fetch(request);
    },
  });
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const person = (i: number, extra: Record<string, unknown> = {}) => ({
  first_name: `Ada${i}`,
  last_name: 'Client',
  personal_email: `ada${i}.client@example.com`,
  domain_name: company.domain,
  user_types: 'Full-time',
  start_date: '2024-01-01',
  base_salary: String(300_000 + i * 1_000),
  bank_code: '044',
  account_number: nubanFor('044', `01234560${i}`),
  is_active: true,
  ...extra,
});

describe('schema.d.ts', () => {
  it('is what openapi-typescript makes of the served /openapi.json (run npm run client:generate when not)', async () => {
    const expected = await clientSchemaSource(ctx.app.swagger());
    const committed = fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8').split('\n');
    const lines = expected.split('\n');
    const first = lines.findIndex((line, i) => line !== committed[i]);
    const where = first === -1 ? committed.length : first;
    expect(
      committed.length === lines.length && first === -1,
      `clients/typescript/src/schema.d.ts is stale from line ${where + 1} (${JSON.stringify(committed[where])} where the served document gives ${JSON.stringify(lines[where])}): run \`npm run client:generate\``,
    ).toBe(true);
  });

  it('types the Laravel-paginated lists, and only them, for paginate()', () => {
    expectTypeOf<'/api/payroll-runs'>().toExtend<LaravelListPath>();
    expectTypeOf<'/api/paystubs'>().toExtend<LaravelListPath>();
    expectTypeOf<'/api/webhook-endpoints/{id}/deliveries'>().toExtend<LaravelListPath>();
    expectTypeOf<'/api/users'>().not.toExtend<LaravelListPath>();
  });
});

describe('the getting-started flow through the client', () => {
  let runId: string;
  let employeeIds: number[];
  let secret: string;

  it('creates an administrator and employees; an Idempotency-Key makes a repeat replay the first answer', async () => {
    const boss = unwrap(await client.POST('/api/users', { body: { ...person(9), base_salary: '0', roles: ['admin'] } }));
    expect(boss.user.id).toBeGreaterThan(0);
    employeeIds = [];
    for (let i = 0; i < 3; i++) employeeIds.push(unwrap(await client.POST('/api/users', { body: person(i) })).user.id);

    const key = withIdempotencyKey();
    const first = await client.POST('/api/users', { body: person(5), ...key });
    const again = await client.POST('/api/users', { body: person(5), ...key });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(unwrap(again).user.id).toBe(unwrap(first).user.id);
    employeeIds.push(unwrap(first).user.id);

    // A refusal is typed as the error of the route's family, and unwrap throws it.
    const refused = await client.POST('/api/users', { body: person(0) });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({ error: 'User already exists and is active.' });
    expect(() => unwrap(refused)).toThrow(PayrollApiError);
  });

  it('lists every user through the SCIM family, two at a time', async () => {
    sent.length = 0;
    const users = [];
    for await (const user of paginateUsers(client, { count: 2 })) users.push(user);
    expect(users).toHaveLength(5);
    expect(new Set(users.map((u) => u.id)).size).toBe(5);
    expect(sent).toEqual([
      'GET /api/users?startIndex=1&count=2',
      'GET /api/users?startIndex=3&count=2',
      'GET /api/users?startIndex=5&count=2',
    ]);
  });

  it('registers a webhook endpoint, creates a run and approves it with the token', async () => {
    const endpoint = unwrap(
      await client.POST('/api/webhook-endpoints', { body: { url: receiver.url('/hook'), events: ['payroll_run.paid'] } }),
    );
    secret = endpoint.secret;
    const created = unwrap(
      await client.POST('/api/payroll-runs', {
        body: { pay_period_start: '2026-03-01', pay_period_end: '2026-03-31', payment_date: '2026-03-28', user_ids: employeeIds },
      }),
    );
    runId = created.run.id;
    expect(created.run.status).toBe('draft');
    const approve = await client.POST('/api/payroll-runs/{id}/approve', {
      params: { path: { id: runId } },
      body: { approver_email: person(9).personal_email },
    });
    expect(approve.response.status).toBe(200);
    expect(unwrap(approve).run.status).toBe('approved');
  });

  it('pays on the sandbox once, whatever the retries of the same Idempotency-Key', async () => {
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    const key = withIdempotencyKey();
    const paid = await client.POST('/api/payroll-runs/{id}/pay', { params: { path: { id: runId } }, body: {}, ...key });
    expect(paid.response.status).toBe(202);
    const retried = await client.POST('/api/payroll-runs/{id}/pay', { params: { path: { id: runId } }, body: {}, ...key });
    expect(retried.response.status).toBe(202);
    expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
    await drainJobs(ctx.app);
    const run = unwrap(await client.GET('/api/payroll-runs/{id}', { params: { path: { id: runId } } })).run;
    expect(run.status).toBe('paid');
    expect(run.counts).toMatchObject({ paid: 4 });
  });

  it('lists runs and paystubs through the Laravel family, page after page', async () => {
    for (const [start, end] of [
      ['2026-04-01', '2026-04-30'],
      ['2026-05-01', '2026-05-31'],
    ]) {
      unwrap(
        await client.POST('/api/payroll-runs', {
          body: { pay_period_start: start, pay_period_end: end, payment_date: end, user_ids: employeeIds },
        }),
      );
    }
    sent.length = 0;
    const runs = [];
    for await (const run of paginate(client, '/api/payroll-runs', { perPage: 2 })) runs.push(run);
    expect(runs.map((r) => r.status).sort()).toEqual(['draft', 'draft', 'paid']);
    expect(sent).toEqual(['GET /api/payroll-runs?page=1&per_page=2', 'GET /api/payroll-runs?page=2&per_page=2']);

    const paystubs = [];
    for await (const paystub of paginate(client, '/api/paystubs', { query: { transaction_id: runId }, perPage: 3 })) paystubs.push(paystub);
    expect(paystubs.map((p) => p.user_id).sort()).toEqual([...employeeIds].sort());
    expect(paystubs.every((p) => p.status === 'paid')).toBe(true);

    const payslip = await client.GET('/api/paystubs/{id}/payslip', {
      params: { path: { id: String(paystubs[0].id) } },
      parseAs: 'arrayBuffer',
    });
    expect(payslip.response.status).toBe(200);
    expect(payslip.response.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(unwrap(payslip)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("verifies the server's delivery of payroll_run.paid, typed by its event type", async () => {
    await ctx.app.services.webhooks.deliveries.drain();
    const [delivery] = receiver.on('/hook');
    expect(delivery).toBeDefined();
    const event = verifyWebhook(secret, delivery.headers, delivery.body);
    expect(event.type).toBe('payroll_run.paid');
    if (event.type !== 'payroll_run.paid') return;
    expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'payroll_run.paid'>>();
    expect(event.data).toMatchObject({ id: runId, status: 'paid', company_id: company.id });
    expect(() => verifyWebhook(secret, delivery.headers, delivery.body.replace('paid', 'lost'))).toThrow(WebhookVerificationError);
  });

  it("verifies what the server's signer signs (Headers too), and refuses another secret or an old timestamp", () => {
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), company_id: company.id, data: {} });
    const headersAt = (at: Date, key = secret) =>
      new Headers({
        'webhook-id': 'evt_client_test',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureHeader([signingKey(key)], 'evt_client_test', at, body),
      });
    expect(verifyWebhook(secret, headersAt(new Date()), body).type).toBe('webhook.test');
    expect(verifyWebhook(secret, headersAt(new Date()), Buffer.from(body)).company_id).toBe(company.id);
    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifyWebhook(otherSecret, headersAt(new Date()), body)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, headersAt(new Date(Date.now() - 10 * 60_000)), body)).toThrow(WebhookVerificationError);
  });
});
