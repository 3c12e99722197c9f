// A payroll run paid by the compiled server on a real DATA_DIR, killed with SIGKILL while its
// transfers are in flight, and restarted: every paystub ends paid exactly once, the wallet was
// debited once, each employee got one e-mail, and the provider was asked to pay each transfer once.
// On PGlite by default; with DATABASE_URL set, on a fresh PostgreSQL database of its own (the
// server then starts with PAYMENT_PROVIDER=sandbox, which PostgreSQL requires to be explicit).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, queryRows, sql } from '../../src/db/client.js';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../helpers/database.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { adminCompany, approvedMarchRun, processEnv, readAfterStop, START_MS, sandboxTopUp, staffWithBanks } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess, until as untilServer } from './server-process.js';

const EMPLOYEES = 6;
const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;

afterAll(killAll);

describe('kill -9 while salary transfers are in flight', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-runs-crash-'));
  const env: Record<string, string> = {
    ...processEnv(ADMIN_TOKEN),
    DATA_DIR: dataDir,
    SANDBOX_TRANSFER_DELAY_SECONDS: '2',
    // Verification asks once the checkout below has recorded its outcome (a pending answer waits a minute).
    WALLET_VERIFY_DELAY_SECONDS: '2',
  };
  let server: ServerProcess;
  let testDb: TestDatabase | undefined;
  let auth: Record<string, string>;
  const personalEmails: string[] = [];
  let runId: string;

  const api = (method: string, url: string, body?: unknown, headers = auth) => requestJson(server.baseUrl, method, url, body, headers);
  const until = (what: string, check: () => Promise<boolean>, timeoutMs?: number) => untilServer(server, what, check, timeoutMs);

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      testDb = await createTestDatabase();
      Object.assign(env, { DATABASE_URL: testDb.url as string, PAYMENT_PROVIDER: 'sandbox', WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY });
    } else {
      // Already migrated: the first start is not what this file tests.
      await migratedDataDir(dataDir);
    }
    server = await startServerProcess(env);
    await server.waitReady({ timeoutMs: START_MS });
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, {
      name: 'Crash Test Ltd',
      domain: 'crash.test',
      redirect_domains: ['funds.example'],
    });
    personalEmails.push(...(await staffWithBanks(api, 'crash.test', EMPLOYEES)));
    runId = await approvedMarchRun(api, 'crash.test', EMPLOYEES);

    // Fund the wallet through the sandbox checkout, as a company would.
    await sandboxTopUp(api, server.baseUrl, 5_000_000);
  }, START_MS + 60_000);

  afterAll(async () => {
    await testDb?.close();
    await killAllAndRemove([dataDir]);
  });

  /** The database the server used, read after it stopped. */
  const withDatabase = <T>(read: (db: Database['db']) => Promise<T>) => readAfterStop({ testDb, dataDir }, read);

  test('pays every paystub once after a SIGKILL mid-transfer and a restart', async () => {
    const pay = await api('POST', `/api/payroll-runs/${runId}/pay`);
    expect(pay.status, JSON.stringify(pay.body)).toBe(202);
    // The send job runs within a poll (50 ms); settlement needs 2 s: kill while the transfers are out.
    // On PostgreSQL, wait until the send job is done: a job the killed process still held would
    // wait for its 300 s lease there (PGlite frees such claims at start-up: one process per DATA_DIR).
    if (testDb) {
      const db = testDb.database.db;
      await until('the send job to finish', async () => {
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'payroll-runs.send' AND done_at IS NULL`,
        );
        return row.n === 0;
      });
    } else await new Promise((resolve) => setTimeout(resolve, 400));
    const before = await api('GET', `/api/payroll-runs/${runId}`);
    expect(before.body.run.status).toBe('processing');
    server.child.kill('SIGKILL');
    await server.waitExit(10_000);

    server = await startServerProcess(env, server.port);
    await server.waitReady({ timeoutMs: START_MS });
    await until('the run to end', async () => (await api('GET', `/api/payroll-runs/${runId}`)).body.run.status !== 'processing');
    const { run } = (await api('GET', `/api/payroll-runs/${runId}`)).body;
    expect(run.status).toBe('paid');
    expect(run.counts).toEqual({ unpaid: 0, processing: 0, paid: EMPLOYEES, failed: 0, cancelled: 0, held: 0 });

    const entries = (await api('GET', '/api/wallet/transactions?per_page=100')).body.data.data as { type: string; amount: string }[];
    expect(entries.filter((e) => e.type === 'payroll_debit')).toHaveLength(1);
    expect(entries.filter((e) => e.type === 'payroll_refund')).toHaveLength(0);
    expect(Number(entries.find((e) => e.type === 'payroll_debit')?.amount)).toBeCloseTo(-run.totals.net_pay, 2);

    for (const to of personalEmails) {
      const { body } = await api('GET', `/admin/outbox?to=${encodeURIComponent(to)}`, undefined, {
        authorization: `Bearer ${ADMIN_TOKEN}`,
      });
      expect(
        body.messages.filter((m: { subject: string }) => m.subject.includes('paid your salary')),
        to,
      ).toHaveLength(1);
    }

    // Stop the server, then read the sandbox provider's books (each transfer requested once) and the ledger.
    server.child.kill('SIGTERM');
    expect(await server.waitExit(20_000)).toBe(0);
    await withDatabase(async (db) => {
      const books = await queryRows<{ requests: number }>(db, sql`SELECT requests FROM payroll_sandbox_transfers`);
      expect(books.map((b) => b.requests)).toEqual(Array(EMPLOYEES).fill(1));
      const stubs = await queryRows<{ status: string; n: number }>(
        db,
        sql`SELECT status, count(*)::int AS n FROM paystubs WHERE transaction_id = ${runId} GROUP BY status`,
      );
      expect(stubs).toEqual([{ status: 'paid', n: EMPLOYEES }]);
      const debits = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM wallet_entries WHERE kind = 'payroll_debit'`);
      expect(debits).toEqual([{ n: 1 }]);
    });
  }, 240_000);
});
