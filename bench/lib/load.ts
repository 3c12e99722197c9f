// Spawns bench/load-worker.ts, compiled once per bench run, for one autocannon run and returns its figures.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult } from '../scenario.js';
import { compiled, cpuSeconds, databaseCpuSeconds, repoRoot } from './processes.js';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  /** Each request's body gets a fresh id where it says `[<id>]` (creates need unique e-mails). */
  idReplacement?: boolean;
  /**
   * Each request is sent as a company picked at random among these API tokens (many tenants); a
   * list of one sends every request through the same per-request path, so the two compare.
   */
  bearerTokens?: string[];
  /** The server's pid: its CPU time over the measured run gives `cpuMsPerRequest`. */
  serverPid?: number;
  /** The server's database: its PostgreSQL backends' CPU time over the run gives `databaseCpuMsPerRequest`. */
  databaseName?: string;
}

export interface DetailedLoadResult extends LoadResult {
  p50Ms: number;
  total: number;
  statusCodes: Record<string, number>;
  /** Server CPU (user + system) per request over the measured run, when `serverPid` was given. */
  cpuMsPerRequest?: number;
  /** CPU of the database's PostgreSQL backends per request over the run, when `databaseName` was given. */
  databaseCpuMsPerRequest?: number;
  /** CPU of the load generator (autocannon) per request over the run. */
  clientCpuMsPerRequest?: number;
}

/** BENCH_DURATION_SECONDS / BENCH_WARMUP_SECONDS shorten every run (a quick smoke of the harness). */
function envSeconds(name: string): number | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
}

/**
 * The tokens go to the worker in a file of its own (mode 0600, removed after the run): ten thousand
 * of them are past what one environment variable may hold (128 KB on Linux), and they are secrets.
 */
function writeTokensFile(tokens: string[]): { file: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tokens-'));
  const file = path.join(dir, 'tokens.json');
  fs.writeFileSync(file, JSON.stringify(tokens), { mode: 0o600 });
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The load worker as compiled JavaScript (bench/lib/processes.ts, `compiled`), built at the first
 * load of the run: through tsx each of a run's loads paid ~0.3-0.6 s of start-up for the loader
 * (~40 loads in CI's smoke run).
 */
let loadWorker: Promise<string> | undefined;

export async function runLoad(options: LoadOptions): Promise<DetailedLoadResult> {
  loadWorker ??= compiled('bench/load-worker.ts');
  const workerScript = await loadWorker;
  const durationSeconds = envSeconds('BENCH_DURATION_SECONDS') ?? options.durationSeconds ?? 10;
  const warmupSeconds = envSeconds('BENCH_WARMUP_SECONDS') ?? options.warmupSeconds ?? 2;
  const workerOptions = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body,
    connections: options.connections ?? 10,
    durationSeconds,
    warmupSeconds,
    idReplacement: options.idReplacement,
  };
  const tokens = options.bearerTokens ? writeTokensFile(options.bearerTokens) : undefined;
  return new Promise<DetailedLoadResult>((resolve, reject) => {
    const child = spawn(process.execPath, [workerScript], {
      cwd: repoRoot,
      env: { ...process.env, BENCH_LOAD_OPTIONS: JSON.stringify({ ...workerOptions, tokensFile: tokens?.file }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let cpuAtStart: number | undefined;
    let databaseCpuAtStart: number | undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (cpuAtStart === undefined && options.serverPid && stdout.includes('MEASURING\n')) cpuAtStart = cpuSeconds(options.serverPid);
      if (databaseCpuAtStart === undefined && options.databaseName && stdout.includes('MEASURING\n'))
        databaseCpuAtStart = databaseCpuSeconds(options.databaseName);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + warmupSeconds + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(guard);
      const cpuAtEnd = options.serverPid ? cpuSeconds(options.serverPid) : undefined;
      const databaseCpuAtEnd = options.databaseName ? databaseCpuSeconds(options.databaseName) : undefined;
      const line = stdout.trim().split('\n').pop();
      if (code !== 0 || !line || line === 'MEASURING') return reject(new Error(`load worker exited with ${code}: ${stderr || stdout}`));
      const result = JSON.parse(line) as DetailedLoadResult & { clientCpuMs?: number };
      if (cpuAtStart !== undefined && cpuAtEnd !== undefined && result.total > 0) {
        result.cpuMsPerRequest = ((cpuAtEnd - cpuAtStart) * 1000) / result.total;
      }
      if (databaseCpuAtStart !== undefined && databaseCpuAtEnd !== undefined && result.total > 0) {
        result.databaseCpuMsPerRequest = ((databaseCpuAtEnd - databaseCpuAtStart) * 1000) / result.total;
      }
      if (result.clientCpuMs !== undefined && result.total > 0) result.clientCpuMsPerRequest = result.clientCpuMs / result.total;
      resolve(result);
    });
  }).finally(() => tokens?.remove());
}

/** A short note on anything that makes a figure suspect (errors, non-2xx answers). */
export function loadProblems(result: LoadResult): string | undefined {
  const problems = [];
  if (result.errors > 0) problems.push(`${result.errors} errors`);
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx`);
  return problems.length ? `INVALID: ${problems.join(', ')}` : undefined;
}
