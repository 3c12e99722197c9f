// Who may read /metrics (docs/operations.md, "Health, metrics, logs"; docs/security.md): it names
// every route's traffic, so on the public port it is a 404 unless METRICS_TOKEN is set, and then it
// needs that token as a Bearer; METRICS_PORT serves it on a loopback listener of its own, which
// serves nothing else and closes with the app. Through real HTTP on a listening server.
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type ConfigOverrides, createTestApp, type TestContext } from '../helpers/app.js';
import { createCompany } from '../helpers/factories.js';

const TOKEN = 'metrics-test-token-0123456789abcdef';
let ctx: TestContext | undefined;

afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/** A listening app: the base URL of its public port. */
async function serve(overrides: ConfigOverrides): Promise<string> {
  ctx = await createTestApp(overrides);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe('GET /metrics on the public port', () => {
  it('is a 404, like any unknown path, without METRICS_TOKEN', async () => {
    const base = await serve({});
    const res = await get(`${base}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found.' });
    expect((await get(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
  });

  it('needs METRICS_TOKEN as a Bearer token: 401 without it, with a wrong one or another scheme; 200 with it', async () => {
    const base = await serve({ metricsToken: TOKEN });
    const acme = await createCompany(ctx!.db);
    await get(`${base}/api/users`, acme.auth);
    const refused: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const headers of refused) {
      const res = await get(`${base}/metrics`, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const body = await res.text();
      expect(JSON.parse(body)).toEqual({ error: 'Unauthorized' });
      expect(body).not.toContain('http_requests_total');
    }
    const res = await get(`${base}/metrics`, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/http_requests_total\{method="GET",route="\/api\/users",status="200"\} [1-9]/);
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on a loopback listener without a token, nothing else there, and closes with the app', async () => {
    const base = await serve({ metricsPort: 0 });
    const port = await ctx!.app.listenMetrics();
    expect(port).toBeGreaterThan(0);
    const metricsBase = `http://127.0.0.1:${port}`;
    await get(`${base}/healthz`);

    const res = await get(`${metricsBase}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/);
    // Only /metrics: not the API, not the health checks, not another method.
    for (const path of ['/healthz', '/readyz', '/api/users', '/metrics/x', '/'])
      expect((await get(`${metricsBase}${path}`)).status).toBe(404);
    expect((await fetch(`${metricsBase}/metrics`, { method: 'POST' })).status).toBe(404);
    // The public port still does not serve it (no METRICS_TOKEN).
    expect((await get(`${base}/metrics`)).status).toBe(404);

    await ctx!.close();
    ctx = undefined;
    await expect(get(`${metricsBase}/metrics`)).rejects.toThrow();
  });

  it("is bound to loopback only: refused on the host's other addresses", async () => {
    await serve({ metricsPort: 0 });
    const port = await ctx!.app.listenMetrics();
    expect((await get(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) return; // a host with loopback only: nothing else to try
    await expect(get(`http://${external.address}:${port}/metrics`)).rejects.toThrow();
  });
});

describe('configuration', () => {
  const env = (extra: Record<string, string>) => ({ PORT: '3000', ...extra });

  it('reads METRICS_TOKEN and METRICS_PORT, unset by default', () => {
    expect(loadConfig({}, env({}))).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(loadConfig({}, env({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }))).toMatchObject({ metricsToken: TOKEN, metricsPort: 9464 });
  });

  it('refuses a short METRICS_TOKEN and a METRICS_PORT that is not a port, or is PORT', () => {
    expect(() => loadConfig({}, env({ METRICS_TOKEN: 'short' }))).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    for (const value of ['abc', '0', '70000', '3000']) {
      expect(() => loadConfig({}, env({ METRICS_PORT: value })), value).toThrow(/METRICS_PORT/);
    }
  });
});
