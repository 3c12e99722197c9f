// Append-only SQL migrations, applied in file-name order, each once, inside one transaction.
// On PostgreSQL an advisory lock makes concurrent starts of several instances safe.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './client.js';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MIGRATION_LOCK = 727_401;

export function migrationFiles(): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort();
}

/**
 * `through` (a migration number, e.g. '0081') stops after that migration: tests build a database as
 * it was before a later migration, fill it, then migrate to the head and compare.
 */
export async function migrate(database: Database, options: { through?: string } = {}): Promise<string[]> {
  const applied: string[] = [];
  await database.db.transaction(async (tx) => {
    if (database.kind === 'postgres') await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    // Under the lock: CREATE TABLE IF NOT EXISTS is not safe against itself (two instances starting
    // on an empty database both create the type and one fails on pg_type's unique index).
    await tx.execute(
      sql.raw('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())'),
    );
    const done = new Set((await queryRows<{ name: string }>(tx, sql`SELECT name FROM schema_migrations`)).map((row) => row.name));
    for (const name of migrationFiles()) {
      if (done.has(name)) continue;
      if (options.through !== undefined && name.slice(0, 4) > options.through) break;
      const text = fs.readFileSync(path.join(migrationsDir, name), 'utf8');
      // Statements are split on lines ending with ';' so that one transaction covers them on both drivers.
      for (const statement of splitStatements(text)) await tx.execute(sql.raw(statement));
      await tx.execute(sql`INSERT INTO schema_migrations (name) VALUES (${name})`);
      applied.push(name);
    }
  });
  // PGlite has no autovacuum: give the planner statistics after schema changes.
  if (database.kind === 'pglite' && applied.length > 0) await database.execScript('ANALYZE');
  return applied;
}

export function splitStatements(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
