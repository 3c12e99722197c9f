// examples/getting-started.ts as a newcomer runs it: the compiled server started as `npm start` runs
// it (a fresh PGlite DATA_DIR, or a fresh PostgreSQL database when DATABASE_URL is set), a company
// made by the operator API whose token approves runs, one administrator; then the example in a child
// process with only BASE_URL and TOKEN. It must top the wallet up through the sandbox checkout, pay
// the run, save the payslip PDF, verify the webhook, and leave no endpoint behind.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayrollClient, unwrap } from '../clients/typescript/src/index.js';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../test/helpers/database.js';
import { repoRoot } from '../test/helpers/server-build.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../test/helpers/test-keys.js';
import { adminCompany, processEnv, START_MS } from '../test/process/run-fixture.js';
import { killAll, type ServerProcess, startServerProcess } from '../test/process/server-process.js';

const ADMIN_TOKEN = `adm_${crypto.randomBytes(16).toString('hex')}`;
const SCRIPT = path.join(repoRoot, 'examples', 'getting-started.ts');

afterAll(killAll);

/** Runs the example with `env`; answers its exit code and what it printed. */
function runExample(env: Record<string, string>, timeoutMs = 120_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the example ran longer than ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('examples/getting-started.ts against the compiled server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-getting-started-'));
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'example-payslips-'));
  const env: Record<string, string> = {
    ...processEnv(ADMIN_TOKEN),
    DATA_DIR: dataDir,
    SANDBOX_TRANSFER_DELAY_SECONDS: '0',
    // Verification asks once the example's checkout has recorded its outcome (a pending answer waits a minute).
    WALLET_VERIFY_DELAY_SECONDS: '2',
    // The example's receiver listens on 127.0.0.1 over http.
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  let server: ServerProcess;
  let testDb: TestDatabase | undefined;
  let token: string;

  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      testDb = await createTestDatabase();
      Object.assign(env, { DATABASE_URL: testDb.url as string, PAYMENT_PROVIDER: 'sandbox', WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY });
    } else {
      await migratedDataDir(dataDir);
    }
    server = await startServerProcess(env);
    await server.waitReady({ timeoutMs: START_MS });
    const auth = await adminCompany(server.baseUrl, ADMIN_TOKEN, { name: 'Adebayo Logistics Ltd', domain: 'adebayo-logistics.test' });
    token = auth.authorization.slice('Bearer '.length);
    const client = createPayrollClient({ baseUrl: server.baseUrl, token });
    unwrap(
      await client.POST('/api/users', {
        body: {
          first_name: 'Ngozi',
          last_name: 'Eze',
          personal_email: 'ngozi.eze@example.com',
          domain_name: 'adebayo-logistics.test',
          user_types: 'Full-time',
          start_date: '2023-01-01',
          roles: ['admin'],
          is_active: true,
        },
      }),
    );
  }, START_MS + 60_000);

  afterAll(async () => {
    await testDb?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('refuses to start without BASE_URL and TOKEN', async () => {
    const { code, output } = await runExample({});
    expect(code).toBe(2);
    expect(output).toContain('Set BASE_URL');
  });

  it('runs token → employee → run → approval → top-up → pay → payslip → webhook', async () => {
    const { code, output } = await runExample({ BASE_URL: server.baseUrl, TOKEN: token, OUT_DIR: outDir, WAIT_SECONDS: '60' });
    expect(code, `${output}\nserver:\n${server.output()}`).toBe(0);
    const result = JSON.parse(
      output
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/^RESULT /, '') ?? '{}',
    );
    expect(result).toMatchObject({ status: 'paid', webhook: 'payroll_run.paid' });
    expect(output).toContain('approver will be ngozi.eze@example.com');
    expect(output).toMatch(/5a\. wallet short by .*: sandbox top-up WT-/);
    expect(fs.readFileSync(result.payslip).subarray(0, 5).toString()).toBe('%PDF-');

    // Nothing left behind but the work: no webhook endpoint; the run paid once from the wallet.
    const client = createPayrollClient({ baseUrl: server.baseUrl, token });
    expect(unwrap(await client.GET('/api/webhook-endpoints')).data.total).toBe(0);
    const run = unwrap(await client.GET('/api/payroll-runs/{id}', { params: { path: { id: result.run } } })).run;
    const balance = unwrap(await client.GET('/api/wallet/balance')).balance;
    expect(run.counts).toMatchObject({ paid: 1, failed: 0 });
    // The top-up was exactly the shortfall from an empty wallet: paying it left nothing.
    expect(balance).toBe(0);
  });

  it('runs again (a new employee and run) and goes on without webhooks when the endpoint is refused', async () => {
    const { code, output } = await runExample({
      BASE_URL: server.baseUrl,
      TOKEN: token,
      OUT_DIR: outDir,
      WAIT_SECONDS: '60',
      WEBHOOK_URL: 'not a url',
    });
    expect(code, output).toBe(0);
    expect(output).toContain('7a. webhooks skipped, the endpoint was refused');
    const result = JSON.parse(
      output
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/^RESULT /, '') ?? '{}',
    );
    expect(result).toMatchObject({ status: 'paid', webhook: null });
  });
});
