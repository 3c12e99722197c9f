// The HTTP platform end to end on one real app: OpenAPI and /docs, metrics, error shapes, request
// ids, logs, idempotency keys, tenant isolation, and finally a 500 and /readyz on a dead database.
import SwaggerParser from '@apidevtools/swagger-parser';
import { and, count, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { companies, idempotencyKeys } from '../../src/db/schema/index.js';
import { ROUTE_NAMES } from '../../src/platform/auth/tokens.js';
import { createTestApp, type TestContext, testConfig } from '../helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { anonymous, as } from '../helpers/http.js';
import { expectTenantIsolation } from '../helpers/isolation.js';

const METRICS_TOKEN = 'http-test-metrics-token';
let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp({ adminToken: 'http-test-admin-token', metricsToken: METRICS_TOKEN });
  acme = await createCompany(ctx.db);
  other = await createCompany(ctx.db);
});
afterAll(async () => {
  await ctx.close().catch(() => {});
});

const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('OpenAPI and reference', () => {
  it('/openapi.json is valid OpenAPI 3.1 and documents every named /api route', async () => {
    const res = await as(ctx.app, anonymous).get('/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(doc));
    expect(ctx.app.routeCatalog.length).toBeGreaterThan(1);
    for (const route of ctx.app.routeCatalog) {
      expect(doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()], `${route.method} ${route.url}`).toBeDefined();
      expect(ROUTE_NAMES as readonly string[], `route name of ${route.method} ${route.url}`).toContain(route.name);
    }
  });

  it('/docs renders an HTML reference', async () => {
    const res = await as(ctx.app, anonymous).get('/docs');
    const page = [301, 302].includes(res.statusCode) ? await as(ctx.app, anonymous).get(res.headers.location as string) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/openapi.json');
  });
});

