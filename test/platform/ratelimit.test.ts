// Rate limits (docs/reference.md, "Rate limits") with small limits: endpoint and global buckets,
// sensitive routes, plans, the per-IP bucket of failed authentication, headers on every /api
// response, and the store shared through Redis (when REDIS_URL is set) or private to the process
// (memory).
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { companies } from '../../src/db/schema/index.js';
import { createRateLimitStore } from '../../src/platform/ratelimit/limiter.js';
import { createTestApp, type TestContext, testConfig } from '../helpers/app.js';
import { createCompany, type TestCompany } from '../helpers/factories.js';
import { anonymous, as, type Method } from '../helpers/http.js';

const LIMITS = { endpoint: 3, sensitive: 2, standard: 5, premium: 8, enterprise: 12, unauthenticated: 4 };
const SENSITIVE = [
  'wallet.top-up',
  'users.bulk-create',
  'users.bulk-update',
  'companies.store',
  'paystubs.store',
  'invoices.finance-approve',
];

let ctx: TestContext;
let ipSeq = 0;
const freshIp = () => `192.0.2.${++ipSeq}`;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: LIMITS });
});
afterAll(() => ctx.close());

async function company(plan: 'standard' | 'premium' | 'enterprise', scopes?: string[]): Promise<TestCompany> {
  const created = await createCompany(ctx.db, { plan, scopes });
  return created;
}

function get(url: string, who: TestCompany | undefined, ip: string, headers: Record<string, string> = {}) {
  return as(ctx.app, who ?? anonymous).get(url, { headers, remoteAddress: ip });
}

function limitHeaders(res: { headers: Record<string, unknown> }) {
  return {
    limitEndpoint: Number(res.headers['x-ratelimit-limit-endpoint']),
    remainingEndpoint: Number(res.headers['x-ratelimit-remaining-endpoint']),
    limitGlobal: Number(res.headers['x-ratelimit-limit-global']),
    remainingGlobal: Number(res.headers['x-ratelimit-remaining-global']),
  };
}

function expect429(res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error: 'Too many requests.' });
  const retry = String(res.headers['retry-after']);
  expect(retry).toMatch(/^\d+$/);
  expect(Number(retry)).toBeGreaterThanOrEqual(1);
  expect(Number(retry)).toBeLessThanOrEqual(60);
}

describe('endpoint bucket', () => {
  it('allows the endpoint limit per token, IP and route, then 429 with Retry-After; remaining never below 0', async () => {
    const acme = await company('enterprise');
    const ip = freshIp();
    for (let i = 1; i <= LIMITS.endpoint; i++) {
      const res = await get('/api/users', acme, ip);
      expect(res.statusCode).toBe(200);
      expect(limitHeaders(res)).toMatchObject({ limitEndpoint: 3, remainingEndpoint: 3 - i, limitGlobal: 12 });
    }
    for (let i = 0; i < 2; i++) {
      const res = await get('/api/users', acme, ip);
      expect429(res);
      expect(limitHeaders(res)).toMatchObject({ limitEndpoint: 3, remainingEndpoint: 0 });
    }
    // Another route, and the same route from another IP, have their own endpoint buckets.
    expect((await get('/api/users/999999', acme, ip)).statusCode).toBe(404);
    expect((await get('/api/users', acme, freshIp())).statusCode).toBe(200);
  });

  it('gives sensitive routes the sensitive limit (every preset route that is registered)', async () => {
    const acme = await company('enterprise');
    const registered = ctx.app.routeCatalog.filter((route) => SENSITIVE.includes(route.name));
    expect(registered.map((r) => r.name)).toContain('companies.store');
    for (const route of registered) {
      const url = route.url.replace(/:[A-Za-z_]+/g, '999999');
      const res = await as(ctx.app, acme).request(route.method as Method, url, {}, { remoteAddress: freshIp() });
      expect(res.statusCode, `${route.method} ${route.url}`).not.toBe(429);
      expect(limitHeaders(res).limitEndpoint, route.name).toBe(LIMITS.sensitive);
    }
    const normal = ctx.app.routeCatalog.find((route) => route.name === 'users.index');
    expect(normal).toBeDefined();
    expect(limitHeaders(await get('/api/users', acme, freshIp())).limitEndpoint).toBe(LIMITS.endpoint);
    // The sensitive bucket really refuses after its limit.
    const ip = freshIp();
    const store = () => as(ctx.app, acme).post('/api/companies', {}, { remoteAddress: ip });
    for (let i = 0; i < LIMITS.sensitive; i++) expect((await store()).statusCode).not.toBe(429);
    expect429(await store());
  });
});

