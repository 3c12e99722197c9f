// WEBHOOK_SECRET_KEY encrypts webhook endpoints' signing secrets at rest (docs/webhooks.md). The
// embedded database keeps a fixed development key; with DATABASE_URL (a deployment) the key is
// required, as PAYMENT_PROVIDER is: the server and the CLI refuse to start without it and say why.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig, WEBHOOK_SECRET_KEY_REQUIRED } from '../../src/config.js';
import { repoRoot } from '../helpers/server-build.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { killAll, startServerProcess } from './server-process.js';

afterAll(killAll);

const POSTGRES = 'postgres://nobody@127.0.0.1:1/never-opened';
const WITH_PROVIDER = { DATABASE_URL: POSTGRES, PAYMENT_PROVIDER: 'sandbox' };

describe('WEBHOOK_SECRET_KEY', () => {
  test('optional on the embedded database (development key); required with DATABASE_URL; 32 bytes', () => {
    expect(loadConfig({}, {}).webhookSecretKey).toBeUndefined();
    expect(loadConfig({}, { WEBHOOK_SECRET_KEY: ' ' }).webhookSecretKey).toBeUndefined();
    expect(() => loadConfig({}, WITH_PROVIDER)).toThrow(WEBHOOK_SECRET_KEY_REQUIRED);
    expect(() => loadConfig({}, { ...WITH_PROVIDER, WEBHOOK_SECRET_KEY: '  ' })).toThrow(WEBHOOK_SECRET_KEY_REQUIRED);
    expect(loadConfig({}, { ...WITH_PROVIDER, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY }).webhookSecretKey).toBe(
      TEST_WEBHOOK_SECRET_KEY,
    );
    expect(loadConfig({ webhookSecretKey: TEST_WEBHOOK_SECRET_KEY }, WITH_PROVIDER).webhookSecretKey).toBe(TEST_WEBHOOK_SECRET_KEY);
    const short = Buffer.alloc(16, 1).toString('base64');
    expect(() => loadConfig({}, { WEBHOOK_SECRET_KEY: short })).toThrow('WEBHOOK_SECRET_KEY must be the base64 of 32 bytes');
    expect(() => loadConfig({}, { ...WITH_PROVIDER, WEBHOOK_SECRET_KEY: 'not a key' })).toThrow(
      'WEBHOOK_SECRET_KEY must be the base64 of 32 bytes',
    );
  });

  test('the server with DATABASE_URL and no WEBHOOK_SECRET_KEY exits 1 with the reason, before touching the database', async () => {
    const server = await startServerProcess(WITH_PROVIDER);
    expect(await server.waitExit(60_000)).toBe(1);
    expect(server.output()).toContain(WEBHOOK_SECRET_KEY_REQUIRED);
  }, 70_000);

  test('so does the CLI', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...WITH_PROVIDER, LOG_LEVEL: 'silent' };
    delete env.WEBHOOK_SECRET_KEY;
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.join(repoRoot, 'bin', 'payroll.js'), 'migrate'],
        { cwd: repoRoot, env, timeout: 60_000 },
        (error, _out, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(WEBHOOK_SECRET_KEY_REQUIRED);
  }, 70_000);
});