describe('operations endpoints', () => {
  it('/healthz and /readyz answer while the database is up', async () => {
    expect((await as(ctx.app, anonymous).get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await as(ctx.app, anonymous).get('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('/metrics counts requests by route and status', async () => {
    await as(ctx.app, acme).get('/api/users');
    await as(ctx.app, anonymous).get('/api/users');
    // METRICS_TOKEN opens it on the public port (test/platform/metrics-access.test.ts: who may read it).
    const res = await as(ctx.app, anonymous).get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/users",status="200"\} [1-9]/);
    expect(res.body).toMatch(/http_requests_total\{method="GET",route="\/api\/users",status="401"\} [1-9]/);
    expect(res.body).toContain('http_request_duration_seconds_bucket');
  });
});

describe('error shapes', () => {
  it('answers unknown routes 404 {error: "Not found."} with a request id; /api ones with rate-limit headers', async () => {
    const plain = await as(ctx.app, anonymous).get('/nope');
    expect(plain.statusCode).toBe(404);
    expect(plain.json()).toEqual({ error: 'Not found.' });
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const api = await as(ctx.app, acme).delete('/api/users');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: 'Not found.' });
    expect(api.headers['x-ratelimit-remaining-global']).toBeDefined();
  });

  it('echoes a given X-Request-Id', async () => {
    const res = await as(ctx.app, anonymous).get('/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-request-id']).toBe('trace-123');
    const longest = 'Ab0._:-'.repeat(9).slice(0, 64);
    const kept = await as(ctx.app, anonymous).get('/healthz', { headers: { 'x-request-id': longest } });
    expect(kept.headers['x-request-id']).toBe(longest);
  });

  it('replaces an X-Request-Id that is too long or has other characters with its own', async () => {
    for (const unsafe of ['a'.repeat(65), 'has space', 'quote"d', '{"level":60,"msg":"forged"}', 'tab\there', '<script>', '']) {
      const res = await as(ctx.app, anonymous).get('/healthz', { headers: { 'x-request-id': unsafe } });
      expect(res.headers['x-request-id'], unsafe).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('answers malformed JSON 400 {error: "Malformed JSON body."} and writes nothing', async () => {
    const before = await ctx.db.select({ n: count() }).from(companies);
    const res = await as(ctx.app, acme).post('/api/companies', '{"name": "Half', { headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed JSON body.' });
    expect(res.headers['x-ratelimit-limit-endpoint']).toBeDefined();
    expect(await ctx.db.select({ n: count() }).from(companies)).toEqual(before);
  });

  it('reads a JSON body on GET (company_id of U1) and answers a malformed one 400', async () => {
    const get = (payload: string) =>
      as(ctx.app, acme).request('GET', '/api/users', payload, { headers: { 'content-type': 'application/json' } });
    const bad = await get('{"company_id":');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed JSON body.' });
    const other = await get(JSON.stringify({ company_id: 2_000_000_000 }));
    expect([other.statusCode, other.json()], "the body's company_id is read and judged").toEqual([
      403,
      { error: 'Unauthorized or invalid company ID.' },
    ]);
    expect((await get(JSON.stringify({ company_id: acme.id }))).statusCode).toBe(200);
  });

  it('answers bodies over 1 MiB with 413 in the family shape, also JSON bodies on GET', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const post = await as(ctx.app, acme).post('/api/companies', big, { headers: { 'content-type': 'application/json' } });
    expect(post.statusCode).toBe(413);
    expect(post.json()).toEqual({ error: 'Request body too large.' });
    const get = await as(ctx.app, acme).request('GET', '/api/users', big, { headers: { 'content-type': 'application/json' } });
    expect(get.statusCode).toBe(413);
    expect(get.json()).toEqual({ error: 'Request body too large.' });
    // Exactly at the limit is accepted by the parser (and then judged by the route).
    const atLimit = JSON.stringify({ company_id: acme.id, pad: 'x'.repeat(1024 * 1024 - 40) });
    const ok = await as(ctx.app, acme).request('GET', '/api/users', atLimit, { headers: { 'content-type': 'application/json' } });
    expect(Buffer.byteLength(atLimit)).toBeLessThanOrEqual(1024 * 1024);
    expect(ok.statusCode).toBe(200);
  });

  it("translates schema failures into the family shape, never Fastify's default body", async () => {
    const res = await as(ctx.app, acme).get('/api/users?per_page=abc');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { per_page: ['The per page field must be an integer.'] } });
    expect(res.body).not.toContain('statusCode');
  });
});

describe('logs', () => {
  it('carry request id, company id and route, and never the token or passwords', async () => {
    const lines: string[] = [];
    const logged = await buildApp({
      config: testConfig({ adminToken: 'log-test-admin-token' }),
      database: ctx.testDb.database,
      logLevel: 'info',
      logStream: { write: (line: string) => void lines.push(line) },
    });
    await logged.ready();
    try {
      const password = 'Sup3r$ecret-Passw0rd';
      await as(logged, acme).get('/api/users');
      await as(logged, anonymous).get(`/api/users?token=${acme.token}`, { headers: { authorization: `Bearer ${acme.token}x` } });
      await as(logged, acme).post('/api/companies', { password, password_confirmation: password });
      await as(logged, acme).post('/api/companies', `{"password":"${password}"`, { headers: { 'content-type': 'application/json' } });
      await as(logged, anonymous).post(
        '/admin/companies',
        { name: password },
        { headers: { authorization: 'Bearer log-test-admin-token' } },
      );
      await as(logged, anonymous).get('/admin/outbox', { headers: { authorization: 'Bearer wrong-admin-guess' } });
      await as(logged, anonymous).get(`/onboarding/${password}`);
      const forgedId = `${'z'.repeat(70)}" \u00e9`;
      await as(logged, anonymous).get('/healthz', { headers: { 'x-request-id': 'trace-kept-1' } });
      await as(logged, anonymous).get('/healthz', { headers: { 'x-request-id': 'with "quotes"\tand spaces' } });
      await as(logged, anonymous).get('/healthz', { headers: { 'x-request-id': forgedId } });
      const text = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      expect(text).not.toContain(acme.token);
      expect(text).not.toContain(password);
      expect(text).not.toContain('log-test-admin-token');
      expect(text).not.toContain('wrong-admin-guess');
      const records = lines.map((line) => JSON.parse(line));
      const completed = records.filter((r) => r.msg === 'request completed');
      expect(completed.length).toBeGreaterThan(3);
      for (const record of completed) expect(record.reqId).toBeTruthy();
      expect(records.some((r) => r.companyId === acme.id && r.route === 'users.index' && r.msg === 'request completed')).toBe(true);
      // One line per request, at completion, saying what was asked and how it ended.
      expect(records.filter((r) => r.msg === 'incoming request')).toEqual([]);
      expect(completed).toHaveLength(10);
      // A caller's safe X-Request-Id is the reqId; a refused one is only shown, escaped and cut to
      // 64 characters, beside the id the server chose.
      const [kept, quoted, long] = completed.slice(-3);
      expect(kept.reqId).toBe('trace-kept-1');
      expect(kept.req.refusedRequestId).toBeUndefined();
      expect(quoted.reqId).not.toContain('quotes');
      expect(quoted.req.refusedRequestId).toBe('with "quotes"\\x09and spaces');
      expect(long.req.refusedRequestId).toBe(`${'z'.repeat(64)}…`);
      expect(completed[0]).toMatchObject({ req: { method: 'GET', url: '/api/users' }, res: { statusCode: 200 } });
      expect(typeof completed[0].responseTime).toBe('number');
    } finally {
      await logged.close();
    }
  });
});

describe('Idempotency-Key on POST', () => {
  let app: App;
  let runs = 0;

  beforeAll(async () => {
    // A real app with one extra POST route defined here, in the test (src/ has no test branches):
    // it counts its executions and fails with a 500 on demand.
    app = await buildApp({ config: testConfig(), database: ctx.testDb.database, logLevel: 'silent' });
    app.post(
      '/api/idempotency-probe',
      { config: { name: 'users.store' }, schema: { body: Type.Object({ value: Type.String() }) } },
      async (request, reply) => {
        runs += 1;
        const { value } = request.body as { value: string };
        if (value === 'explode') throw new Error('boom');
        return reply.status(201).send({ run: runs, value });
      },
    );
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (key: string | undefined, value: string, who: TestCompany = acme) =>
    as(app, who).post('/api/idempotency-probe', { value }, key ? { headers: { 'idempotency-key': key } } : {});

  it('replays the first response for the same key and body, without running again', async () => {
    const first = await post('key-1', 'a');
    expect(first.statusCode).toBe(201);
    const again = await post('key-1', 'a');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(1);
    // Without a key every request runs.
    await post(undefined, 'a');
    await post(undefined, 'a');
    expect(runs).toBe(3);
  });

  it('refuses the same key with a different body: 409 with the exact message', async () => {
    await post('key-2', 'a');
    const res = await post('key-2', 'b');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'Idempotency key reused with a different request.' });
  });

  it('scopes keys per company', async () => {
    const before = runs;
    await post('shared-key', 'a', acme);
    const res = await post('shared-key', 'a', other);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(before + 2);
  });

  it('answers 409 while the first request is in progress, and takes over a claim abandoned by a crash', async () => {
    await ctx.db.insert(idempotencyKeys).values({ companyId: acme.id, key: 'key-busy', requestHash: 'x' });
    const hash = await post('key-busy', 'a');
    expect(hash.statusCode).toBe(409);
    expect(hash.json()).toEqual({ error: 'Idempotency key reused with a different request.' });
    const [first] = await ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.companyId, acme.id), eq(idempotencyKeys.key, 'key-1')));
    await ctx.db.insert(idempotencyKeys).values({ companyId: acme.id, key: 'key-inflight', requestHash: first.requestHash });
    const busy = await post('key-inflight', 'a');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ error: 'A request with this Idempotency-Key is still in progress.' });
    await ctx.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 600_000) })
      .where(and(eq(idempotencyKeys.companyId, acme.id), eq(idempotencyKeys.key, 'key-inflight')));
    const before = runs;
    expect((await post('key-inflight', 'a')).statusCode).toBe(201);
    expect(runs).toBe(before + 1);
    expect((await post('key-inflight', 'a')).headers['idempotent-replayed']).toBe('true');
  });

  it('refuses an over-long key with 400', async () => {
    const res = await post('k'.repeat(256), 'a');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Idempotency-Key must be 1 to 255 characters.' });
  });

  it('does not store 5xx responses, so the retry runs', async () => {
    const failed = await post('key-3', 'explode');
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ error: 'Internal server error.' });
    const before = runs;
    const retry = await post('key-3', 'explode');
    expect(retry.statusCode).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(runs).toBe(before + 1);
  });
});

