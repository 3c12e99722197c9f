// The endpoints API: create (secret shown once, stored encrypted), list, show, update, delete,
// validation, the SSRF rules (https only, no internal address unless allowed), the deliveries log
// with retry and test, and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { anonymous, as } from '../../../test/helpers/http.js';
import { expectTenantIsolation } from '../../../test/helpers/isolation.js';
import { type Receiver, startReceiver, verified, webhookTestConfig } from '../../../test/helpers/webhooks.js';
import { queryRows, sql } from '../../db/client.js';
import { EVENT_TYPES } from './index.js';
import { isInternalAddress } from './webhooks.address.rules.js';

let ctx: TestContext;
let strict: TestContext;
let receiver: Receiver;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp(webhookTestConfig);
  strict = await createTestApp({}, ctx.testDb);
  receiver = await startReceiver();
  acme = await createCompany(ctx.db, { name: 'Acme Hooks' });
  other = await createCompany(ctx.db, { name: 'Other Hooks' });
});
afterAll(async () => {
  await receiver?.close();
  await strict?.close();
  await ctx?.close();
});

describe('endpoints API', () => {
  it('creates an endpoint with a whsec_ secret shown once and stored encrypted', async () => {
    const res = await as(ctx.app, acme).post('/api/webhook-endpoints', {
      url: receiver.url('/api'),
      events: ['user.created', 'user.created', 'invoice.paid'],
      description: 'HR sync',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Webhook endpoint created successfully.');
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(body.endpoint).toMatchObject({
      company_id: acme.id,
      url: receiver.url('/api'),
      events: ['user.created', 'invoice.paid'],
      description: 'HR sync',
      include_children: false,
      disabled: false,
    });
    const shown = await as(ctx.app, acme).get(`/api/webhook-endpoints/${body.endpoint.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(body.secret.slice(6));
    expect(shown.json().endpoint).not.toHaveProperty('secret');
    const [row] = await queryRows<{ secret_encrypted: string }>(
      ctx.db,
      sql`SELECT secret_encrypted FROM webhook_endpoints WHERE id = ${body.endpoint.id}`,
    );
    expect(row.secret_encrypted).not.toContain(body.secret.slice(6));
  });

  it('lists with the paginator, updates and deletes', async () => {
    const created = await as(ctx.app, other).post('/api/webhook-endpoints', { url: receiver.url('/x'), events: ['*'] });
    const id = created.json().endpoint.id;
    const list = await as(ctx.app, other).get('/api/webhook-endpoints?per_page=1');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ current_page: 1, per_page: 1, total: 1 });
    expect(list.json().data.data[0].id).toBe(id);
    const patched = await as(ctx.app, other).patch(`/api/webhook-endpoints/${id}`, {
      events: ['*', 'user.created'],
      include_children: true,
      description: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().endpoint).toMatchObject({ events: ['*'], include_children: true, description: null });
    const deleted = await as(ctx.app, other).delete(`/api/webhook-endpoints/${id}`);
    expect(deleted.json()).toEqual({ message: 'Webhook endpoint deleted successfully.' });
    expect((await as(ctx.app, other).get(`/api/webhook-endpoints/${id}`)).statusCode).toBe(404);
  });

  it('refuses unknown events, a missing url and non-http(s) schemes with 422 {error: {field}}', async () => {
    const res = await as(ctx.app, acme).post('/api/webhook-endpoints', { url: 'ftp://example.com/x', events: ['user.created', 'nope'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({ url: ['The url must use https.'], 'events.1': ['The selected events.1 is invalid.'] });
    const empty = await as(ctx.app, acme).post('/api/webhook-endpoints', { url: 'https://example.com', events: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.events).toEqual(['The events field must have at least 1 item.']);
  });

  it('SSRF: https only and no internal address unless allowed (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_NETWORKS)', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'https://192.168.1.10/hook',
    ]) {
      const res = await as(strict.app, acme).post('/api/webhook-endpoints', { url, events: ['*'] });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.url, url).toEqual(['The url must not resolve to a loopback, private, link-local or internal address.']);
    }
    const http = await as(strict.app, acme).post('/api/webhook-endpoints', { url: 'http://93.184.215.14/hook', events: ['*'] });
    expect(http.json().error.url).toEqual(['The url must use https.']);
    const publicAddress = await as(strict.app, acme).post('/api/webhook-endpoints', { url: 'https://93.184.215.14/hook', events: ['*'] });
    expect(publicAddress.statusCode).toBe(201);
  });

  it('SSRF at delivery: an endpoint that now points at an internal address is refused when connecting', async () => {
    // Made while private networks were allowed; the strict app's sender refuses the loopback address it connects to.
    const created = await as(ctx.app, acme).post('/api/webhook-endpoints', { url: receiver.url('/internal'), events: ['webhook.test'] });
    const id = created.json().endpoint.id;
    const strictHttp = await createTestApp({ webhookAllowHttp: true }, ctx.testDb);
    try {
      expect((await as(strictHttp.app, acme).post(`/api/webhook-endpoints/${id}/test`)).statusCode).toBe(202);
      await strictHttp.app.services.webhooks.deliveries.drain();
      expect(receiver.on('/internal')).toEqual([]);
      const log = await as(strictHttp.app, acme).get(`/api/webhook-endpoints/${id}/deliveries`);
      expect(log.json().data.data[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_error: 'The url must not resolve to a loopback, private, link-local or internal address.',
      });
    } finally {
      await strictHttp.close();
    }
  });

  it('/openapi.json describes the management routes and every event payload in its OpenAPI 3.1 webhooks section', async () => {
    const doc = (await as(ctx.app, anonymous).get('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const payload = (type: string) => doc.webhooks[type].post.requestBody.content['application/json'].schema;
    expect(payload('paystub.paid').properties.type.const).toBe('paystub.paid');
    for (const type of EVENT_TYPES) {
      const data = payload(type).properties.data;
      // Either the API's own schema of the resource, or the summary's shape: never a bare object.
      if (data.$ref) expect(doc.components.schemas[data.$ref.replace('#/components/schemas/', '')], type).toBeDefined();
      else expect(Object.keys(data.properties ?? {}).length, type).toBeGreaterThan(0);
    }
    expect(payload('user.created').properties.data.$ref).toBe('#/components/schemas/User');
    expect(doc.components.schemas.User.properties.email).toBeDefined();
    expect(payload('payroll_run.paid').properties.data.$ref).toBe('#/components/schemas/PayrollRun');
    expect(payload('invoice.approved').properties.data.$ref).toBe('#/components/schemas/Invoice');
    expect(payload('company.created').properties.data.$ref).toBe('#/components/schemas/Company');
    expect(Object.keys(payload('users.import.completed').properties.data.properties)).toContain('user_ids');
    expect(doc.components.schemas.WebhookEndpoint.properties.url).toBeDefined();
    for (const [path, methods] of Object.entries({
      '/api/webhook-endpoints': ['get', 'post'],
      '/api/webhook-endpoints/{id}': ['get', 'patch', 'delete'],
      '/api/webhook-endpoints/{id}/rotate-secret': ['post'],
      '/api/webhook-endpoints/{id}/deliveries': ['get'],
      '/api/webhook-endpoints/{id}/deliveries/{delivery_id}/retry': ['post'],
      '/api/webhook-endpoints/{id}/test': ['post'],
    })) {
      for (const method of methods) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });

  it('classifies addresses', () => {
    for (const internal of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
    ])
      expect(isInternalAddress(internal), internal).toBe(true);
    for (const external of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111']) expect(isInternalAddress(external), external).toBe(false);
  });

  it('sends a test event to that endpoint only, lists the delivery and retries it with the same event id', async () => {
    const company = await createCompany(ctx.db, { name: 'Tester' });
    const created = await as(ctx.app, company).post('/api/webhook-endpoints', {
      url: receiver.url('/test-event'),
      events: ['user.created'],
    });
    const { endpoint, secret } = created.json();
    const sibling = await as(ctx.app, company).post('/api/webhook-endpoints', { url: receiver.url('/sibling'), events: ['*'] });
    expect(sibling.statusCode).toBe(201);
    const test = await as(ctx.app, company).post(`/api/webhook-endpoints/${endpoint.id}/test`);
    expect(test.statusCode).toBe(202);
    expect(test.json().event_id).toMatch(/^evt_/);
    await ctx.app.services.webhooks.deliveries.drain();
    const [request] = receiver.on('/test-event');
    expect(verified(secret, request)).toMatchObject({ type: 'webhook.test', company_id: company.id, data: { endpoint_id: endpoint.id } });
    expect(receiver.on('/sibling')).toEqual([]);
    const log = await as(ctx.app, company).get(`/api/webhook-endpoints/${endpoint.id}/deliveries`);
    const delivery = log.json().data.data[0];
    expect(delivery).toMatchObject({
      event_id: test.json().event_id,
      event_type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
    });
    const retried = await as(ctx.app, company).post(`/api/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`);
    expect(retried.statusCode).toBe(202);
    expect(retried.json().delivery).toMatchObject({ id: delivery.id, status: 'pending' });
    await ctx.app.services.webhooks.deliveries.drain();
    const again = receiver.on('/test-event');
    expect(again).toHaveLength(2);
    expect(again[1].headers['webhook-id']).toBe(request.headers['webhook-id']);
    const missing = await as(ctx.app, company).post(`/api/webhook-endpoints/${endpoint.id}/deliveries/2147483000/retry`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Webhook delivery not found.' });
  });

  it('another company cannot read or change an endpoint, its deliveries or its secret', async () => {
    const created = await as(ctx.app, other).post('/api/webhook-endpoints', { url: receiver.url('/mine'), events: ['*'] });
    const id = created.json().endpoint.id;
    await expectTenantIsolation(
      ctx.app,
      acme,
      other,
      [
        { method: 'GET', url: `/api/webhook-endpoints/${id}` },
        { method: 'PATCH', url: `/api/webhook-endpoints/${id}`, payload: { disabled: true } },
        { method: 'DELETE', url: `/api/webhook-endpoints/${id}` },
        { method: 'POST', url: `/api/webhook-endpoints/${id}/rotate-secret` },
        { method: 'GET', url: `/api/webhook-endpoints/${id}/deliveries` },
        { method: 'POST', url: `/api/webhook-endpoints/${id}/deliveries/1/retry` },
        { method: 'POST', url: `/api/webhook-endpoints/${id}/test` },
        { method: 'GET', url: `/api/webhook-endpoints?company_id=${other.id}` },
        { method: 'POST', url: '/api/webhook-endpoints', payload: { company_id: other.id, url: receiver.url('/evil'), events: ['*'] } },
      ],
      { tables: ['webhook_endpoints', 'webhook_deliveries', 'webhook_events'] },
    );
  });
});
