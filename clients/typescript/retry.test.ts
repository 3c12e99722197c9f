// The client's 429 handling: against a real server whose rate limit is one request per route and
// window, concurrent requests all succeed after waiting Retry-After, a POST is sent again with its
// body and its Idempotency-Key (each user is created once); and, with a scripted fetch, what is not
// retried (no Retry-After, too long a wait, a replayed answer, past maxRetries).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { createPayrollClient, paginateUsers, retryAfterMs, retryingFetch, unwrap } from './src/index.js';

const WINDOW_SECONDS = 1;
let ctx: TestContext;
let company: TestCompany;
let baseUrl: string;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { windowSeconds: WINDOW_SECONDS, endpoint: 1 } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  company = await createCompany(ctx.db);
});
afterAll(async () => {
  await ctx?.close();
});

describe('against the server', () => {
  it('answers 429 with Retry-After when retries are off', async () => {
    const client = createPayrollClient({ baseUrl, token: company.token, retry: false });
    const answers = await Promise.all([1, 2, 3].map(() => client.GET('/api/wallet/balance')));
    const limited = answers.find((a) => a.response.status === 429);
    expect(limited).toBeDefined();
    expect(limited?.error).toEqual({ error: 'Too many requests.' });
    expect(Number(limited?.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited?.response.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_SECONDS);
  });

  it('waits Retry-After and sends the POSTs again, bodies and keys intact, until each user is created once', async () => {
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    const client = createPayrollClient({ baseUrl, token: company.token, retry: { maxRetries: 10, sleep } });
    const person = (i: number) => ({
      first_name: `Retry${i}`,
      last_name: 'Client',
      personal_email: `retry${i}.client@example.com`,
      domain_name: company.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
    });
    const created = await Promise.all([1, 2, 3].map((i) => client.POST('/api/users', { body: person(i) })));
    expect(created.map((c) => c.response.status)).toEqual([200, 200, 200]);
    expect(created.map((c) => unwrap(c).user.first_name).sort()).toEqual(['Retry1', 'Retry2', 'Retry3']);
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(WINDOW_SECONDS * 1000);
    const users = [];
    for await (const user of paginateUsers(client)) users.push(user.personal_email);
    expect(users.sort()).toEqual(['retry1.client@example.com', 'retry2.client@example.com', 'retry3.client@example.com']);
  });
});

describe('retryingFetch', () => {
  /** A fetch answering `answers` in turn; records each request's body and Idempotency-Key. */
  function scripted(answers: Response[]) {
    const seen: { body: string; key: string | null }[] = [];
    const fetch = async (request: Request) => {
      seen.push({ body: await request.text(), key: request.headers.get('idempotency-key') });
      return answers[Math.min(seen.length - 1, answers.length - 1)];
    };
    return { fetch, seen };
  }
  const limited = (headers: Record<string, string>) => new Response('{"error":"Too many requests."}', { status: 429, headers });
  const noSleep = async () => {};
  const post = () => new Request('http://api.test/api/users', { method: 'POST', body: '{"a":1}', headers: { 'idempotency-key': 'k1' } });

  it('sends the same body and key again after a 429, and stops at maxRetries', async () => {
    const { fetch, seen } = scripted([limited({ 'retry-after': '1' }), limited({ 'retry-after': '1' }), new Response('{}')]);
    expect((await retryingFetch(fetch, { sleep: noSleep })(post())).status).toBe(200);
    expect(seen).toEqual(Array(3).fill({ body: '{"a":1}', key: 'k1' }));
    const capped = scripted([limited({ 'retry-after': '1' })]);
    expect((await retryingFetch(capped.fetch, { sleep: noSleep, maxRetries: 2 })(post())).status).toBe(429);
    expect(capped.seen).toHaveLength(3);
  });

  it('does not retry without Retry-After, past maxDelayMs, or a replayed answer', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'retry-after': '3600' },
      { 'retry-after': '1', 'idempotent-replayed': 'true' },
    ]) {
      const { fetch, seen } = scripted([limited(headers), new Response('{}')]);
      expect((await retryingFetch(fetch, { sleep: noSleep })(post())).status).toBe(429);
      expect(seen).toHaveLength(1);
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-03-28T12:00:00Z');
    expect(retryAfterMs(limited({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(limited({ 'retry-after': 'Sat, 28 Mar 2026 12:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(limited({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(limited({}), now)).toBeUndefined();
  });
});
