// Idempotency-Key after a kill -9 (docs/decisions.md, "Idempotency-Key after a crash"): the
// compiled server kills itself at a test-only crash point (IDEMPOTENCY_TEST_CRASH) while a request
// holds its key, and the retry goes to the next server:
// (i) killed inside U3's transaction: the retry is served within seconds, not after 300 s, and
//     one user exists;
// (ii) killed after POST /api/payroll-runs and after a pay committed, before their answers were
//     stored: the retry answers the same run (2xx, Idempotent-Replayed) and nothing ran twice.
// On PGlite by default; with DATABASE_URL set, on a fresh PostgreSQL database of its own, where
// the dead server's claim waits for its heartbeat to go stale (15 s).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, queryRows, sql } from '../../src/db/client.js';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../helpers/database.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { adminCompany, processEnv, readAfterStop, START_MS, sandboxTopUp, staffWithBanks } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess } from './server-process.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted structurally
type Answer = Record<string, any>;

const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;
const DOMAIN = 'idem-crash.test';

afterAll(killAll);

describe('Idempotency-Key after kill -9', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idempotency-crash-'));
  const env: Record<string, string> = { ...processEnv(ADMIN_TOKEN), DATA_DIR: dataDir, WALLET_VERIFY_DELAY_SECONDS: '2' };
  let server: ServerProcess;
  let testDb: TestDatabase | undefined;
  let auth: Record<string, string>;

  const api = (method: string, url: string, body?: unknown, headers = auth) => requestJson(server.baseUrl, method, url, body, headers);
  const start = async (crash?: string) => {
    server = await startServerProcess({ ...env, ...(crash ? { IDEMPOTENCY_TEST_CRASH: crash } : {}) }, server?.port);
    await server.waitReady({ timeoutMs: START_MS });
  };
  /** A POST with `key`: status, JSON body and whether it was a replay. */
  const keyed = async (url: string, body: unknown, key: string) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as Answer,
      replayed: response.headers.get('idempotent-replayed'),
    };
  };
  /** A keyed POST that kills the server: the connection drops, and the process is gone. */
  const postAndDie = async (url: string, body: unknown, key: string) => {
    await expect(keyed(url, body, key)).rejects.toThrow();
    await server.waitExit(20_000);
  };

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      testDb = await createTestDatabase();
      Object.assign(env, { DATABASE_URL: testDb.url as string, PAYMENT_PROVIDER: 'sandbox', WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY });
    } else await migratedDataDir(dataDir);
  }, START_MS);

  afterAll(async () => {
    await testDb?.close();
    await killAllAndRemove([dataDir]);
  });

  /** The database the server used, read after it stopped. */
  const withDatabase = <T>(read: (db: Database['db']) => Promise<T>) => readAfterStop({ testDb, dataDir }, read);

  test('a retry is answered once the dead server is seen, with the original result, and nothing runs twice', async () => {
    // (i) U3 killed inside its transaction, holding its key.
    await start('users.store:in-transaction');
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Idem Crash Ltd', domain: DOMAIN, redirect_domains: ['funds.example'] });
    await staffWithBanks(api, DOMAIN, 2);
    const user = {
      first_name: 'Kemi',
      last_name: 'Retry',
      personal_email: 'kemi@home.test',
      domain_name: DOMAIN,
      user_types: 'Full-time',
      start_date: '2024-01-01',
    };
    await postAndDie('/api/users', user, 'user-1');

    await start('payroll-runs.store:after-commit');
    const since = Date.now();
    let created = await keyed('/api/users', user, 'user-1');
    while (created.status === 409 && Date.now() - since < 60_000) {
      expect(created.body).toEqual({ error: 'A request with this Idempotency-Key is still in progress.' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      created = await keyed('/api/users', user, 'user-1');
    }
    const waited = Date.now() - since;
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.replayed).toBeNull();
    // The heartbeat goes stale after 15 s (PGlite: at once, one process per DATA_DIR); far from 300 s.
    expect(waited).toBeLessThan(60_000);
    console.info(`U3 retry after kill -9 answered after ${waited} ms`);

    // (ii) POST /api/payroll-runs killed after its commit, before its answer was stored.
    const runBody = {
      pay_period_start: '2026-03-01',
      pay_period_end: '2026-03-31',
      payment_date: '2026-03-28',
      created_by_email: 'worker0@home.test', // a user of the company (the first employee)
    };
    await postAndDie('/api/payroll-runs', runBody, 'run-1');
    await start('payroll-runs.pay:after-commit');
    const run = await keyed('/api/payroll-runs', runBody, 'run-1');
    expect([run.status, run.replayed], JSON.stringify(run.body)).toEqual([201, 'true']);
    expect(run.body).toMatchObject({ message: 'Payroll run created.', run: { status: 'draft', counts: { unpaid: 2 } } });
    const runId = run.body.run.id as string;
    const listed = await api('GET', '/api/payroll-runs');
    expect(listed.body.data.data.map((r: { id: string }) => r.id)).toEqual([runId]);

    const approved = await api('POST', `/api/payroll-runs/${runId}/approve`, { approver_email: 'worker99@home.test' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await sandboxTopUp(api, server.baseUrl, 5_000_000);

    // ... and a pay killed after its commit.
    await postAndDie(`/api/payroll-runs/${runId}/pay`, {}, 'pay-1');
    await start();
    const pay = await keyed(`/api/payroll-runs/${runId}/pay`, {}, 'pay-1');
    expect([pay.status, pay.replayed], JSON.stringify(pay.body)).toEqual([202, 'true']);
    expect(pay.body).toMatchObject({ message: 'Payment started.', run: { id: runId } });

    server.child.kill('SIGTERM');
    expect(await server.waitExit(30_000)).toBe(0);
    await withDatabase(async (db) => {
      const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db, query))[0].n;
      expect(await count(sql`SELECT count(*)::int AS n FROM users WHERE personal_email = 'kemi@home.test'`)).toBe(1);
      expect(await count(sql`SELECT count(*)::int AS n FROM payroll_runs`)).toBe(1);
      expect(await count(sql`SELECT count(*)::int AS n FROM wallet_entries WHERE kind = 'payroll_debit'`)).toBe(1);
      const replayed = await queryRows<{ key: string; resource_id: string }>(
        db,
        sql`SELECT key, resource_id FROM idempotency_keys WHERE key IN ('run-1', 'pay-1') ORDER BY key`,
      );
      expect(replayed).toEqual([
        { key: 'pay-1', resource_id: runId },
        { key: 'run-1', resource_id: runId },
      ]);
    });
  }, 400_000);
});
