// Delivery to a real local receiver, every request verified with the standardwebhooks library:
// signatures and headers, the retry schedule (shortened by config), the same webhook-id on every
// retry (500 then 200, a receiver that times out), fan-out (own company, include_children, never
// another company), rotation overlap, 1 KiB of answer kept, and auto-disable with an e-mail.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { type Receiver, startReceiver, verified, webhookTestConfig } from '../../../test/helpers/webhooks.js';
import { queryRows, sql } from '../../db/client.js';
import { type EventType, recordEvent, recordEvents } from './index.js';

let ctx: TestContext;
let receiver: Receiver;
let parent: TestCompany;
let child: TestCompany;
let stranger: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp(webhookTestConfig);
  receiver = await startReceiver();
  parent = await createCompany(ctx.db, { name: 'Parent Platform' });
  child = await createCompany(ctx.db, { name: 'Child Employer', createdBy: parent.id });
  stranger = await createCompany(ctx.db, { name: 'Stranger Ltd' });
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const drain = () => ctx.app.services.webhooks.deliveries.drain();
const record = (companyId: number, type: EventType, data: unknown) => ctx.db.transaction((tx) => recordEvent(tx, companyId, type, data));

async function endpoint(company: TestCompany, path: string, body: Record<string, unknown> = {}) {
  const res = await as(ctx.app, company).post('/api/webhook-endpoints', { url: receiver.url(path), events: ['*'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { endpoint: { id: number }; secret: string };
}

/** Drains until `path` has `count` requests or the time is up (retries wait for their schedule). */
async function waitFor(path: string, count: number, ms = 5000) {
  const until = Date.now() + ms;
  while (receiver.on(path).length < count && Date.now() < until) {
    await drain();
    await sleep(50);
  }
  return receiver.on(path);
}

/** A delivery claimed by a sender that then died: its attempt counted, its lease of a minute running. */
async function leftInFlight(companyId: number, endpointId: number, transactionId: string): Promise<{ id: number }> {
  await record(companyId, 'invoice.paid', { transaction_id: transactionId });
  const [row] = await queryRows<{ id: number }>(
    ctx.db,
    sql`UPDATE webhook_deliveries d SET locked_until = now() + interval '1 minute', attempts = attempts + 1
        FROM webhook_events ev
        WHERE ev.id = d.event_id AND d.endpoint_id = ${endpointId} AND ev.body LIKE ${`%${transactionId}%`} AND d.status = 'pending'
        RETURNING d.id`,
  );
  return row;
}

describe('delivery', () => {
  it('signs every delivery the Standard Webhooks way, verifiable with the library', async () => {
    const { secret } = await endpoint(parent, '/signed');
    await record(parent.id, 'user.created', { id: 7, email: 'ada@example.com' });
    const [request] = await waitFor('/signed', 1);
    const body = verified(secret, request);
    expect(body).toMatchObject({ type: 'user.created', company_id: parent.id, data: { id: 7, email: 'ada@example.com' } });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(request.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/Payroll-Webhooks/);
    // A wrong secret does not verify.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request.body, request.headers as Record<string, string>),
    ).toThrow();
  });

  it('retries a 500 on the schedule with the same webhook-id, then delivers; keeps 1 KiB of the answer', async () => {
    const { endpoint: ep, secret } = await endpoint(parent, '/flaky', { events: ['invoice.created'] });
    receiver.script('/flaky', [500, 500, 200]);
    await record(parent.id, 'invoice.created', { transaction_id: 'INV-1' });
    const requests = await waitFor('/flaky', 3);
    expect(requests).toHaveLength(3);
    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of requests) verified(secret, request);
    // The schedule (0.2 s here) separates the attempts.
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(150);
    const list = await as(ctx.app, parent).get(`/api/webhook-endpoints/${ep.id}/deliveries`);
    expect(list.json().data.data[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status_code: 200,
      event_type: 'invoice.created',
    });
    const [row] = await queryRows<{ last_response_body: string | null }>(
      ctx.db,
      sql`SELECT last_response_body FROM webhook_deliveries WHERE endpoint_id = ${ep.id}`,
    );
    expect(row.last_response_body).toBe('ok');
  });

  it('gives up after the whole schedule (8 attempts) and marks the delivery failed, answer cut to 1 KiB', async () => {
    const { endpoint: ep } = await endpoint(parent, '/down', { events: ['wallet.debited'] });
    receiver.script('/down', [503]);
    await record(parent.id, 'wallet.debited', { amount: '10.00' });
    await waitFor('/down', 8);
    await sleep(300);
    await drain();
    expect(receiver.on('/down')).toHaveLength(8);
    const [row] = await queryRows<{ status: string; attempts: number; last_response_body: string; last_status_code: number }>(
      ctx.db,
      sql`SELECT status, attempts, last_response_body, last_status_code FROM webhook_deliveries WHERE endpoint_id = ${ep.id}`,
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 8, last_status_code: 503 });
    expect(row.last_response_body.length).toBe(1024);
  });

  it('a receiver that times out gets the event again with the same webhook-id', async () => {
    await endpoint(parent, '/slow', { events: ['company.activated'] });
    receiver.script('/slow', [2000, 200]);
    await record(parent.id, 'company.activated', { id: parent.id });
    const requests = await waitFor('/slow', 2);
    expect(requests).toHaveLength(2);
    expect(requests[0].headers['webhook-id']).toBe(requests[1].headers['webhook-id']);
  });

  it('a delivery left in flight by a dead sender waits for its lease, or is freed at once when the queue releases abandoned claims', async () => {
    const { endpoint: leased } = await endpoint(parent, '/leased', { events: ['invoice.paid'] });
    const { id: deliveryId } = await leftInFlight(parent.id, leased.id, 'INV-LEASE-1');
    await drain();
    expect(receiver.on('/leased')).toHaveLength(0);
    // Its lease over (moved back, as time would move it), the next run sends it again.
    await ctx.db.execute(sql`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = ${deliveryId}`);
    expect(await waitFor('/leased', 1)).toHaveLength(1);

    // The embedded server at start-up (the only worker) frees the leases with the jobs' claims.
    const second = await leftInFlight(parent.id, leased.id, 'INV-LEASE-2');
    await drain();
    expect(receiver.on('/leased')).toHaveLength(1);
    expect(await ctx.app.deps.jobs.releaseAbandonedClaims()).toBeGreaterThanOrEqual(1);
    const requests = await waitFor('/leased', 2);
    expect(requests.map((r) => JSON.parse(r.body).data.transaction_id)).toEqual(['INV-LEASE-1', 'INV-LEASE-2']);
    const [row] = await queryRows<{ status: string; attempts: number }>(
      ctx.db,
      sql`SELECT status, attempts FROM webhook_deliveries WHERE id = ${second.id}`,
    );
    // The attempt that may have reached the receiver before the crash still counts.
    expect(row).toEqual({ status: 'delivered', attempts: 2 });
  });

  it('does not follow a redirect: a 3xx is a failed attempt, retried at the same url', async () => {
    const { endpoint: ep } = await endpoint(parent, '/redirecting', { events: ['invoice.paid'] });
    receiver.script('/redirecting', [302, 200]);
    await record(parent.id, 'invoice.paid', { transaction_id: 'INV-9' });
    const requests = await waitFor('/redirecting', 2);
    expect(requests).toHaveLength(2);
    expect(requests[0].headers['webhook-id']).toBe(requests[1].headers['webhook-id']);
    expect(receiver.on('/redirecting/moved')).toEqual([]);
    const list = await as(ctx.app, parent).get(`/api/webhook-endpoints/${ep.id}/deliveries`);
    expect(list.json().data.data[0]).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
  });

  it("reaches the company's own endpoints and ancestors' with include_children, never another company's", async () => {
    await endpoint(parent, '/parent-own', { events: ['user.updated'] });
    await endpoint(parent, '/parent-tree', { events: ['user.updated'], include_children: true });
    await endpoint(child, '/child', { events: ['user.updated'] });
    await endpoint(stranger, '/stranger', { events: ['*'], include_children: true });
    await record(child.id, 'user.updated', { id: 1 });
    await record(parent.id, 'user.updated', { id: 2 });
    await waitFor('/parent-tree', 2);
    expect(receiver.on('/child').map((r) => JSON.parse(r.body).data.id)).toEqual([1]);
    expect(receiver.on('/parent-own').map((r) => JSON.parse(r.body).data.id)).toEqual([2]);
    expect(
      receiver
        .on('/parent-tree')
        .map((r) => JSON.parse(r.body).data.id)
        .sort(),
    ).toEqual([1, 2]);
    expect(receiver.on('/stranger')).toEqual([]);
  });

  it('filters by event type and skips disabled endpoints; events reaching nobody are not stored', async () => {
    const company = await createCompany(ctx.db, { name: 'Filter Co' });
    const { endpoint: ep } = await endpoint(company, '/filtered', { events: ['payroll_run.paid'] });
    await record(company.id, 'payroll_run.created', { id: 'run_1' });
    const patched = await as(ctx.app, company).patch(`/api/webhook-endpoints/${ep.id}`, { disabled: true });
    expect(patched.json().endpoint).toMatchObject({ disabled: true });
    await record(company.id, 'payroll_run.paid', { id: 'run_1' });
    await drain();
    expect(receiver.on('/filtered')).toEqual([]);
    const [count] = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM webhook_events WHERE company_id = ${company.id}`,
    );
    expect(count.n).toBe(0);
  });

  it('signs with the old and the new secret for 24 h after a rotation', async () => {
    const { endpoint: ep, secret: oldSecret } = await endpoint(stranger, '/rotating');
    const rotated = await as(ctx.app, stranger).post(`/api/webhook-endpoints/${ep.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().secret as string;
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const overlapHours = (Date.parse(rotated.json().endpoint.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    await record(stranger.id, 'user.created', { id: 3 });
    const [request] = await waitFor('/rotating', 1);
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(oldSecret, request).data).toEqual({ id: 3 });
    expect(verified(newSecret, request).data).toEqual({ id: 3 });
    // Once the overlap is over, only the new secret signs.
    await ctx.db.execute(sql`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${ep.id}`);
    await record(stranger.id, 'user.created', { id: 4 });
    const requests = await waitFor('/rotating', 2);
    expect(String(requests[1].headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verified(oldSecret, requests[1])).toThrow();
    expect(verified(newSecret, requests[1]).data).toEqual({ id: 4 });
  });

  it('one statement records many events (a batch of paystubs) and one wake-up job', async () => {
    const company = await createCompany(ctx.db, { name: 'Batch Co' });
    await endpoint(company, '/batch', { events: ['paystub.paid'] });
    const [before] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhooks.deliver'`);
    const events = Array.from({ length: 300 }, (_, i) => ({ companyId: company.id, type: 'paystub.paid' as const, data: { id: i } }));
    expect(await ctx.db.transaction((tx) => recordEvents(tx, events))).toBe(300);
    const [after] = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhooks.deliver'`);
    expect(after.n - before.n).toBe(1);
    const requests = await waitFor('/batch', 300);
    expect(new Set(requests.map((r) => JSON.parse(r.body).data.id)).size).toBe(300);
  });

  it('an event rolled back with its transaction is never delivered', async () => {
    await endpoint(stranger, '/rollback', { events: ['company.deactivated'] });
    await expect(
      ctx.db.transaction(async (tx) => {
        await recordEvent(tx, stranger.id, 'company.deactivated', { id: stranger.id });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await drain();
    expect(receiver.on('/rollback')).toEqual([]);
  });

  it('disables an endpoint failing for 5 days and e-mails the company admins', async () => {
    const company = await createCompany(ctx.db, { name: 'Failing Co' });
    await createUsers(ctx.db, company.id, [{ firstName: 'Ada', lastName: 'Admin', roles: ['admin'], isActive: true }]);
    const { endpoint: ep } = await endpoint(company, '/dead', { events: ['user.deleted'] });
    receiver.script('/dead', [500]);
    await ctx.db.execute(sql`UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE id = ${ep.id}`);
    await record(company.id, 'user.deleted', { id: 9 });
    await waitFor('/dead', 1);
    const shown = await as(ctx.app, company).get(`/api/webhook-endpoints/${ep.id}`);
    expect(shown.json().endpoint).toMatchObject({ disabled: true, disabled_reason: 'Every delivery failed for 5 days.' });
    const mails = await queryRows<{ subject: string }>(ctx.db, sql`SELECT subject FROM outbox WHERE company_id = ${company.id}`);
    expect(mails.map((m) => m.subject)).toContain('A webhook endpoint was disabled');
    // Its pending retry is not sent while it stays disabled.
    await sleep(300);
    await drain();
    expect(receiver.on('/dead')).toHaveLength(1);
    // Enabled again: the reason and the failure streak are cleared, and new events go out.
    receiver.script('/dead', [200]);
    const enabled = await as(ctx.app, company).patch(`/api/webhook-endpoints/${ep.id}`, { disabled: false });
    expect(enabled.json().endpoint).toMatchObject({ disabled: false, disabled_reason: null });
    const [streak] = await queryRows<{ failing_since: Date | null }>(
      ctx.db,
      sql`SELECT failing_since FROM webhook_endpoints WHERE id = ${ep.id}`,
    );
    expect(streak.failing_since).toBeNull();
    await record(company.id, 'user.deleted', { id: 10 });
    const requests = await waitFor('/dead', 2);
    expect(JSON.parse(requests[1].body).data).toEqual({ id: 10 });
  });
});
