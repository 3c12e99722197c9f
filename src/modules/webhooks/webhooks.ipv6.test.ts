// IPv6 forms of refused IPv4 addresses as webhook URLs (docs/webhooks.md, SSRF rules): the URL
// parser writes `[::127.0.0.1]` as `[::7f00:1]`, which the rules took for an ordinary IPv6 address.
// Every IPv6 form that embeds a refused IPv4 address is refused: IPv4-compatible ::/96, IPv4-mapped
// ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16; at
// registration (422 on `url`) and at delivery (the attempt fails with the same message, the
// receiver is never reached).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { webhookTestConfig } from '../../../test/helpers/webhooks.js';
import { queryRows, sql } from '../../db/client.js';
import { isInternalAddress, URL_MESSAGES } from './webhooks.address.rules.js';

const EMBEDDED = [
  '::7f00:1',
  '::127.0.0.1',
  '::a00:1',
  '::ffff:0:7f00:1',
  '::ffff:0:127.0.0.1',
  '::ffff:0:a9fe:a9fe',
  '::ffff:7f00:1',
  '::ffff:192.168.0.1',
  '0:0:0:0:0:ffff:7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b::a9fe:a9fe',
  '2002:7f00:1::1',
  '2002:a9fe:a9fe::',
];

let ctx: TestContext;
let strict: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp(webhookTestConfig);
  strict = await createTestApp({}, ctx.testDb);
  acme = await createCompany(ctx.db, { name: 'Six Hooks' });
});
afterAll(async () => {
  await strict?.close();
  await ctx?.close();
});

describe('IPv6 forms that embed a refused IPv4 address', () => {
  it('are internal addresses; public IPv4 in the same forms and public IPv6 are not', () => {
    for (const address of EMBEDDED) expect(isInternalAddress(address), address).toBe(true);
    for (const address of ['::ffff:93.184.215.14', '::ffff:5db8:d70e', '2606:4700:4700::1111', '2a00:1450:4001::200e'])
      expect(isInternalAddress(address), address).toBe(false);
  });

  it('are refused at registration and on a URL change: 422 on url, nothing stored', async () => {
    const [{ count: before }] = await queryRows<{ count: string }>(ctx.db, sql`SELECT count(*)::text AS count FROM webhook_endpoints`);
    const made = await as(strict.app, acme).post('/api/webhook-endpoints', { url: 'https://93.184.215.14/hook', events: ['*'] });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().endpoint.id;
    for (const address of EMBEDDED) {
      const url = `https://[${address}]/hook`;
      const created = await as(strict.app, acme).post('/api/webhook-endpoints', { url, events: ['*'] });
      expect([created.statusCode, created.json().error?.url], url).toEqual([422, [URL_MESSAGES.internal]]);
      const changed = await as(strict.app, acme).patch(`/api/webhook-endpoints/${id}`, { url });
      expect([changed.statusCode, changed.json().error?.url], url).toEqual([422, [URL_MESSAGES.internal]]);
    }
    const [{ count: after }] = await queryRows<{ count: string }>(ctx.db, sql`SELECT count(*)::text AS count FROM webhook_endpoints`);
    expect(Number(after)).toBe(Number(before) + 1);
    const shown = await as(strict.app, acme).get(`/api/webhook-endpoints/${id}`);
    expect(shown.json().endpoint.url).toBe('https://93.184.215.14/hook');
  });

  it('are refused at delivery: an endpoint pointing at one (made where private networks are allowed) fails with the SSRF message', async () => {
    const problems: string[] = [];
    for (const address of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1']) {
      const created = await as(ctx.app, acme).post('/api/webhook-endpoints', {
        url: `https://[${address}]/hook`,
        events: ['webhook.test'],
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().endpoint.id;
      expect((await as(strict.app, acme).post(`/api/webhook-endpoints/${id}/test`)).statusCode).toBe(202);
      await strict.app.services.webhooks.deliveries.drain();
      const [delivery] = (await as(strict.app, acme).get(`/api/webhook-endpoints/${id}/deliveries`)).json().data.data;
      if (delivery?.last_error !== URL_MESSAGES.internal || delivery?.attempts !== 1)
        problems.push(`${address}: ${JSON.stringify(delivery)}`);
    }
    expect(problems).toEqual([]);
  });
});
