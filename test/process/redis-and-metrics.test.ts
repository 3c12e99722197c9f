// The compiled server with REDIS_URL on a private redis-server and METRICS_PORT (docs/operations.md,
// "Failures" and "Health, metrics, logs"): Redis killed under it, the API keeps answering, /readyz
// says 503 naming redis, the switch is logged once and the gauge on the loopback metrics listener
// says 1; Redis started again, all back by itself; /metrics is a 404 on the public port; SIGTERM
// closes the metrics listener with the server. Embedded database (the server's own DATA_DIR).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migratedDataDir } from '../helpers/database.js';
import { freePort } from '../helpers/ports.js';
import { type PrivateRedis, privateRedisUnavailable, startPrivateRedis } from '../helpers/private-redis.js';
import { adminCompany, processEnv, START_MS } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess, until } from './server-process.js';

const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;
// Embedded pass only, like the other process tests on their own DATA_DIR (test/helpers/embedded-only.ts).
const unavailable = process.env.DATABASE_URL ? 'runs in the embedded pass only' : privateRedisUnavailable();

afterAll(killAll);

describe.skipIf(unavailable !== undefined)(
  `the server with Redis and METRICS_PORT${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-redis-metrics-'));
    let redis: PrivateRedis;
    let server: ServerProcess;
    let metricsUrl: string;
    let auth: Record<string, string>;

    beforeAll(async () => {
      redis = await startPrivateRedis();
      await migratedDataDir(dataDir);
      const metricsPort = await freePort();
      metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      server = await startServerProcess({
        ...processEnv(ADMIN_TOKEN),
        DATA_DIR: dataDir,
        REDIS_URL: redis.url,
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'info',
        LOG_BUFFER_BYTES: '0',
      });
      await server.waitReady({ path: '/readyz', timeoutMs: START_MS });
      auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Metrics Ltd', domain: 'metrics-redis.test' });
    }, START_MS + 30_000);

    afterAll(async () => {
      await redis?.destroy();
      await killAllAndRemove([dataDir]);
    });

    const gauge = async () => Number(/^ratelimit_redis_fallback (\d+)$/m.exec(await (await fetch(metricsUrl)).text())?.[1]);

    test('serves through a Redis outage, reports it, comes back by itself; metrics only on the loopback port, closed at shutdown', async () => {
      expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(404);
      expect(await gauge()).toBe(0);

      await redis.kill();
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect((await requestJson(server.baseUrl, 'GET', '/api/users', undefined, auth)).status).toBe(200);
        expect(performance.now() - started).toBeLessThan(2_500);
      }
      const ready = await requestJson(server.baseUrl, 'GET', '/readyz');
      expect(ready).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } } });
      expect(await gauge()).toBe(1);
      await until(server, 'the fallback log line', async () => /Redis unavailable: rate limits are counted/.test(server.output()), 10_000);

      await redis.start();
      await until(server, '/readyz after Redis is back', async () => (await fetch(`${server.baseUrl}/readyz`)).status === 200, 20_000);
      expect(await gauge()).toBe(0);
      expect(server.output().match(/Redis unavailable: rate limits/g)).toHaveLength(1);
      expect(server.output()).toMatch(/Redis answers again/);

      server.child.kill('SIGTERM');
      expect(await server.waitExit(20_000)).toBe(0);
      await expect(fetch(metricsUrl)).rejects.toThrow();
    }, 120_000);
  },
);
