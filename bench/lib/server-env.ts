// The real server of a bench run: its environment, its companies, and a way for a scenario to start
// another one with some settings changed (paystack-scale pays through a fake Paystack, which the
// run's own server, on the sandbox, cannot).
import crypto from 'node:crypto';
import type { Database, Db } from '../../src/db/client.js';
import { issueToken, setupCompany } from '../../src/modules/companies/index.js';
import { freePort, type NodeProcess, startNodeServer } from './processes.js';
import { runState } from './run-state.js';
import { scratchDatabase } from './scratch-database.js';

const HUGE = '1000000000';

/** Every rate limit far above any load the bench drives: counted (in Redis when it answers), never refusing. */
export const UNLIMITED_RATES = {
  RATE_LIMIT_ENDPOINT: HUGE,
  RATE_LIMIT_SENSITIVE: HUGE,
  RATE_LIMIT_STANDARD: HUGE,
  RATE_LIMIT_PREMIUM: HUGE,
  RATE_LIMIT_ENTERPRISE: HUGE,
  RATE_LIMIT_UNAUTHENTICATED: HUGE,
};

/** The environment of `node dist/server.js` on the run's database (docs/benchmarks.md, "Method"). */
export function serverEnv(databaseUrl: string, redisUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    // Required with DATABASE_URL; the bench's wallet traffic uses the built-in checkout.
    PAYMENT_PROVIDER: 'sandbox',
    // Required with DATABASE_URL too: a fresh key per run (the run's database is dropped at the end).
    WEBHOOK_SECRET_KEY: crypto.randomBytes(32).toString('base64'),
    // The webhook scenarios' receiver listens on http://127.0.0.1 (never allowed in production).
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // The payroll-runs scenario pays on the sandbox with no settlement delay (the payroll-runs target).
    SANDBOX_TRANSFER_DELAY_SECONDS: '0',
    REDIS_URL: redisUrl,
    // Production's default level: one JSON line per request is part of the measured overhead.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    SEED_DEMO: 'false',
    ...UNLIMITED_RATES,
  };
}

/** A company on the enterprise plan with an API token of scope `all`, as `ctx.newCompany()` makes them. */
export async function createBenchCompany(db: Db, label: string): Promise<{ id: number; token: string; domain: string }> {
  const domain = `bench${label}-${crypto.randomBytes(3).toString('hex')}.test`;
  return db.transaction(async (tx) => {
    const company = await setupCompany(tx, { name: `Bench Company ${label}`, domain, plan: 'enterprise' });
    const { token } = await issueToken(tx, company.id, ['all']);
    return { id: company.id, token, domain };
  });
}

/** The `application_name` of an extra server's database sessions. */
export const EXTRA_SERVER_APPLICATION = 'payroll-bench-extra-server';

export interface ExtraServer {
  server: NodeProcess;
  database: Database;
  newCompany(): Promise<{ id: number; token: string; domain: string }>;
  /** Stops the server and drops its database. */
  close(): Promise<void>;
}

/**
 * Another server, with `overrides` over serverEnv, on a scratch database of its own: its job loop
 * and the run's server's never claim each other's jobs (a send job pays through the provider of the
 * server that claims it). Closed by the runner at the end if the scenario has not.
 */
export async function startExtraServer(label: string, overrides: Record<string, string>): Promise<ExtraServer> {
  const scratch = await scratchDatabase(label);
  let server: NodeProcess | undefined;
  let closed = false;
  let companies = 0;
  const close = async () => {
    if (closed) return;
    closed = true;
    server?.peakRss.close();
    await server?.stop();
    await scratch.drop();
  };
  runState.cleanups.push(close);
  // Its sessions are named, so that a scenario can tell them from its own in pg_stat_activity.
  const url = new URL(scratch.url);
  url.searchParams.set('application_name', EXTRA_SERVER_APPLICATION);
  server = await startNodeServer({
    script: 'src/server.ts',
    port: await freePort(),
    readyPath: '/readyz',
    env: { ...serverEnv(url.toString(), runState.redisUrl), ...overrides },
  });
  return { server, database: scratch.database, newCompany: () => createBenchCompany(scratch.database.db, `${label}${++companies}`), close };
}
