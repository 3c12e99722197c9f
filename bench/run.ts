// `npm run bench`: a fresh PostgreSQL database, the real server in its own process, every
// bench/scenarios/*.ts in `order`, load from separate autocannon processes, one table at the end
// (and bench/results/latest.json). See docs/benchmarks.md for the method.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type Database, openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { runLoad } from './lib/load.js';
import { freePort, type NodeProcess, repoRoot, startNodeServer } from './lib/processes.js';
import { BASELINE_SCENARIO, runState } from './lib/run-state.js';
import { createBenchCompany, serverEnv } from './lib/server-env.js';
import type { BenchContext, BenchRow, Scenario } from './scenario.js';

const resultsDir = path.join(repoRoot, 'bench', 'results');

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function reachableRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function loadScenarios(): Promise<Scenario[]> {
  const dir = path.join(repoRoot, 'bench', 'scenarios');
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.ts') && (!only || only.test(name)));
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const loaded = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: Scenario };
    if (!loaded.default?.run) throw new Error(`bench/scenarios/${file} has no default export implementing Scenario`);
    scenarios.push(loaded.default);
  }
  return scenarios.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

function formatTable(rows: BenchRow[]): string {
  const header = ['scenario', 'rate', 'unit', 'p99 ms', 'vs baseline', 'CPU ms/req', 'CPU vs baseline', 'note'];
  const body = rows.map((row) => [
    row.scenario,
    Number.isFinite(row.rate) ? row.rate.toFixed(row.rate >= 100 ? 0 : 1) : 'n/a',
    row.unit,
    row.p99Ms === undefined ? '' : String(row.p99Ms),
    row.ratio === undefined ? '' : row.ratio.toFixed(2),
    row.serverCpuMsPerRequest === undefined ? '' : row.serverCpuMsPerRequest.toFixed(3),
    row.cpuRatio === undefined ? '' : row.cpuRatio.toFixed(2),
    row.note ?? '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column >= 1 && column !== 2 && column <= 6 ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}

/**
 * CI's smoke run (BENCH_SMOKE) checks that every scenario still runs end to end; its figures mean
 * nothing, so the repetitions and sizes that only steady the figures are cut (a setting given
 * explicitly wins). Set before the scenarios are imported: they read these when loaded.
 */
const SMOKE_SIZES: Record<string, string> = {
  BENCH_PAIRED_ROUNDS: '1',
  BENCH_PAYSTUB_RUNS: '2',
  BENCH_USERS_BULK_ROWS: '1000',
  BENCH_USERS_BULK_RUNS: '1',
  BENCH_FIXTURE_USERS: '1000',
};

async function main(): Promise<void> {
  const started = Date.now();
  if (process.env.BENCH_SMOKE) for (const [name, value] of Object.entries(SMOKE_SIZES)) process.env[name] ||= value;
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    // The embedded database allows one process at a time, so it cannot be shared by the server and
    // the seeding runner: the bench needs PostgreSQL.
    console.error(`The bench needs PostgreSQL: could not connect to ${adminUrl} (${(error as Error).message}). Set BENCH_DATABASE_URL.`);
    process.exit(1);
  }
  const dbName = `payroll_bench_${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  const databaseUrl = withDatabase(adminUrl, dbName);
  runState.databaseUrl = databaseUrl;
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const useRedis = await reachableRedis(redisUrl);
  runState.redisUrl = useRedis ? redisUrl : '';

  let database: Database | undefined;
  let server: NodeProcess | undefined;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    for (const stop of runState.cleanups) await stop().catch(() => {});
    server?.peakRss.close();
    const code = await server?.stop();
    if (code !== undefined && code !== 0) console.error(`server exited with ${code}:\n${server?.output().slice(-2000)}`);
    await database?.close().catch(() => {});
    await admin
      .query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
      .catch((error) => console.error(`could not drop ${dbName}: ${error.message}`));
    await admin.end().catch(() => {});
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

  const rows: BenchRow[] = [];
  try {
    database = await openPostgres(databaseUrl, 4);
    await migrate(database);
    server = await startNodeServer({
      script: 'src/server.ts',
      port: await freePort(),
      readyPath: '/readyz',
      env: serverEnv(databaseUrl, runState.redisUrl),
    });
    const running = server;
    const db = database.db;
    let companies = 0;
    // Server CPU per request of the last ctx.load, attached to the next req/s row reported.
    let lastCpuMsPerRequest: number | undefined;
    const ctx: BenchContext = {
      baseUrl: running.baseUrl,
      serverPid: running.pid,
      database,
      async newCompany() {
        companies += 1;
        return createBenchCompany(db, String(companies));
      },
      async load(options) {
        const { path: requestPath, ...rest } = options;
        const result = await runLoad({ url: `${running.baseUrl}${requestPath}`, serverPid: running.pid, databaseName: dbName, ...rest });
        lastCpuMsPerRequest = result.cpuMsPerRequest;
        return result;
      },
      async serverPeakRssMb() {
        return running.peakRss.takeMb();
      },
      report(reported) {
        const row = { ...reported };
        if (row.unit === 'req/s' && row.serverCpuMsPerRequest === undefined) row.serverCpuMsPerRequest = lastCpuMsPerRequest;
        lastCpuMsPerRequest = undefined;
        rows.push(row);
        console.error(
          `  ${row.scenario}: ${row.rate.toFixed(1)} ${row.unit}${row.p99Ms === undefined ? '' : `, p99 ${row.p99Ms} ms`}${row.note ? ` (${row.note})` : ''}`,
        );
      },
    };

    const scenarios = await loadScenarios();
    console.error(
      `bench: ${scenarios.length} scenarios on ${dbName}${useRedis ? ' + Redis' : ' (memory rate limits: Redis unreachable)'}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}`,
    );
    for (const scenario of scenarios) {
      const at = Date.now();
      console.error(`- ${scenario.name}`);
      try {
        await scenario.run(ctx);
      } catch (error) {
        rows.push({ scenario: scenario.name, rate: Number.NaN, unit: 'req/s', note: `FAILED: ${(error as Error).message.split('\n')[0]}` });
        console.error(`  FAILED: ${(error as Error).stack}`);
      }
      console.error(`  (${((Date.now() - at) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await cleanup();
  }

  const baseline = rows.find((row) => row.scenario === BASELINE_SCENARIO);
  const table: BenchRow[] = rows.map((row) => ({
    ...row,
    ratio: row.ratio ?? (baseline && row.unit === 'req/s' && Number.isFinite(row.rate) ? row.rate / baseline.rate : undefined),
    // Baseline CPU per request over this row's: what the throughput ratio would be if the server's
    // own CPU were the only limit (it does not move with the machine's other load, unlike req/s).
    cpuRatio:
      row.cpuRatio ??
      (baseline?.serverCpuMsPerRequest && row.serverCpuMsPerRequest
        ? baseline.serverCpuMsPerRequest / row.serverCpuMsPerRequest
        : undefined),
  }));
  console.log(formatTable(table));
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'latest.json');
  const seconds = (Date.now() - started) / 1000;
  fs.writeFileSync(
    file,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        loadAverage1m: os.loadavg()[0],
        database: 'postgres',
        rateLimitStore: useRedis ? 'redis' : 'memory',
        seconds,
        rows: table,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nbench finished in ${seconds.toFixed(0)} s; results in ${path.relative(process.cwd(), file) || file}`);
  if (process.env.BENCH_CPU_PROF)
    console.log(`CPU profiles in ${path.join(resultsDir, 'profiles')}/<process> (summarize: npx tsx bench/profile-summary.ts server)`);
  // Exit non-zero when a scenario failed or (unless BENCH_SMOKE, CI's one-second runs on a busy
  // machine) a figure is not trustworthy.
  const invalid = !process.env.BENCH_SMOKE && rows.some((row) => row.note?.startsWith('INVALID'));
  if (invalid || rows.some((row) => !Number.isFinite(row.rate))) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
