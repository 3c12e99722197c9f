// Migrations are hand-written SQL (docs/decisions.md); this test keeps them and the Drizzle schema
// in step: every table, column (name, nullability, type family) and named index of the schema must
// exist in the migrated database, and the database must have no table or column the schema lacks.
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client.js';
import { migrate, migrationFiles, splitStatements } from '../../src/db/migrate.js';
import * as schema from '../../src/db/schema/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.close());

const tables = (Object.values(schema) as unknown[]).filter((value) => is(value, PgTable)).map((table) => getTableConfig(table as PgTable));

/** Drizzle's SQL type as information_schema names it (the families that matter for drift). */
function normalizeType(type: string): string {
  const t = type.toLowerCase();
  if (t === 'serial' || t === 'integer') return 'integer';
  if (t === 'bigserial' || t === 'bigint') return 'bigint';
  if (t.startsWith('numeric')) return 'numeric';
  if (t.startsWith('timestamp')) return t.includes('with time zone') ? 'timestamp with time zone' : 'timestamp without time zone';
  if (t.endsWith('[]')) return 'ARRAY';
  if (t.startsWith('varchar') || t.startsWith('character varying')) return 'character varying';
  if (t === 'jsonb' || t === 'json' || t === 'text' || t === 'boolean' || t === 'date' || t === 'uuid') return t;
  return t;
}

describe('schema drift', () => {
  it('finds every schema table, column and index in the migrated database', async () => {
    const db = testDb.database.db;
    const columns = await queryRows<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>(
      db,
      sql`SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const indexes = new Set(
      (await queryRows<{ indexname: string }>(db, sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`)).map(
        (row) => row.indexname,
      ),
    );
    const byTable = new Map<string, Map<string, { nullable: boolean; type: string }>>();
    for (const column of columns) {
      if (!byTable.has(column.table_name)) byTable.set(column.table_name, new Map());
      byTable.get(column.table_name)?.set(column.column_name, { nullable: column.is_nullable === 'YES', type: column.data_type });
    }

    const problems: string[] = [];
    expect(tables.length).toBeGreaterThan(10);
    for (const table of tables) {
      const actual = byTable.get(table.name);
      if (!actual) {
        problems.push(`table ${table.name} is in the schema but not in the migrations`);
        continue;
      }
      for (const column of table.columns) {
        const found = actual.get(column.name);
        if (!found) {
          problems.push(`column ${table.name}.${column.name} is in the schema but not in the migrations`);
          continue;
        }
        if (found.nullable === column.notNull) {
          problems.push(
            `column ${table.name}.${column.name}: schema says ${column.notNull ? 'NOT NULL' : 'nullable'}, database says ${found.nullable ? 'nullable' : 'NOT NULL'}`,
          );
        }
        const expected = normalizeType(column.getSQLType());
        if (expected !== found.type)
          problems.push(`column ${table.name}.${column.name}: schema type ${column.getSQLType()}, database type ${found.type}`);
      }
      const schemaColumns = new Set(table.columns.map((column) => column.name));
      for (const name of actual.keys()) {
        if (!schemaColumns.has(name)) problems.push(`column ${table.name}.${name} is in the migrations but not in the schema`);
      }
      for (const index of table.indexes) {
        const name = index.config.name;
        if (name && !indexes.has(name)) problems.push(`index ${name} on ${table.name} is in the schema but not in the migrations`);
      }
    }
    const schemaTables = new Set(tables.map((table) => table.name));
    for (const name of byTable.keys()) {
      if (name !== 'schema_migrations' && !schemaTables.has(name))
        problems.push(`table ${name} is in the migrations but not in the schema`);
    }
    expect(problems).toEqual([]);
  });

  it('applies migrations once: a second run changes nothing', async () => {
    expect(await migrate(testDb.database)).toEqual([]);
    const applied = await queryRows<{ name: string }>(testDb.database.db, sql`SELECT name FROM schema_migrations ORDER BY name`);
    expect(applied.map((row) => row.name)).toEqual(migrationFiles());
  });

  it('splits migration files only at statement ends', () => {
    expect(splitStatements('-- comment\nCREATE TABLE a (x int);\nCREATE INDEX b ON a (x);\n')).toEqual([
      'CREATE TABLE a (x int)',
      'CREATE INDEX b ON a (x)',
    ]);
    expect(splitStatements("INSERT INTO a VALUES ('x;y');\n")).toEqual(["INSERT INTO a VALUES ('x;y')"]);
  });
});
