// The contract between the bench runner (bench/run.ts) and its scenarios (bench/scenarios/*.ts).
// The runner starts the real server in a separate process on a fresh PostgreSQL database (or
// PGlite when no PostgreSQL is reachable), gives every scenario a database handle for seeding
// and a function to drive load, and prints every reported row in one table.
import type { Database } from '../src/db/client.js';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU per request of the server's PostgreSQL backends over the measured run (ctx.load). */
  databaseCpuMsPerRequest?: number;
  /** CPU per request of the load generator over the measured run. */
  clientCpuMsPerRequest?: number;
}

export interface BenchRow {
  scenario: string;
  /** Requests per second, or items (rows, paystubs, webhook deliveries) per second for batch scenarios. */
  rate: number;
  unit: 'req/s' | 'rows/s' | 'paystubs/s' | 'deliveries/s' | 'payslips/s' | 'runs/s' | 'ops/s';
  p99Ms?: number;
  /** CPU time of the serving process per request (filled in by the runner after ctx.load). */
  serverCpuMsPerRequest?: number;
  /** Against the baseline; the runner divides by the baseline's row unless a scenario measured it itself. */
  ratio?: number;
  cpuRatio?: number;
  note?: string;
}

export interface BenchContext {
  /** `http://127.0.0.1:<port>` of the running server (separate process). */
  baseUrl: string;
  /** The real server's process id (its CPU time is read from /proc). */
  serverPid: number;
  /** Direct database access (same database as the server) for seeding. */
  database: Database;
  /** A fresh company with an API token with scope `all` on the enterprise plan. */
  newCompany(): Promise<{ id: number; token: string; domain: string }>;
  /** Drives HTTP load with autocannon from a separate process; `durationSeconds` default 10. */
  load(options: {
    path: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    durationSeconds?: number;
    /** `[<id>]` in the body becomes a fresh id on every request. */
    idReplacement?: boolean;
    /** Each request as a company picked at random among these tokens (instead of an authorization header). */
    bearerTokens?: string[];
  }): Promise<LoadResult>;
  /** Peak resident set size of the server process since the last call, in MB. */
  serverPeakRssMb(): Promise<number>;
  report(row: BenchRow): void;
}

export interface Scenario {
  name: string;
  /** Lower runs first; the bare baselines use 0-9. */
  order: number;
  run(ctx: BenchContext): Promise<void>;
}
