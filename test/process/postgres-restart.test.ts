// PostgreSQL stopped and started again under a running server (docs/operations.md, "Failures"): the
// compiled server runs on a private PostgreSQL cluster of this test (never the shared one), paying a
// payroll run and taking user creates and updates, while the cluster is stopped (fast shutdown: every
// backend terminated, then connections refused) for two seconds and started again. The process
// stays up, answers 503 meanwhile (never a 500), serves again once PostgreSQL does, the run ends paid
// and the money and identity invariants hold. Needs DATABASE_URL (the PostgreSQL pass) and initdb.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openPostgres } from '../../src/db/client.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { brokenInvariants, expectNoJobStuck, expectNoServerErrors, expectServing, userLoad } from './database-faults.js';
import { type PrivatePostgres, privatePostgresUnavailable, startPrivatePostgres } from './private-postgres.js';
import { adminCompany, approvedMarchRun, processEnv, START_MS, sandboxTopUp, staffWithBanks } from './run-fixture.js';
import { killAll, requestJson, type ServerProcess, startServerProcess } from './server-process.js';

const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;
const EMPLOYEES = 4;
const DOMAIN = 'restart.test';
const unavailable = process.env.DATABASE_URL ? privatePostgresUnavailable() : 'DATABASE_URL is not set';

afterAll(killAll);

describe.skipIf(unavailable !== undefined)(
  `PostgreSQL stopped and restarted under a running server${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let cluster: PrivatePostgres;
    let database: Database | undefined;
    let server: ServerProcess;
    let auth: Record<string, string>;
    const api = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
      requestJson(server.baseUrl, method, url, body, { ...auth, ...headers });

    beforeAll(async () => {
      cluster = await startPrivatePostgres();
      const admin = new pg.Client({ connectionString: cluster.url('postgres') });
      await admin.connect();
      await admin.query('CREATE DATABASE payroll');
      await admin.end();
      // The server migrates the empty database at its first start.
      server = await startServerProcess({
        ...processEnv(ADMIN_TOKEN),
        DATABASE_URL: cluster.url('payroll'),
        PAYMENT_PROVIDER: 'sandbox',
        WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
        SANDBOX_TRANSFER_DELAY_SECONDS: '1',
        WALLET_VERIFY_DELAY_SECONDS: '2',
        LOG_LEVEL: 'error',
      });
      await server.waitReady({ timeoutMs: START_MS });
      auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Restart Ltd', domain: DOMAIN, redirect_domains: ['funds.example'] });
    }, START_MS + 60_000);

    afterAll(async () => {
      await killAll();
      await database?.close();
      cluster?.destroy();
    });

    test('(d) a pay and user writes across a stop and start of PostgreSQL', async () => {
      await staffWithBanks(api, DOMAIN, EMPLOYEES);
      const runId = await approvedMarchRun(api, DOMAIN, EMPLOYEES);
      await sandboxTopUp(api, server.baseUrl, 5_000_000);

      let loading = true;
      const load = userLoad(api, DOMAIN, () => !loading);
      expect((await api('POST', `/api/payroll-runs/${runId}/pay`)).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await cluster.stop();
      // Down: the process stays up and says so.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await requestJson(server.baseUrl, 'GET', '/healthz')).status).toBe(200);
      const down = await api('GET', '/api/users?per_page=1');
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body).toEqual({ error: 'The database is unavailable; try again.' });
      // A keyed create refused while the database is down: its claim could not be released then, so
      // the server releases it once PostgreSQL answers (docs/decisions.md, "Idempotency-Key after a
      // crash"); the same key is served again seconds later, not after the 300 s stuck-claim rule.
      const keyed = {
        first_name: 'Keyed',
        last_name: 'Retry',
        personal_email: 'keyed.retry@personal.test',
        domain_name: DOMAIN,
        user_types: 'Full-time',
        start_date: '2024-01-15',
      };
      const refused = await api('POST', '/api/users', keyed, { 'idempotency-key': 'keyed-across-restart' });
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      await cluster.start();
      let retried = refused;
      for (let i = 0; i < 100 && retried.status !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        retried = await api('POST', '/api/users', keyed, { 'idempotency-key': 'keyed-across-restart' });
      }
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      loading = false;
      const report = await load;
      expectNoServerErrors(report);
      expect(report.statuses[503] ?? 0, JSON.stringify(report.statuses)).toBeGreaterThan(0);

      await expectServing(server, api);
      let run: { status: string; counts: Record<string, number> } | undefined;
      for (let i = 0; i < 300; i++) {
        const answer = await api('GET', `/api/payroll-runs/${runId}`);
        run = answer.body.run;
        if (answer.status === 200 && run?.status !== 'processing') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(run?.status, server.output()).toBe('paid');
      expect(run?.counts).toEqual({ unpaid: 0, processing: 0, paid: EMPLOYEES, failed: 0, cancelled: 0, held: 0 });
      database = await openPostgres(cluster.url('payroll'), 2);
      await expectNoJobStuck(database.db);
      expect(await brokenInvariants(database.db)).toEqual({});
      console.log(`(d) answers across the restart ${JSON.stringify(report.statuses)}`);
    }, 180_000);
  },
);
