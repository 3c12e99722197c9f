// Listen and graceful close only: everything else is built by app.ts.
import v8 from 'node:v8';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openConfiguredDatabase, prepareDatabase } from './runtime.js';
import { seedDemo } from './seed.js';

export async function startServer() {
  const config = loadConfig();
  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    opened = await openConfiguredDatabase(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await prepareDatabase(opened.database);
  const app = await buildApp({ config, database: opened.database });
  const demo = config.seedDemo ? await seedDemo(app) : undefined;
  await app.listen({ port: config.port, host: config.host });
  // Printed once the server listens, so the addresses it names answer by the time anyone reads them.
  if (demo) process.stdout.write(`${demo.banner}\n`);
  const metricsPort = await app.listenMetrics();
  if (metricsPort !== undefined) app.log.info({ port: metricsPort }, `metrics on http://127.0.0.1:${metricsPort}/metrics`);
  // The embedded database has one process (DATA_DIR lock): claims left behind are a dead process's.
  if (opened.database.kind === 'pglite') await app.deps.jobs.releaseAbandonedClaims();
  app.deps.jobs.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      console.error('shutdown took longer than 15 s: exiting anyway');
      process.exit(1);
    }, 15_000);
    force.unref();
    // close() closes the connections that are idle when it starts, but a keep-alive connection
    // whose request finishes later would stay open until its keep-alive timeout (72 s) and hold
    // the shutdown past the 15 s limit: close such connections as soon as they go idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    try {
      // close() stops accepting, waits for in-flight requests, then onClose stops the job loop.
      await app.close();
      await opened.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return app;
}

/**
 * V8 lets the old generation grow to up to 4x its live size before a full collection. A bulk import
 * promotes a few KB per row that die soon after, so RSS would climb ~100 MB above the live heap
 * (~60 MB). 1.5x keeps a 10,000-row import under ~210 MB at unchanged throughput (docs/benchmarks.md).
 * `node --heap-growing-percent=N scripts/start.mjs` overrides it.
 */
function boundHeapGrowth() {
  if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) v8.setFlagsFromString('--heap-growing-percent=50');
}

/** The process entry: `node <build>/server.js` runs it directly, `npm start` through scripts/start.mjs. */
export function main() {
  boundHeapGrowth();
  startServer().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) main();
