// One autocannon run in a process of its own (spawned by bench/run.ts per load() call), so the load
// generator never shares an event loop with the runner or the server. Options arrive as JSON in
// BENCH_LOAD_OPTIONS (not argv: they carry a bearer token); the result is one JSON line on stdout.
import fs from 'node:fs';
import autocannon, { type Request } from 'autocannon';

interface WorkerOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  idReplacement?: boolean;
  /** A JSON list of API tokens; each request goes as one of them, picked at random (bench/lib/load.ts). */
  tokensFile?: string;
}

const options = JSON.parse(process.env.BENCH_LOAD_OPTIONS ?? '{}') as WorkerOptions;
const tokens = options.tokensFile ? (JSON.parse(fs.readFileSync(options.tokensFile, 'utf8')) as string[]) : undefined;

/**
 * A random token per request, not the list in order: every connection walks its own copy of the
 * request list from the start, so an ordered list would send the same company on all connections
 * at once and let the server's 1 s token cache answer most of them.
 */
const randomCompany: Request[] | undefined = tokens && [
  {
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${tokens[Math.floor(Math.random() * tokens.length)]}` },
    }),
  },
];

function run(durationSeconds: number) {
  return autocannon({
    url: options.url,
    method: options.method,
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    duration: durationSeconds,
    // autocannon ends a run at its next sample (every second by default): a run shorter than a
    // second (CI's smoke) samples as often as it lasts. Rates are total / duration either way.
    sampleInt: Math.min(1000, durationSeconds * 1000),
    timeout: 10,
    idReplacement: options.idReplacement,
    requests: randomCompany,
  });
}

// A short warm-up first: the server's JIT and the database's caches settle before we measure.
if (options.warmupSeconds > 0) await run(options.warmupSeconds);
// Tells the parent when measuring starts, so that it samples the server's CPU time over this run only.
process.stdout.write('MEASURING\n');
const cpuAtStart = process.cpuUsage();
const result = await run(options.durationSeconds);
const cpu = process.cpuUsage(cpuAtStart);
const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, Number(stats.count)]));
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.total / result.duration,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
    statusCodes: codes,
    // This process's own CPU over the measured run (autocannon shares the machine with the server).
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  })}\n`,
);
