// Outbound webhooks across a SIGKILL: the compiled server on a real DATA_DIR sends a burst of events
// to a slow local receiver, is killed with SIGKILL mid-burst and restarted. Every event reaches the
// receiver at least once (the restarted embedded server, the DATA_DIR's only worker, frees the
// killed process's claims at start-up; on PostgreSQL they are taken over once their lease ends), and
// the receiver, deduplicating by webhook-id, sees each exactly once; every delivery ends delivered.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migratedDataDir } from '../helpers/database.js';
import { describeEmbedded } from '../helpers/embedded-only.js';
import { type Receiver, startReceiver, verified } from '../helpers/webhooks.js';
import { adminCompany, processEnv, START_MS } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess } from './server-process.js';

const EVENTS = 400;
const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;

afterAll(killAll);

describeEmbedded('kill -9 during a webhook delivery burst', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-crash-'));
  const env: Record<string, string> = {
    ...processEnv(ADMIN_TOKEN),
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1',
  };
  let server: ServerProcess;
  let receiver: Receiver;
  let auth: Record<string, string>;
  let secret: string;
  let endpointId: number;

  const api = (method: string, url: string, body?: unknown, headers = auth) => requestJson(server.baseUrl, method, url, body, headers);

  beforeAll(async () => {
    receiver = await startReceiver();
    // Every answer takes 1.15 s: with 64 in flight the burst lasts several seconds, long enough to be cut.
    receiver.script('/burst', [1150]);
    // Already migrated: the first start is not what this file tests.
    await migratedDataDir(dataDir);
    server = await startServerProcess(env);
    await server.waitReady({ timeoutMs: START_MS });
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Hook Crash Ltd', domain: 'hookcrash.test' });
    const endpoint = await api('POST', '/api/webhook-endpoints', { url: receiver.url('/burst'), events: ['webhook.test'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    secret = endpoint.body.secret;
    endpointId = endpoint.body.endpoint.id;
  }, START_MS + 60_000);

  afterAll(async () => {
    await receiver?.close();
    await killAllAndRemove([dataDir]);
  });

  test('every event is delivered, each exactly once after deduplication by webhook-id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < EVENTS; i += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => api('POST', `/api/webhook-endpoints/${endpointId}/test`)));
      for (const answer of answers) {
        expect(answer.status).toBe(202);
        ids.add(answer.body.event_id);
      }
    }
    const deadline = Date.now() + 20_000;
    while (receiver.on('/burst').length < 64 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const seenBeforeKill = receiver.on('/burst').length;
    expect(seenBeforeKill).toBeGreaterThan(0);
    server.child.kill('SIGKILL');
    await server.waitExit(10_000);
    server = await startServerProcess(env, server.port);
    await server.waitReady({ timeoutMs: START_MS });

    const until = Date.now() + 120_000;
    const distinct = () => new Set(receiver.on('/burst').map((r) => String(r.headers['webhook-id'])));
    while (distinct().size < EVENTS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(distinct()).toEqual(ids);
    for (const request of receiver.on('/burst')) verified(secret, request);
    // Every delivery ends delivered: those in flight at the kill are sent again (freed at start-up).
    const statuses = async () => {
      const all: string[] = [];
      for (let page = 1; page <= Math.ceil(EVENTS / 100); page++) {
        const log = await api('GET', `/api/webhook-endpoints/${endpointId}/deliveries?per_page=100&page=${page}`);
        all.push(...log.body.data.data.map((d: { status: string }) => d.status));
      }
      return all;
    };
    const logDeadline = Date.now() + 90_000;
    let seen = await statuses();
    while (seen.some((status) => status !== 'delivered') && Date.now() < logDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      seen = await statuses();
    }
    const delivered = seen.filter((status) => status === 'delivered').length;
    expect(delivered).toBe(EVENTS);
    console.log(`webhooks crash: ${seenBeforeKill} requests before the kill, ${receiver.on('/burst').length} in all for ${EVENTS} events`);
  }, 300_000);
});
