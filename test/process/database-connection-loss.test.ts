// The compiled server on a PostgreSQL database of its own, whose connections are cut under it with
// pg_terminate_backend (docs/operations.md, "Failures"): during user creates and updates, during the
// pay of a payroll run, and during a bulk CSV import. Each time the process stays up, the requests
// cut off get a 503 (never a 500), it serves again at once, and money and identities stay whole.
// One server for the file; each scenario cuts for a few seconds.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows, sql } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { generatedUsers, multipart, usersCsv } from '../helpers/users.js';
import {
  brokenInvariants,
  expectNoJobStuck,
  expectNoServerErrors,
  expectServing,
  repeatedly,
  terminateBackends,
  userLoad,
} from './database-faults.js';
import { adminCompany, approvedMarchRun, processEnv, START_MS, sandboxTopUp, staffWithBanks } from './run-fixture.js';
import { killAll, requestJson, type ServerProcess, startServerProcess } from './server-process.js';

const databaseUrl = process.env.DATABASE_URL;
const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;
const EMPLOYEES = 6;
const DOMAIN = 'cut.test';

afterAll(killAll);

describe.skipIf(!databaseUrl)('PostgreSQL connections terminated under a running server (needs DATABASE_URL)', () => {
  let testDb: TestDatabase;
  let datname: string;
  let server: ServerProcess;
  let auth: Record<string, string>;
  const api = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    requestJson(server.baseUrl, method, url, body, { ...auth, ...headers });
  const cutRepeatedly = (everyMs: number) => repeatedly(() => terminateBackends(databaseUrl as string, datname), everyMs);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    datname = new URL(testDb.url as string).pathname.slice(1);
    server = await startServerProcess({
      ...processEnv(ADMIN_TOKEN),
      DATABASE_URL: testDb.url as string,
      PAYMENT_PROVIDER: 'sandbox',
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      SANDBOX_TRANSFER_DELAY_SECONDS: '1',
      // Verification asks once the checkout has recorded its outcome (a pending answer waits a minute).
      WALLET_VERIFY_DELAY_SECONDS: '2',
      LOG_LEVEL: 'error',
    });
    await server.waitReady({ timeoutMs: START_MS });
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Cut Ltd', domain: DOMAIN, redirect_domains: ['funds.example'] });
  }, START_MS + 30_000);

  afterAll(async () => {
    await killAll();
    await testDb?.close();
  });

  test('(a) user creates and updates while every backend is terminated every 100 ms', async () => {
    let cutting = true;
    const cuts = cutRepeatedly(100);
    setTimeout(() => {
      cutting = false;
    }, 3_000);
    const during = await userLoad(api, DOMAIN, () => !cutting);
    const total = await cuts.stop();
    expect(total.inTransaction, 'no backend was cut inside a transaction').toBeGreaterThan(0);
    expectNoServerErrors(during);
    expect(during.statuses[503] ?? 0, JSON.stringify(during.statuses)).toBeGreaterThan(0);

    await expectServing(server, api);
    const until = Date.now() + 1_000;
    const after = await userLoad(api, DOMAIN, () => Date.now() > until, 2);
    expect(Object.keys(after.statuses), JSON.stringify(after.statuses)).toEqual(['200']);
    await expectNoJobStuck(testDb.database.db);
    expect(await brokenInvariants(testDb.database.db)).toEqual({});
    console.log(`(a) cut ${total.all} backends (${total.inTransaction} in a transaction); answers ${JSON.stringify(during.statuses)}`);
  }, 90_000);

  test('(b) a payroll run paid while every backend is terminated every 150 ms', async () => {
    await staffWithBanks(api, DOMAIN, EMPLOYEES);
    const runId = await approvedMarchRun(api, DOMAIN, EMPLOYEES);
    await sandboxTopUp(api, server.baseUrl, 5_000_000);

    const cuts = cutRepeatedly(150);
    // The pay itself may be cut: the client retries with its key, as after any 503, and waits while
    // the key is "still in progress" (a claim whose release was cut too is released with the
    // server's next heartbeat, 5 s).
    const inProgress = (answer: { status: number; body: { error?: unknown } }) =>
      answer.status === 409 && answer.body?.error === 'A request with this Idempotency-Key is still in progress.';
    let pay = await api('POST', `/api/payroll-runs/${runId}/pay`, undefined, { 'idempotency-key': `pay-${runId}` });
    for (let i = 0; i < 120 && (pay.status === 503 || inProgress(pay)); i++) {
      if (inProgress(pay)) await new Promise((resolve) => setTimeout(resolve, 250));
      pay = await api('POST', `/api/payroll-runs/${runId}/pay`, undefined, { 'idempotency-key': `pay-${runId}` });
    }
    expect(pay.status, JSON.stringify(pay.body)).toBe(202);
    // Keep cutting while the send and settle jobs work (settlement takes 1 s).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const total = await cuts.stop();

    await expectServing(server, api);
    let run: { status: string; counts: Record<string, number> } | undefined;
    for (let i = 0; i < 300; i++) {
      const answer = await api('GET', `/api/payroll-runs/${runId}`);
      run = answer.body.run;
      if (answer.status === 200 && run?.status !== 'processing' && run?.status !== 'approved') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(run?.status, server.output()).toBe('paid');
    expect(run?.counts).toEqual({ unpaid: 0, processing: 0, paid: EMPLOYEES, failed: 0, cancelled: 0, held: 0 });
    await expectNoJobStuck(testDb.database.db);
    expect(await brokenInvariants(testDb.database.db)).toEqual({});
    console.log(`(b) cut ${total.all} backends (${total.inTransaction} in a transaction) during the pay`);
  }, 120_000);

  test('(c) a bulk CSV import while every backend is terminated every 200 ms', async () => {
    const rows = generatedUsers(3_000, DOMAIN);
    const csv = usersCsv(rows);
    const upload = () => {
      const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
      return fetch(`${server.baseUrl}/api/users/bulk-create`, {
        method: 'POST',
        headers: { ...auth, ...form.headers },
        body: form.payload,
      });
    };
    const cuts = cutRepeatedly(200);
    const cutAnswers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await upload();
      await answer.arrayBuffer();
      cutAnswers.push(answer.status);
    }
    const total = await cuts.stop();
    for (const status of cutAnswers) expect([200, 503]).toContain(status);

    // Once PostgreSQL answers again, the same file completes the import: rows already there fail as taken.
    const answer = await upload();
    expect(answer.status).toBe(200);
    const report = (await answer.json()) as { failures: { errors: Record<string, string[]> }[] };
    const prefix = String(rows[0].personal_email).replace(/0@personal\.test$/, '');
    const [{ n }] = await queryRows<{ n: number }>(
      testDb.database.db,
      sql`SELECT count(*)::int AS n FROM users WHERE deleted_at IS NULL AND personal_email LIKE ${`${prefix}%`}`,
    );
    expect(n).toBe(rows.length);
    expect(report.failures.length).toBeLessThanOrEqual(rows.length);
    await expectServing(server, api);
    await expectNoJobStuck(testDb.database.db);
    expect(await brokenInvariants(testDb.database.db)).toEqual({});
    console.log(`(c) cut ${total.all} backends (${total.inTransaction} in a transaction); import answers ${cutAnswers.join(', ')}`);
  }, 120_000);
});
