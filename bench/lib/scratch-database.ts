// A second database beside the run's, migrated, for a scenario that must own every row and every
// job of its database: no server's job loop claiming its jobs, no other scenario's data in its
// tables (the history scenario times the job claim itself). Dropped at the end, also on Ctrl-C.
import crypto from 'node:crypto';
import pg from 'pg';
import { type Database, openPostgres } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { runState } from './run-state.js';

export interface ScratchDatabase {
  url: string;
  database: Database;
  drop(): Promise<void>;
}

/** Runs `statement` on the run's own database (CREATE and DROP DATABASE cannot run in a pool's transaction). */
async function onRunDatabase(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: runState.databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  const name = `payroll_bench_${label}_${crypto.randomBytes(4).toString('hex')}`;
  await onRunDatabase(`CREATE DATABASE ${name}`);
  const parsed = new URL(runState.databaseUrl);
  parsed.pathname = `/${name}`;
  const url = parsed.toString();
  const database = await openPostgres(url, 4);
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await database.close().catch(() => {});
    await onRunDatabase(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  runState.cleanups.push(drop);
  await migrate(database);
  return { url, database, drop };
}