describe('global bucket per plan', () => {
  it('limits a company per IP across routes by its plan', async () => {
    for (const [plan, limit] of [
      ['standard', LIMITS.standard],
      ['premium', LIMITS.premium],
      ['enterprise', LIMITS.enterprise],
    ] as const) {
      const who = await company(plan);
      const ip = freshIp();
      // Spread over GET routes, two requests each, so that no endpoint bucket (limit 3) runs out first.
      const routes = ctx.app.routeCatalog
        .filter((route) => route.method === 'GET')
        .map((route) => route.url.replace(/:[A-Za-z_]+/g, '999999'));
      expect(routes.length * 2).toBeGreaterThanOrEqual(limit);
      const urls = Array.from({ length: limit }, (_, i) => routes[Math.floor(i / 2)]);
      for (const [i, url] of urls.entries()) {
        const res = await get(url, who, ip);
        expect(res.statusCode, `${plan} request ${i + 1} ${url}`).not.toBe(429);
        expect(limitHeaders(res)).toMatchObject({ limitGlobal: limit, remainingGlobal: limit - i - 1 });
      }
      const over = await get(routes[0], who, ip);
      expect429(over);
      expect(limitHeaders(over)).toMatchObject({ limitGlobal: limit, remainingGlobal: 0 });
    }
  });

  it('follows a plan change at once', async () => {
    const who = await company('standard');
    const ip = freshIp();
    expect(limitHeaders(await get('/api/users', who, ip)).limitGlobal).toBe(LIMITS.standard);
    await ctx.db.update(companies).set({ plan: 'premium' }).where(eq(companies.id, who.id));
    ctx.app.deps.authCache.clear();
    expect(limitHeaders(await get('/api/users', who, ip)).limitGlobal).toBe(LIMITS.premium);
  });
});

