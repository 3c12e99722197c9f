// PAYMENT_PROVIDER (README.md, "Configuration"): `sandbox` is the default only on the embedded
// database. On PostgreSQL the sandbox would let anyone holding a checkout link credit a wallet, so
// a server with DATABASE_URL and no PAYMENT_PROVIDER refuses to start and says why.
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig, PAYMENT_PROVIDER_REQUIRED } from '../../src/config.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { killAll, startServerProcess } from './server-process.js';

afterAll(killAll);

const POSTGRES = 'postgres://nobody@127.0.0.1:1/never-opened';
/** WEBHOOK_SECRET_KEY is required with DATABASE_URL too (webhook-secret-key.test.ts). */
const KEY = TEST_WEBHOOK_SECRET_KEY;

describe('PAYMENT_PROVIDER', () => {
  test('defaults to sandbox on the embedded database only; required with DATABASE_URL', () => {
    expect(loadConfig({}, {}).paymentProvider).toBe('sandbox');
    expect(() => loadConfig({}, { DATABASE_URL: POSTGRES })).toThrow(PAYMENT_PROVIDER_REQUIRED);
    expect(() => loadConfig({}, { DATABASE_URL: POSTGRES, PAYMENT_PROVIDER: ' ' })).toThrow(PAYMENT_PROVIDER_REQUIRED);
    expect(loadConfig({}, { DATABASE_URL: POSTGRES, PAYMENT_PROVIDER: 'sandbox', WEBHOOK_SECRET_KEY: KEY }).paymentProvider).toBe(
      'sandbox',
    );
    expect(loadConfig({ paymentProvider: 'sandbox' }, { DATABASE_URL: POSTGRES, WEBHOOK_SECRET_KEY: KEY }).paymentProvider).toBe('sandbox');
    expect(() => loadConfig({}, { PAYMENT_PROVIDER: 'stripe' })).toThrow('PAYMENT_PROVIDER must be sandbox or paystack, got "stripe"');
  });

  test('the server with DATABASE_URL and no PAYMENT_PROVIDER exits 1 with the reason, before touching the database', async () => {
    const server = await startServerProcess({ DATABASE_URL: POSTGRES });
    expect(await server.waitExit(60_000)).toBe(1);
    expect(server.output()).toContain(PAYMENT_PROVIDER_REQUIRED);
  }, 70_000);
});
