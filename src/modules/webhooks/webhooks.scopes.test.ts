// Webhooks see only what their creator may read (docs/webhooks.md, "Scopes"), through HTTP and a
// real receiver: a token that may not read users cannot subscribe to what carries them (403 with
// the events), at create and at update (a new url included); at delivery events are filtered by the
// scopes the creating company's token has now (a token regenerated with fewer scopes stops
// receiving, queued deliveries included); an endpoint created in the console reads what the
// company may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { type Receiver, startReceiver, verified, webhookTestConfig } from '../../../test/helpers/webhooks.js';
import { queryRows, sql } from '../../db/client.js';
import { issueToken } from '../../platform/auth/tokens.js';
import { recordEvent } from './webhooks.events.js';
import { readScopeOf, unreadableEvents } from './webhooks.scopes.rules.js';

let ctx: TestContext;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await createTestApp(webhookTestConfig);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const FORBIDDEN = 'This token may not read what these events carry.';

/** The company's token becomes `scopes` (one token per company: the previous one stops at once). */
async function regenerate(c: TestCompany, scopes: string[]): Promise<void> {
  const { token } = await issueToken(ctx.db, c.id, scopes);
  ctx.app.deps.authCache.clear();
  c.auth = { authorization: `Bearer ${token}` };
}

/** A user.created and a payroll_run.created of `c`, as the features record them (in a transaction). */
async function announce(c: TestCompany, tag: string) {
  await ctx.db.transaction(async (tx) => {
    await recordEvent(tx, c.id, 'user.created', { id: 1, first_name: tag, nin: '12345678901', account_number: '0690000031' });
    await recordEvent(tx, c.id, 'payroll_run.created', { id: `PR-${tag}` });
  });
}

async function received(path: string, secret: string) {
  await ctx.app.services.webhooks.deliveries.drain();
  return receiver.on(path).map((r) => verified(secret, r));
}

describe('the read scope of each event', () => {
  it('maps every event type to the read scope of what it carries; * and unknown types need all', () => {
    expect(readScopeOf('user.updated')).toBe('users.show');
    expect(readScopeOf('users.import.completed')).toBe('users.show');
    expect(readScopeOf('payroll_run.paid')).toBe('payroll-runs.show');
    expect(readScopeOf('paystub.failed')).toBe('payroll-runs.show');
    expect(readScopeOf('invoice.approved')).toBe('invoices.show');
    expect(readScopeOf('wallet.debited')).toBe('wallet.transactions');
    expect(readScopeOf('company.created')).toBe('companies.show');
    expect(readScopeOf('*')).toBe('all');
    expect(readScopeOf('remittance.overdue')).toBe('remittances.index');
    expect(readScopeOf('pension_filing.accepted')).toBe('all');
    expect(readScopeOf('webhook.test')).toBeNull();
    expect(unreadableEvents(['users.*', 'webhooks.*'], ['user.created', 'invoice.paid', 'webhook.test', '*'])).toEqual([
      'invoice.paid',
      '*',
    ]);
    expect(unreadableEvents(['all'], ['*'])).toEqual([]);
  });
});

