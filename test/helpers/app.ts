// Builds the real app on a fresh database for one test file. Tests configure; they never patch.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createRateLimitStore } from '../../src/platform/ratelimit/limiter.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_WEBHOOK_SECRET_KEY } from './test-keys.js';

export interface TestContext {
  app: App;
  db: App['deps']['db'];
  testDb: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export type ConfigOverrides = Partial<Omit<Config, 'rateLimit'>> & { rateLimit?: Partial<Config['rateLimit']> };

/**
 * Test defaults: generous rate limits (rate-limit tests lower them), no demo seed, no job loop, and
 * the sandbox provider and a webhook secret key named explicitly (on PostgreSQL the service has no
 * default for either).
 */
export function testConfig(overrides: ConfigOverrides = {}): Config {
  return loadConfig({
    seedDemo: false,
    publicUrl: 'http://payroll.test',
    paymentProvider: 'sandbox',
    webhookSecretKey: TEST_WEBHOOK_SECRET_KEY,
    ...overrides,
    rateLimit: {
      endpoint: 100_000,
      sensitive: 100_000,
      standard: 100_000,
      premium: 100_000,
      enterprise: 100_000,
      unauthenticated: 100_000,
      takenAnswers: 100_000,
      ...overrides.rateLimit,
    },
  } as Partial<Config>);
}

export async function createTestApp(overrides: ConfigOverrides = {}, existing?: TestDatabase): Promise<TestContext> {
  const testDb = existing ?? (await createTestDatabase());
  const config = testConfig(overrides);
  // Each app gets its own key prefix so files sharing one Redis never share counters.
  const limiter = createRateLimitStore({
    windowSeconds: config.rateLimit.windowSeconds,
    redisUrl: config.redisUrl,
    keyPrefix: `t${crypto.randomBytes(4).toString('hex')}`,
  });
  // Every answer is checked against its documented schema (RESPONSE_CONTRACT=off skips it); a
  // disagreement fails the file when its app closes (docs/api-reference.md, "Contract test").
  const mismatches: string[] = [];
  const responseContract = process.env.RESPONSE_CONTRACT === 'off' ? undefined : (mismatch: string) => mismatches.push(mismatch);
  const app = await buildApp({ config, database: testDb.database, logLevel: 'silent', limiter, responseContract });
  await app.ready();
  return {
    app,
    db: testDb.database.db,
    testDb,
    config,
    async close() {
      await app.close();
      await limiter.close();
      if (!existing) await testDb.close();
      if (mismatches.length > 0)
        throw new Error(`Answers that disagree with their documented response schema:\n${[...new Set(mismatches)].join('\n')}`);
    },
  };
}

/**
 * createTestApp with a DATA_DIR of its own (uploads, employee documents) in a fresh temporary
 * directory, removed when the app closes: for tests that read or write the files themselves.
 */
export async function createTestAppWithDataDir(overrides: ConfigOverrides = {}): Promise<TestContext & { dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-test-data-'));
  const ctx = await createTestApp({ ...overrides, dataDir });
  return {
    ...ctx,
    dataDir,
    async close() {
      try {
        await ctx.close();
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
