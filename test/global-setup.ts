// Once per run: the compiled server for the process tests, and on PostgreSQL (DATABASE_URL) one
// migrated template database; every test file clones it
// into a database of its own and drops it after, so runs and files never collide.
import crypto from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildDist } from '../scripts/build.mjs';
import { openPostgres } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  // The process tests start the compiled server, as `npm start` does.
  project.provide('serverBuild', await buildDist());
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const run = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const template = `payroll_tmpl_${run}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = await openPostgres(withDatabase(url, template), 2);
  await migrate(database);
  await database.close();
  project.provide('pgTemplate', template);
  project.provide('pgRun', run);
  return async () => {
    const leftovers = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`payroll_%${run}%`]);
    for (const row of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgRun: string;
    /** Directory of the compiled server (scripts/build.mjs) for the process tests. */
    serverBuild: string;
  }
}