describe('creating and updating an endpoint', () => {
  it('a token scoped to webhooks.* only may not subscribe to users, or to *: 403 with the events', async () => {
    const c = await createCompany(ctx.db, { scopes: ['webhooks.*'] });
    expect((await as(ctx.app, c).get('/api/users')).statusCode).toBe(403);
    const all = await as(ctx.app, c).post('/api/webhook-endpoints', { url: receiver.url('/w-only'), events: ['*'] });
    expect(all.statusCode).toBe(403);
    expect(all.json()).toEqual({ error: FORBIDDEN, events: ['*'] });
    const some = await as(ctx.app, c).post('/api/webhook-endpoints', {
      url: receiver.url('/w-only'),
      events: ['user.created', 'webhook.test', 'wallet.credited', 'company.created'],
    });
    expect(some.statusCode).toBe(403);
    expect(some.json()).toEqual({ error: FORBIDDEN, events: ['user.created', 'wallet.credited', 'company.created'] });
    const [{ n }] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM webhook_endpoints WHERE company_id = ${c.id}`,
    );
    expect(n).toBe(0);
    // What carries nothing of the company's is allowed.
    expect(
      (await as(ctx.app, c).post('/api/webhook-endpoints', { url: receiver.url('/w-only'), events: ['webhook.test'] })).statusCode,
    ).toBe(201);
  });

  it('a token that reads users may subscribe to user events only; update checks the events it will receive, a new url too', async () => {
    const c = await createCompany(ctx.db, { scopes: ['users.show', 'webhooks.*'] });
    const created = await as(ctx.app, c).post('/api/webhook-endpoints', {
      url: receiver.url('/u'),
      events: ['user.created', 'user.updated'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().endpoint.id;
    const widened = await as(ctx.app, c).patch(`/api/webhook-endpoints/${id}`, { events: ['*'] });
    expect(widened.statusCode).toBe(403);
    expect(widened.json()).toEqual({ error: FORBIDDEN, events: ['*'] });
    expect((await as(ctx.app, c).patch(`/api/webhook-endpoints/${id}`, { url: receiver.url('/u2') })).statusCode).toBe(200);

    // An endpoint for everything made in the console: this token may not point it elsewhere.
    const consoleMade = await ctx.app.services.webhooks.endpoints.create(
      c.id,
      { url: receiver.url('/console'), events: ['*'] },
      { via: 'console' },
    );
    const moved = await as(ctx.app, c).patch(`/api/webhook-endpoints/${consoleMade.endpoint.id}`, { url: receiver.url('/stolen') });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toEqual({ error: FORBIDDEN, events: ['*'] });
  });
});

describe('delivery', () => {
  it('follows the scopes the creating token has now: regenerated with fewer, it stops receiving what it may no longer read', async () => {
    const c = await createCompany(ctx.db);
    const res = await as(ctx.app, c).post('/api/webhook-endpoints', { url: receiver.url('/token-all'), events: ['*'] });
    expect(res.statusCode, res.body).toBe(201);
    const secret = res.json().secret as string;
    const consoleMade = await ctx.app.services.webhooks.endpoints.create(
      c.id,
      { url: receiver.url('/console-all'), events: ['*'] },
      { via: 'console' },
    );

    await announce(c, 'before');
    expect((await received('/token-all', secret)).map((b) => b.type).sort()).toEqual(['payroll_run.created', 'user.created']);

    // Queued while the token read everything, delivered after it was regenerated without users.
    await announce(c, 'queued');
    await regenerate(c, ['payroll-runs.show', 'webhooks.*']);
    await announce(c, 'after');
    const bodies = await received('/token-all', secret);
    expect(bodies.map((b) => `${b.type}:${JSON.stringify(b.data).match(/before|queued|after/)?.[0]}`).sort()).toEqual([
      'payroll_run.created:after',
      'payroll_run.created:before',
      'payroll_run.created:queued',
      'user.created:before',
    ]);
    const [skipped] = await queryRows<{ status: string; last_error: string }>(
      ctx.db,
      sql`SELECT d.status, d.last_error FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
          WHERE d.endpoint_id = ${res.json().endpoint.id} AND e.type = 'user.created' AND e.body LIKE '%queued%'`,
    );
    expect(skipped).toEqual({ status: 'failed', last_error: "Not sent: the endpoint's creator may no longer read this event." });

    // The console's endpoint reads what the company may, whatever the token's scopes.
    expect(receiver.on('/console-all')).toHaveLength(6);
    expect(consoleMade.endpoint.id).toBeGreaterThan(0);

    // No live token at all: a token-created endpoint receives nothing but test events.
    await ctx.db.execute(sql`UPDATE api_tokens SET revoked_at = now() WHERE company_id = ${c.id}`);
    await announce(c, 'revoked');
    expect(await received('/token-all', secret)).toHaveLength(4);
  });
});