describe('headers on every /api response', () => {
  it('carries all four headers on 200, 401, 403, 404, 422 and 429', async () => {
    const who = await company('enterprise');
    const scoped = await company('enterprise', ['users.show']);
    await ctx.db
      .update(companies)
      .set({ apiAccess: false })
      .where(eq(companies.id, (await company('enterprise')).id));
    const ip = freshIp();
    const responses = [
      await get('/api/users', who, ip),
      await get('/api/users', undefined, freshIp()),
      await get('/api/users', scoped, ip),
      await get('/api/users/999999', who, ip),
      await get('/api/users?per_page=abc', who, ip),
      await get('/api/no-such-route', who, freshIp()),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 401, 403, 404, 422, 404]);
    await get('/api/users', who, ip);
    responses.push(await get('/api/users', who, ip));
    expect(responses.at(-1)?.statusCode).toBe(429);
    for (const res of responses) {
      const h = limitHeaders(res);
      for (const value of Object.values(h)) {
        expect(Number.isInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('failed authentication per IP', () => {
  it('limits failed attempts from one IP; both header pairs describe that bucket', async () => {
    const ip = freshIp();
    for (let i = 1; i <= LIMITS.unauthenticated; i++) {
      const res = await get('/api/users', undefined, ip, { authorization: `Bearer pk_guess${i}` });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
      expect(limitHeaders(res)).toEqual({ limitEndpoint: 4, remainingEndpoint: 4 - i, limitGlobal: 4, remainingGlobal: 4 - i });
    }
    const blocked = await get('/api/users', undefined, ip, { authorization: 'Bearer pk_guess' });
    expect429(blocked);
    expect(limitHeaders(blocked)).toEqual({ limitEndpoint: 4, remainingEndpoint: 0, limitGlobal: 4, remainingGlobal: 0 });
    // A valid token from that IP still works (its own buckets), and other IPs are unaffected.
    const who = await company('enterprise');
    expect((await get('/api/users', who, ip)).statusCode).toBe(200);
    expect((await get('/api/users', undefined, freshIp())).statusCode).toBe(401);
  });
});

describe('the counter store', () => {
  it('takes several buckets at once (one Redis round trip) with the same counters as take and peek', async () => {
    const store = createRateLimitStore({
      windowSeconds: 60,
      redisUrl: process.env.REDIS_URL,
      keyPrefix: `each${crypto.randomBytes(4).toString('hex')}`,
    });
    try {
      const a = { bucket: 'endpoint', key: 'k1', limit: 3 };
      const b = { bucket: 'global', key: 'k2', limit: 5 };
      const first = await store.takeEach([a, b]);
      expect(first.map((r) => [r.limit, r.remaining, r.allowed])).toEqual([
        [3, 2, true],
        [5, 4, true],
      ]);
      await store.take(a.bucket, a.key, a.limit);
      expect((await store.peek(a.bucket, a.key, a.limit)).remaining).toBe(1);
      const third = await store.takeEach([a, b]);
      expect(third.map((r) => [r.remaining, r.allowed])).toEqual([
        [0, true],
        [3, true],
      ]);
      const refused = await store.takeEach([a, b]);
      expect(refused[0]).toMatchObject({ remaining: 0, allowed: false });
      expect(refused[0].retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused[0].retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(refused[1]).toMatchObject({ remaining: 2, allowed: true });
    } finally {
      await store.close();
    }
  });

  it('counts every take of requests that arrive together, each once and in order (on Redis: one round trip for all)', async () => {
    const store = createRateLimitStore({
      windowSeconds: 60,
      redisUrl: process.env.REDIS_URL,
      keyPrefix: `batch${crypto.randomBytes(4).toString('hex')}`,
    });
    // Commands this process sends to Redis (this file's tests run one at a time).
    const sent = vi.spyOn(Redis.prototype, 'sendCommand');
    const evalCalls = () => sent.mock.calls.filter(([command]) => /^eval/i.test(command.name)).length;
    try {
      // Warm up: the first call loads the script (EVAL), later ones use EVALSHA.
      await store.takeEach([{ bucket: 'warm', key: 'w', limit: 1 }]);
      const before = evalCalls();
      // 12 requests from one caller in the same turn: an endpoint bucket of 10 and a bucket per request.
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.takeEach([
            { bucket: 'endpoint', key: 'same', limit: 10 },
            { bucket: 'global', key: `own${i}`, limit: 5 },
          ]),
        ),
      );
      expect(results.map(([endpoint]) => endpoint.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
      expect(results.map(([endpoint]) => endpoint.allowed)).toEqual([...Array(10).fill(true), false, false]);
      expect(results.every(([, own]) => own.remaining === 4 && own.allowed)).toBe(true);
      if (process.env.REDIS_URL) expect(evalCalls() - before).toBe(1);
      // A request in a later turn is counted after them.
      const [later] = await store.takeEach([{ bucket: 'endpoint', key: 'same', limit: 10 }]);
      expect(later).toMatchObject({ remaining: 0, allowed: false });
      expect((await store.peek('endpoint', 'same', 10)).remaining).toBe(0);
    } finally {
      sent.mockRestore();
      await store.close();
    }
  });

  it.skipIf(!process.env.REDIS_URL)('rejects every request of a batch that Redis refuses, and serves the next turn', async () => {
    const prefix = `fail${crypto.randomBytes(4).toString('hex')}`;
    const store = createRateLimitStore({ windowSeconds: 60, redisUrl: process.env.REDIS_URL, keyPrefix: prefix });
    const redis = new Redis(process.env.REDIS_URL as string);
    try {
      // A counter that is not an integer makes the script fail (INCRBY), for the whole batch.
      await redis.set(`${prefix}:endpoint:10:broken`, 'not a number', 'EX', 60);
      const batch = ['a', 'broken', 'b'].map((key) => store.takeEach([{ bucket: 'endpoint', key, limit: 10 }]));
      const settled = await Promise.allSettled(batch);
      expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      const [next] = await store.takeEach([{ bucket: 'endpoint', key: 'c', limit: 10 }]);
      expect(next).toMatchObject({ remaining: 9, allowed: true });
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it(process.env.REDIS_URL ? 'is shared by two instances through Redis' : 'is process memory without REDIS_URL (not shared)', async () => {
    const who = await company('standard');
    const prefix = `shared${crypto.randomBytes(4).toString('hex')}`;
    const config = testConfig({ redisUrl: process.env.REDIS_URL, rateLimit: { ...LIMITS, endpoint: 100 } });
    const stores = [0, 1].map(() => createRateLimitStore({ windowSeconds: 60, redisUrl: config.redisUrl, keyPrefix: prefix }));
    const apps = await Promise.all(
      stores.map((limiter) => buildApp({ config, database: ctx.testDb.database, logLevel: 'silent', limiter })),
    );
    try {
      await Promise.all(apps.map((app) => app.ready()));
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < LIMITS.standard * 2; i++) {
        const res = await as(apps[i % 2], who).get('/api/users', { remoteAddress: ip });
        statuses.push(res.statusCode);
      }
      const allowed = statuses.filter((s) => s === 200).length;
      if (process.env.REDIS_URL) {
        expect(allowed).toBe(LIMITS.standard);
        expect(statuses.filter((s) => s === 429)).toHaveLength(LIMITS.standard);
      } else {
        expect(allowed).toBe(LIMITS.standard * 2);
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
