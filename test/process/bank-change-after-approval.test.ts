// What is approved is what is paid (docs/payroll-runs.md, "Payment destinations"), on the compiled
// server: an employee's bank account changes after their run was approved; pay leaves that paystub
// held and sends nothing to either account; a new approval pins the new account; the next pay sends
// it exactly once, there. The sandbox provider's own books say which account got what, and how often
// each transfer was asked for. On PGlite by default; with DATABASE_URL, on a database of its own.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, queryRows, sql } from '../../src/db/client.js';
import { nubanFor } from '../../src/modules/banks/index.js';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../helpers/database.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { adminCompany, approvedMarchRun, processEnv, readAfterStop, START_MS, sandboxTopUp, staffWithBanks } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess, until as untilServer } from './server-process.js';

const EMPLOYEES = 3;
const DOMAIN = 'moved.test';
const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;

afterAll(killAll);

describe('a bank account changed after approval, on the compiled server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bank-change-'));
  const env: Record<string, string> = {
    ...processEnv(ADMIN_TOKEN),
    DATA_DIR: dataDir,
    SANDBOX_TRANSFER_DELAY_SECONDS: '1',
    WALLET_VERIFY_DELAY_SECONDS: '1',
  };
  let server: ServerProcess;
  let testDb: TestDatabase | undefined;
  let auth: Record<string, string>;
  const api = (method: string, url: string, body?: unknown) => requestJson(server.baseUrl, method, url, body, auth);
  const runOf = async (id: string) => (await api('GET', `/api/payroll-runs/${id}`)).body.run;
  const settled = (id: string) => untilServer(server, 'the run to settle', async () => (await runOf(id)).status !== 'processing', 60_000);

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      testDb = await createTestDatabase();
      Object.assign(env, { DATABASE_URL: testDb.url as string, PAYMENT_PROVIDER: 'sandbox', WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY });
    } else await migratedDataDir(dataDir);
    server = await startServerProcess(env);
    await server.waitReady({ timeoutMs: START_MS });
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, {
      name: 'Moved Account Ltd',
      domain: DOMAIN,
      redirect_domains: ['funds.example'],
    });
  }, START_MS + 30_000);

  afterAll(async () => {
    await testDb?.close();
    await killAllAndRemove([dataDir]);
  });

  /** The database the server used, read after it stopped. */
  const withDatabase = <T>(read: (db: Database['db']) => Promise<T>) => readAfterStop({ testDb, dataDir }, read);

  test('held, paid to neither account, then re-approved and paid once to the new one', async () => {
    const emails = await staffWithBanks(api, DOMAIN, EMPLOYEES);
    const runId = await approvedMarchRun(api, DOMAIN, EMPLOYEES);
    await sandboxTopUp(api, server.baseUrl, 5_000_000);

    const users = (await api('GET', '/api/users?count=100')).body.Resources as {
      id: number;
      personal_email: string;
      account_number: string;
    }[];
    const mover = users.find((u) => u.personal_email === emails[1]);
    if (!mover) throw new Error('the employee to move is missing');
    const oldAccount = mover.account_number;
    const newAccount = nubanFor('058', '098765432');
    // A token with users.update is enough to change the account: what it cannot do is redirect pay.
    const moved = await api('PUT', `/api/users/${mover.id}`, { bank_code: '058', account_number: newAccount });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await runOf(runId)).counts).toMatchObject({ unpaid: EMPLOYEES - 1, held: 1 });

    expect((await api('POST', `/api/payroll-runs/${runId}/pay`)).status).toBe(202);
    await settled(runId);
    expect(await runOf(runId)).toMatchObject({ status: 'partially_paid', counts: { paid: EMPLOYEES - 1, held: 1 } });

    // Approved again (this company lets its token approve: run_approval token), the held paystub is
    // pinned to the new account and released; the next pay sends only it.
    const released = await api('POST', `/api/payroll-runs/${runId}/approve`, { approver_email: 'worker99@home.test' });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect((await api('POST', `/api/payroll-runs/${runId}/pay`)).status).toBe(202);
    await settled(runId);
    expect(await runOf(runId)).toMatchObject({ status: 'paid', counts: { paid: EMPLOYEES, held: 0 } });

    const stubs = (await api('GET', `/api/paystubs?transaction_id=${runId}&per_page=100`)).body.data.data as {
      id: number;
      user_id: number;
    }[];
    const stub = stubs.find((p) => p.user_id === mover.id) as unknown as { id: number; payment_destination: unknown };
    expect(stub?.payment_destination).toMatchObject({ bank_code: '058', account_last4: newAccount.slice(-4) });

    server.child.kill('SIGTERM');
    expect(await server.waitExit(20_000)).toBe(0);
    await withDatabase(async (db) => {
      const sent = await queryRows<{ account_number: string; requests: number }>(
        db,
        sql`SELECT s.account_number, s.requests FROM payroll_sandbox_transfers s
             JOIN payroll_transfers t ON t.reference = s.reference
            WHERE t.paystub_id = ${stub.id}`,
      );
      // Exactly one transfer for the moved employee, asked for once, to the new account.
      expect(sent).toEqual([{ account_number: newAccount, requests: 1 }]);
      const toOld = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM payroll_sandbox_transfers WHERE account_number = ${oldAccount}`,
      );
      expect(toOld[0].n).toBe(0);
    });
  }, 180_000);
});
