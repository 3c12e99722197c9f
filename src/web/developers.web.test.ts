// Developers → Webhooks over inject: add an endpoint (secret shown once, with a copy button, never
// again), a test event delivered and listed with its status code, retry, rotate (a new secret shown
// once, deliveries signed with both), disable/enable, delete; refusals (non-https URL, unknown event,
// bad CSRF) shown on the page with nothing written; another company's endpoint is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany } from '../../test/helpers/factories.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { type Receiver, startReceiver, verified, webhookTestConfig } from '../../test/helpers/webhooks.js';

let ctx: TestContext;
let receiver: Receiver;
let admin: WebClient;
let stranger: WebClient;

const PAGE = '/console/developers/webhooks';
const secretOf = (body: string) => /<code id="secret-\d+">(whsec_[^<]+)<\/code>/.exec(body)?.[1];
const endpointIdOf = (body: string) => Number(/id="endpoint-(\d+)"/.exec(body)?.[1]);
const drain = () => ctx.app.services.webhooks.deliveries.drain();

beforeAll(async () => {
  ctx = await createTestApp(webhookTestConfig);
  receiver = await startReceiver();
  const acme = await createCompany(ctx.db, { name: 'Acme Hooks' });
  const other = await createCompany(ctx.db, { name: 'Other Hooks' });
  admin = await signIn(ctx.app, (await createAdmin(ctx.db, acme.id)).email);
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

describe('console Developers → Webhooks', () => {
  it('offers the catalog event types as checkboxes, none ticked, and keeps what was typed on a refusal', async () => {
    const res = await admin.get(PAGE);
    for (const type of ['user.created', 'payroll_run.paid', 'invoice.approved', 'wallet.credited']) {
      expect(res.body).toContain(`name="events" value="${type}"`);
    }
    expect(res.body).toContain('name="events" value="*"');
    expect(res.body).not.toMatch(/name="events" value="[^"]+" checked/);
    // Nothing ticked: the service's message, the URL kept.
    const none = await admin.post(PAGE, { url: receiver.url('/none'), description: 'kept' });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('The events field');
    expect(none.body).toContain(`value="${receiver.url('/none')}"`);
    // Ticked boxes arrive as several values.
    const two = await admin.post(PAGE, { url: 'ftp://example.com/', events: ['user.created', 'invoice.paid'] });
    expect(two.statusCode).toBe(422);
    expect(two.body).toMatch(/value="user.created" checked/);
    expect(two.body).toMatch(/value="invoice.paid" checked/);
  });

  it('names WEBHOOK_ALLOW_HTTP when an http:// URL is refused', async () => {
    const strict = await createTestApp();
    try {
      const company = await createCompany(strict.db, { name: 'Strict Hooks' });
      const client = await signIn(strict.app, (await createAdmin(strict.db, company.id)).email);
      const res = await client.post(PAGE, { url: 'http://127.0.0.1:3000/hooks', events: ['user.created'] });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('The url must use https.');
      expect(res.body).toContain('WEBHOOK_ALLOW_HTTP=true');
      expect(res.body).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true');
    } finally {
      await strict.close();
    }
  });

  it('refuses bad endpoints with the message on the page and nothing written', async () => {
    let res = await admin.post(PAGE, { url: 'ftp://example.com/hook', events: '*' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('role="alert"');
    res = await admin.post(PAGE, { url: receiver.url('/bad'), events: 'user.created, no.such.event' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('is invalid');
    res = await admin.post(PAGE, { url: receiver.url('/bad'), events: '*', _csrf: 'forged' });
    expect(res.statusCode).toBe(403);
    expect((await admin.get(PAGE)).body).toContain('No webhook endpoints yet.');
  });

  it('adds an endpoint, shows its secret once, delivers a signed test event and lists it; rotates, disables, deletes', async () => {
    let res = await admin.post(PAGE, { url: receiver.url('/console'), events: '*', description: 'Our HR platform' });
    expect(res.statusCode).toBe(201);
    const secret = secretOf(res.body) as string;
    expect(secret).toMatch(/^whsec_/);
    expect(res.body).toContain('data-copy="secret-');
    const id = endpointIdOf(res.body);
    // Shown only once: the page never shows it again.
    expect((await admin.get(PAGE)).body).not.toContain(secret);

    res = await admin.post(`${PAGE}/${id}/test`, {});
    expect(res.statusCode).toBe(303);
    await drain();
    const [test] = receiver.on('/console');
    expect(verified(secret, test).type).toBe('webhook.test');
    res = await admin.get(`${PAGE}?done=tested`);
    expect(res.body).toContain('<code>webhook.test</code>');
    expect(res.body).toContain('delivered');
    expect(res.body).toContain('200');
    // One date format on every console page: "26 Nov 2026, 19:00 UTC", never an ISO timestamp.
    expect(res.body).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
    expect(res.body).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);

    // Retry a delivered one: it goes out again with the same webhook-id.
    const deliveryId = /deliveries\/(\d+)\/retry/.exec(res.body)?.[1];
    res = await admin.post(`${PAGE}/${id}/deliveries/${deliveryId}/retry`, {});
    expect(res.statusCode).toBe(303);
    await drain();
    expect(receiver.on('/console').map((r) => r.headers['webhook-id'])).toEqual([test.headers['webhook-id'], test.headers['webhook-id']]);

    // Rotate: a new secret shown once; the next delivery verifies with either secret.
    // Rotate asks first: without the confirmation the POST goes to the confirm page, nothing rotated.
    res = await admin.post(`${PAGE}/${id}/rotate-secret`, {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}/${id}/rotate-secret`);
    const confirm = await admin.get(`${PAGE}/${id}/rotate-secret`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('name="confirm" value="yes"');
    expect(confirm.body).toContain('Yes, rotate the secret');
    res = await admin.post(`${PAGE}/${id}/rotate-secret`, { confirm: 'yes' });
    expect(res.statusCode).toBe(200);
    const rotated = secretOf(res.body) as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await admin.post(`${PAGE}/${id}/test`, {});
    await drain();
    const last = receiver.on('/console').at(-1) as (typeof receiver.received)[number];
    expect(verified(rotated, last).type).toBe('webhook.test');
    expect(verified(secret, last).type).toBe('webhook.test');

    // Another company's admin reaches none of it.
    for (const path of ['test', 'rotate-secret', 'toggle', 'delete']) {
      const refused = await stranger.post(`${PAGE}/${id}/${path}`, { confirm: 'yes' });
      expect(refused.statusCode).toBe(404);
    }
    for (const path of ['rotate-secret', 'delete']) expect((await stranger.get(`${PAGE}/${id}/${path}`)).statusCode).toBe(404);
    expect((await stranger.get(PAGE)).body).not.toContain(receiver.url('/console'));

    res = await admin.post(`${PAGE}/${id}/toggle`, { disabled: 'true' });
    expect(res.statusCode).toBe(303);
    expect((await admin.get(PAGE)).body).toContain('<strong>Disabled</strong>');
    res = await admin.post(`${PAGE}/${id}/test`, {});
    expect(res.statusCode).toBe(409);
    await admin.post(`${PAGE}/${id}/toggle`, { disabled: 'false' });
    expect((await admin.get(PAGE)).body).not.toContain('<strong>Disabled</strong>');

    res = await admin.post(`${PAGE}/${id}/delete`, {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}/${id}/delete`);
    expect((await admin.get(PAGE)).body).toContain(`id="endpoint-${id}"`);
    expect((await admin.get(`${PAGE}/${id}/delete`)).body).toContain('Yes, delete the endpoint');
    res = await admin.post(`${PAGE}/${id}/delete`, { confirm: 'yes' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?done=deleted`);
    expect((await admin.get(`${PAGE}?done=deleted`)).body).toContain('No webhook endpoints yet.');
  });
});
