// The physical limit of GET /api/users: its statements (now one, the page carrying the total), run by the
// bare driver (node-postgres, named prepared statements, array rows, no ORM, no HTTP, no serializer) from 10
// concurrent loops over a pool of 10, as fast as PostgreSQL answers them. Whatever the server does, it
// cannot serve the list faster than this on the same machine. Options arrive as JSON in
// BENCH_PHYSICAL_OPTIONS; the result is one JSON line on stdout, in the load worker's shape.
import pg from 'pg';

interface Statement {
  name: string;
  text: string;
  values: unknown[];
}
const options = JSON.parse(process.env.BENCH_PHYSICAL_OPTIONS ?? '{}') as {
  databaseUrl: string;
  statements: Statement[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
};

// The server's driver settings for these statements (Drizzle's prepared queries read through
// db/prepared.ts `withArrayRows`): array rows, timestamps/dates/intervals (and their arrays) left as
// PostgreSQL's text, every other type parsed by node-postgres' defaults. Same settings, so the ratio
// compares like with like.
const RAW_TEXT_TYPES = new Set([1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182]);
const types = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format),
};
pg.types.setTypeParser(20, (value: string) => Number(value));

// The server's settings for its hot reads (src/db/client.ts hotReads): JIT off, generic plans.
const pool = new pg.Pool({
  connectionString: options.databaseUrl,
  max: options.connections,
  options: '-c jit=off -c plan_cache_mode=force_generic_plan',
});

async function loop(until: number, latencies: number[] | undefined): Promise<number> {
  let done = 0;
  while (Date.now() < until) {
    const started = performance.now();
    // U1's statements at once, as the endpoint runs them (one now: the page carries the total).
    await Promise.all(
      options.statements.map((statement) =>
        pool.query({ name: statement.name, text: statement.text, values: statement.values, rowMode: 'array', types }),
      ),
    );
    latencies?.push(performance.now() - started);
    done += 1;
  }
  return done;
}

async function run(seconds: number, latencies?: number[]): Promise<number> {
  const until = Date.now() + seconds * 1000;
  const counts = await Promise.all(Array.from({ length: options.connections }, () => loop(until, latencies)));
  return counts.reduce((sum, count) => sum + count, 0);
}

if (options.warmupSeconds > 0) await run(options.warmupSeconds);
const latencies: number[] = [];
const cpuBefore = process.cpuUsage();
const started = performance.now();
const total = await run(options.durationSeconds, latencies);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const percentile = (share: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: total / seconds,
    p99Ms: percentile(0.99),
    p50Ms: percentile(0.5),
    errors: 0,
    non2xx: 0,
    total,
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / total,
  })}\n`,
);
await pool.end();