describe('tenant isolation of the users routes', () => {
  it('refuses every request naming another company and changes nothing', async () => {
    const [victimUser] = await createUsers(ctx.db, other.id, [{ firstName: 'Victim' }]);
    await expectTenantIsolation(ctx.app, acme, other, [
      { method: 'GET', url: `/api/users?company_id=${other.id}` },
      { method: 'GET', url: `/api/users/${victimUser.id}` },
      { method: 'GET', url: `/api/users/${victimUser.id}?company_id=${other.id}` },
      { method: 'GET', url: `/api/users/${victimUser.id}?company_id=${acme.id}` },
      { method: 'GET', url: '/api/users', payload: { company_id: other.id } },
    ]);
  });

  it("refuses every users route that takes an id when the id is another company's", async () => {
    const [victimUser] = await createUsers(ctx.db, other.id, [{ firstName: 'Target' }]);
    const routes = ctx.app.routeCatalog.filter((route) => route.name.startsWith('users.') && route.url.includes(':id'));
    expect(routes.length).toBeGreaterThanOrEqual(2);
    await expectTenantIsolation(
      ctx.app,
      acme,
      other,
      routes.flatMap((route) => {
        const url = route.url.replace(':id', String(victimUser.id));
        const method = route.method as 'GET';
        // With a body, schema validation may answer first (422/400): that reveals nothing about B.
        const withBody = method !== 'GET' && method !== 'DELETE';
        const expectStatus = withBody ? [400, 403, 404, 422] : [403, 404];
        return [
          { method, url, payload: withBody ? { first_name: 'Hacked' } : undefined, expect: expectStatus },
          { method, url: `${url}?company_id=${other.id}`, payload: withBody ? { first_name: 'Hacked' } : undefined, expect: expectStatus },
        ];
      }),
    );
  });

  it('the check itself fails when a request succeeds', async () => {
    await expect(expectTenantIsolation(ctx.app, acme, other, [{ method: 'GET', url: '/api/users' }])).rejects.toThrow(/answered 200/);
  });
});

describe('a dead database', () => {
  it('gives 500 without details on /api and 503 on /readyz, while /healthz stays up', async () => {
    ctx.app.deps.authCache.clear();
    await ctx.testDb.database.close();
    const res = await as(ctx.app, acme).get('/api/users');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error.' });
    expect(res.body).not.toMatch(/stack|at |select|sql/i);
    expect(res.headers['x-request-id']).toBeTruthy();
    const ready = await as(ctx.app, anonymous).get('/readyz');
    expect(ready.statusCode).toBe(503);
    // It names the dependency that did not answer (docs/operations.md, "Health, metrics, logs").
    const redis = ctx.config.redisUrl ? { redis: 'ok' } : {};
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'unavailable', ...redis } });
    expect((await as(ctx.app, anonymous).get('/healthz')).statusCode).toBe(200);
  });
});
