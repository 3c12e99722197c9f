// Once per run: the compiled server for the process tests, and one migrated template database.
// On PostgreSQL (DATABASE_URL) every test file clones the template into a database of its own and
// drops it after, so runs and files never collide. On PGlite the template is a data-directory image
// (a tar file): every test database opens from it, which skips initdb (seconds of CPU per database)
// and the migrations; the process tests' servers, on PGlite in both passes, start from it too. The
// images outlive the run, under a key of what they are made from (pgliteImages).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildDist } from '../scripts/build.mjs';
import { openPostgres, PGLITE_OPTIONS, pgliteDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * Two PGlite images: `empty` (just initdb, for tests that migrate only so far) and `migrated` (every
 * migration applied and ANALYZEd, as migrate() leaves a new database), made once and kept (below).
 *
 * Slimmed, because every test database unpacks one (a few hundred of them per run): without the
 * template databases (the service uses only `postgres` and never runs CREATE DATABASE on PGlite),
 * and with 16 MB of shared buffers for a test's small tables. 40 MB and ~1,000 files become 25 MB
 * and ~400: with the memory setting, about half of the CPU of opening a test database
 * (docs/architecture.md, "Tests"). 1 MB WAL segments were tried too: no faster in memory, and the
 * process tests' servers on disk ran their crash tests 1.5-2x slower (a file per MB of WAL).
 */
async function pgliteImages(): Promise<{ empty: string; migrated: string }> {
  const key = imagesKey();
  const kept = path.join(IMAGES_CACHE, key);
  const empty = path.join(kept, 'empty.tar');
  const migrated = path.join(kept, 'migrated.tar');
  if (fs.existsSync(migrated)) return { empty, migrated };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-pglite-'));
  try {
    await makeImages(path.join(dir, 'empty.tar'), path.join(dir, 'migrated.tar'));
    fs.mkdirSync(IMAGES_CACHE, { recursive: true });
    // Into place whole, by one rename (a run that made the same images first wins; its are the same).
    try {
      fs.renameSync(dir, kept);
    } catch (error) {
      if (!fs.existsSync(migrated)) throw error;
    }
    for (const other of fs.readdirSync(IMAGES_CACHE))
      if (other !== key) fs.rmSync(path.join(IMAGES_CACHE, other), { recursive: true, force: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { empty, migrated };
}

/**
 * Images are kept between runs (CI's second pass, a developer's next run) in node_modules/.cache,
 * by a key of everything they are made from: the migrations, the code that applies them, this
 * file, and PGlite's version. Only the current key's are kept; `npm ci` starts without any.
 */
const IMAGES_CACHE = path.join(ROOT, 'node_modules/.cache/payroll-pglite-images');
function imagesKey(): string {
  const hash = crypto.createHash('sha256');
  const migrations = path.join(ROOT, 'src/db/migrations');
  for (const name of fs.readdirSync(migrations).sort()) hash.update(name).update(fs.readFileSync(path.join(migrations, name)));
  for (const file of ['src/db/migrate.ts', 'src/db/client.ts', 'test/global-setup.ts', 'node_modules/@electric-sql/pglite/package.json']) {
    hash.update(file).update(fs.readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex').slice(0, 24);
}

async function makeImages(empty: string, migrated: string): Promise<void> {
  const client = await PGlite.create(PGLITE_OPTIONS);
  await client.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
  await client.exec('DROP DATABASE template0');
  await client.exec('DROP DATABASE template1');
  // Memory only: PGlite allocates and clears shared_buffers at every start (initdb writes 128 MB).
  await client.exec(`ALTER SYSTEM SET shared_buffers = '16MB'`);
  await client.exec('ALTER SYSTEM SET max_connections = 5');
  await client.exec('CHECKPOINT');
  // Uncompressed: opening an image is then a plain copy.
  fs.writeFileSync(empty, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  const database = pgliteDatabase(client);
  await migrate(database);
  await client.exec('CHECKPOINT');
  fs.writeFileSync(migrated, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await database.close();
}

interface Prepared {
  provided: Partial<ProvidedContext>;
  teardown(): Promise<void>;
}

/** The PostgreSQL pass's template database, made and migrated on `admin`'s server (left connected for the teardown). */
async function migratedTemplate(admin: pg.Client, url: string, template: string): Promise<void> {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = await openPostgres(withDatabase(url, template), 2);
  await migrate(database);
  await database.close();
}

async function prepare(): Promise<Prepared> {
  const url = process.env.DATABASE_URL;
  // The process tests start the compiled server, as `npm start` does. Built while the database
  // images are made (esbuild works in a process of its own), and on PostgreSQL while the template is
  // migrated (in the database's process). The images are made on PostgreSQL too: servers of the
  // process tests run on PGlite in either pass (migratedDataDir()).
  const run = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const template = `payroll_tmpl_${run}`;
  const admin = url ? new pg.Client({ connectionString: url }) : undefined;
  const [serverBuild, pgliteFiles] = await Promise.all([
    buildDist(),
    pgliteImages(),
    url && admin && migratedTemplate(admin, url, template),
  ]);
  if (!url || !admin) return { provided: { serverBuild, pgliteImages: pgliteFiles }, teardown: async () => {} };
  return {
    provided: { serverBuild, pgliteImages: pgliteFiles, pgTemplate: template, pgRun: run },
    async teardown() {
      const leftovers = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`payroll_%${run}%`]);
      for (const row of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    },
  };
}

// vitest calls this once per project (vitest.config.ts has two, which share this setup): the work
// is done by the first call, and undone by the last teardown.
const run = globalThis as typeof globalThis & { payrollTestRun?: { users: number; prepared: Promise<Prepared> } };

export default async function setup(project: TestProject) {
  run.payrollTestRun ??= { users: 0, prepared: prepare() };
  const shared = run.payrollTestRun;
  shared.users += 1;
  const prepared = await shared.prepared;
  for (const [key, value] of Object.entries(prepared.provided))
    if (value !== undefined) project.provide(key as keyof ProvidedContext, value as never);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    run.payrollTestRun = undefined;
    await prepared.teardown();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgRun: string;
    /** Directory of the compiled server (scripts/build.mjs) for the process tests. */
    serverBuild: string;
    /** PGlite data-directory images (tar files) of this run: see pgliteImages(). */
    pgliteImages: { empty: string; migrated: string };
  }
}
