import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPostgres, PGLITE_OPTIONS, pgliteDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { lend, takeIdle } from './pglite-reuse.js';

export interface TestDatabase {
  database: Database;
  /** Connection string of this file's PostgreSQL database (undefined on PGlite). */
  url?: string;
  close(): Promise<void>;
}

/**
 * What PGlite reads a `Blob` option through, `arrayBuffer()`, answered from bytes already in memory.
 * Node's `Blob.arrayBuffer()` reads a blob through its stream, a chunk at a time, and joins the
 * chunks: for the ~27 MB image and the 6 MB file-system bundle that was ~50-100 ms of an open's
 * ~300-500 ms (most of it system time), measured 28 November. Each call answers a copy (a plain
 * memcpy), so no two databases ever share the bytes PGlite's file system may take over. PGlite reads
 * only `arrayBuffer()` and `type` of both options (its `loadTar` and `fsBundle` handling, 0.5).
 */
function inMemoryBlob(bytes: Uint8Array, type = ''): Blob {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { type, arrayBuffer: async () => buffer.slice(0) } as unknown as Blob;
}

/**
 * PGlite's WebAssembly compiled, and its file-system bundle read, once per test worker instead of
 * once per database (30-50 ms of the 250-300 ms of opening one, measured 28 November).
 */
let runtime: { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob } | undefined;
async function pgliteRuntime() {
  if (!runtime) {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    runtime = {
      pgliteWasmModule: await WebAssembly.compile(fs.readFileSync(path.join(dist, 'pglite.wasm'))),
      fsBundle: inMemoryBlob(fs.readFileSync(path.join(dist, 'pglite.data'))),
    };
  }
  return runtime;
}

/** The run's PGlite image (test/global-setup.ts), read once per test worker. */
const images = new Map<string, Blob>();
function pgliteImage(kind: 'empty' | 'migrated'): Blob {
  const file = inject('pgliteImages')[kind];
  let image = images.get(file);
  if (!image) {
    image = inMemoryBlob(fs.readFileSync(file), 'application/x-tar');
    images.set(file, image);
  }
  return image;
}

/**
 * Puts a migrated embedded database into `dataDir` (as `openPglite(dataDir)` lays it out), as a
 * server that started there once and stopped would leave it: for process tests about something
 * other than the first start, which then skip initdb in the server (seconds of CPU per start).
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  const client = await PGlite.create(path.join(dataDir, 'pgdata'), {
    ...PGLITE_OPTIONS,
    ...(await pgliteRuntime()),
    loadDataDir: pgliteImage('migrated'),
  });
  // The image's connection limit is for in-memory test databases (test/global-setup.ts): a server
  // starts with the one initdb wrote, as a real data directory has. Its 16 MB of shared buffers stay:
  // PGlite allocates and clears the pool at every start, and initdb's 128 MB cost each start of a
  // test's server ~0.4 s of CPU for small databases (the users crash test's 10,000-row import the
  // largest); the process tests
  // started on such a directory took ~11% less CPU (docs/architecture.md, "Test servers' buffer
  // pool"). The servers started on an empty DATA_DIR (the first-run, start-up and CLI tests) run
  // initdb's sizes.
  await client.exec('ALTER SYSTEM RESET max_connections');
  await client.close();
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A fresh, migrated database: in-memory PGlite opened from the run's image, or a clone of the run's
 * template on PostgreSQL.
 * `migrateThrough` (a migration number): migrated only that far (an empty database, migrated here),
 * so a test can fill it as it was before a later migration and then call migrate() to the head.
 */
export async function createTestDatabase(options: { migrateThrough?: string } = {}): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  const through = options.migrateThrough;
  if (!url) {
    // Opened from the run's image (test/global-setup.ts): the same database initdb and migrate()
    // would make, without their seconds of CPU. A migrated one is emptied and lent again to the
    // worker's next file when this one closes it (pglite-reuse.ts).
    const open = async (kind: 'empty' | 'migrated') =>
      PGlite.create({ ...PGLITE_OPTIONS, ...(await pgliteRuntime()), loadDataDir: pgliteImage(kind) });
    if (through === undefined) return lend(takeIdle() ?? (await open('migrated')));
    const database = pgliteDatabase(await open('empty'));
    await migrate(database, { through });
    return { database, close: () => database.close() };
  }
  const name = `payroll_t_${inject('pgRun')}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(through === undefined ? `CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const fileUrl = withDatabase(url, name);
  const database = await openPostgres(fileUrl);
  if (through !== undefined) await migrate(database, { through });
  return {
    database,
    url: fileUrl,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
