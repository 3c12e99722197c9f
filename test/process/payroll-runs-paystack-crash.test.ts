// The Paystack variant of payroll-runs-crash.test.ts: the compiled server pays a run with
// PAYMENT_PROVIDER=paystack against the fake Paystack running in this test process, which kills the
// server (SIGKILL) the moment it has received POST /transfer/bulk, before the server could record
// the answer. After a restart, the send job finds the transfers `sending`, asks Paystack about each
// reference (GET /transfer/verify) and sends none again: each reference reached Paystack once, every
// paystub ends paid, one debit. The server always runs on the embedded database here (its
// DATA_DIR): the embedded CI pass runs it, the PostgreSQL pass would only repeat it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openPglite, queryRows, sql } from '../../src/db/client.js';
import { migratedDataDir } from '../helpers/database.js';
import { describeEmbedded } from '../helpers/embedded-only.js';
import { type FakeTransfers, fakeTransfers } from '../helpers/paystack-transfers.js';
import { type FakePaystack, paystackSignature, paystackVerified, startFakePaystack } from '../helpers/wallet.js';
import { adminCompany, approvedMarchRun, processEnv, START_MS, staffWithBanks } from './run-fixture.js';
import { killAll, killAllAndRemove, requestJson, type ServerProcess, startServerProcess, until as untilServer } from './server-process.js';

const EMPLOYEES = 4;
const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;

afterAll(killAll);

describeEmbedded('kill -9 right after Paystack received the bulk transfer', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-runs-paystack-crash-'));
  let fake: FakePaystack;
  let transfers: FakeTransfers;
  let env: Record<string, string>;
  let server: ServerProcess;
  let auth: Record<string, string>;
  let runId: string;

  const api = (method: string, url: string, body?: unknown, headers = auth) => requestJson(server.baseUrl, method, url, body, headers);
  const until = (what: string, check: () => Promise<boolean>, timeoutMs?: number) => untilServer(server, what, check, timeoutMs);

  beforeAll(async () => {
    fake = await startFakePaystack();
    transfers = fakeTransfers(fake);
    env = {
      ...processEnv(ADMIN_TOKEN),
      DATA_DIR: dataDir,
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: fake.secret,
      PAYSTACK_BASE_URL: fake.url,
    };
    // Already migrated: the first start is not what this file tests.
    await migratedDataDir(dataDir);
    server = await startServerProcess(env);
    await server.waitReady({ timeoutMs: START_MS });
    auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, {
      name: 'Paystack Crash Ltd',
      domain: 'pcrash.test',
      redirect_domains: ['funds.example'],
    });
    await staffWithBanks(api, 'pcrash.test', EMPLOYEES);
    runId = await approvedMarchRun(api, 'pcrash.test', EMPLOYEES);

    // Fund the wallet through Paystack: the checkout, then its signed charge.success (verified on the fake).
    const topUp = await api('POST', '/api/wallet/top-up', {
      amount: 5_000_000,
      customer_email: 'finance@funds.example',
      redirect_url: 'https://funds.example/done',
    });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    const reference = new URL(topUp.body.checkoutUrl).pathname.slice(1);
    fake.verify.set(reference, paystackVerified(reference, 'success', 500_000_000));
    const text = JSON.stringify({ event: 'charge.success', data: { reference, amount: 500_000_000, currency: 'NGN', status: 'success' } });
    const hook = await fetch(`${server.baseUrl}/webhooks/paystack`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(fake.secret, text) },
      body: text,
    });
    expect(hook.status).toBe(200);
    await until('the top-up to be credited', async () => (await api('GET', '/api/wallet/balance')).body.balance === 5_000_000, 20_000);
  }, START_MS + 60_000);

  afterAll(async () => {
    await fake?.close();
    await killAllAndRemove([dataDir]);
  });

  test('each reference reaches Paystack once, every paystub ends paid, one debit', async () => {
    let killed = false;
    transfers.onBulk = () => {
      if (killed) return;
      killed = true;
      server.child.kill('SIGKILL');
    };
    expect((await api('POST', `/api/payroll-runs/${runId}/pay`)).status).toBe(202);
    await server.waitExit(30_000);
    expect(killed).toBe(true);
    expect(transfers.transfers.size).toBe(EMPLOYEES);

    server = await startServerProcess(env, server.port);
    await server.waitReady({ timeoutMs: START_MS });
    await until('the run to end', async () => (await api('GET', `/api/payroll-runs/${runId}`)).body.run.status !== 'processing');
    const { run } = (await api('GET', `/api/payroll-runs/${runId}`)).body;
    expect(run.status).toBe('paid');
    expect(run.counts).toEqual({ unpaid: 0, processing: 0, paid: EMPLOYEES, failed: 0, cancelled: 0, held: 0 });
    expect(transfers.bulks).toHaveLength(1);
    expect([...transfers.transfers.values()].map((t) => t.received)).toEqual(Array(EMPLOYEES).fill(1));
    expect(fake.requests.filter((r) => r.url.startsWith('/transfer/verify/')).length).toBeGreaterThanOrEqual(EMPLOYEES);

    server.child.kill('SIGTERM');
    expect(await server.waitExit(20_000)).toBe(0);
    const database = await openPglite(dataDir);
    try {
      const kinds = await queryRows<{ kind: string; n: number }>(
        database.db,
        sql`SELECT kind, count(*)::int AS n FROM wallet_entries GROUP BY kind ORDER BY kind`,
      );
      expect(kinds).toEqual([
        { kind: 'payroll_debit', n: 1 },
        { kind: 'top_up', n: 1 },
      ]);
    } finally {
      await database.close();
    }
  }, 240_000);
});
