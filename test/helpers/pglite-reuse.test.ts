// A test database lent again after a file closed it (pglite-reuse.ts) is one a test cannot tell from
// a freshly opened database: rows, sequences, the planner's statistics, settings and catalog.
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { createTestDatabase } from './database.js';
import { describeEmbedded } from './embedded-only.js';
import { createCompany, createStaff } from './factories.js';
import { lend, reusedDatabases, takeIdle } from './pglite-reuse.js';

/** What a later file could observe of a database, as text to compare. */
async function stateOf(database: Database): Promise<Record<string, unknown>> {
  const read = async (text: string) => (await database.db.execute(sql.raw(text))).rows;
  return {
    rows: await read(`SELECT c.oid::regclass::text AS t,
        (xpath('/row/d/text()', query_to_xml(format('SELECT md5(coalesce(string_agg(x::text, '','' ORDER BY x::text), '''')) AS d FROM %s x', c.oid::regclass), false, true, '')))[1]::text AS digest
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' ORDER BY 1`),
    sequences: await read(`SELECT sequencename, last_value FROM pg_sequences ORDER BY 1`),
    relations: await read(`SELECT c.oid::regclass::text AS r, relpages, reltuples, relallvisible FROM pg_class c
      WHERE c.relnamespace IN ('public'::regnamespace, 'pg_toast'::regnamespace) ORDER BY 1`),
    statistics: await read(`SELECT starelid::regclass::text AS r, staattnum, stanullfrac, stadistinct FROM pg_statistic
      WHERE starelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace) ORDER BY 1, 2`),
    // Less PL/pgSQL's own settings, which appear once a backend has run a PL/pgSQL function (a
    // trigger of the file before): loading the library is all they say.
    settings: await read(`SELECT name, setting FROM pg_settings WHERE name NOT LIKE 'plpgsql.%' ORDER BY 1`),
    session: await read(`SELECT (SELECT count(*) FROM pg_prepared_statements) AS prepared,
      (SELECT count(*) FROM pg_listening_channels()) AS listening,
      (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory') AS advisory,
      to_regclass('pg_temp.scratch') IS NULL AS no_temp_table`),
  };
}

describeEmbedded('a test database lent again', () => {
  it('is emptied to the state of a freshly opened one, and the old handle no longer works', async () => {
    const first = await createTestDatabase();
    const { db } = first.database;
    const company = await createCompany(db, { name: 'Used Ltd' });
    await createStaff(db, company.id, 50);
    for (const statement of [
      'UPDATE audit_seal_state SET sealed_xid = sealed_xid',
      'ANALYZE',
      "SET work_mem = '64MB'",
      'PREPARE probe AS SELECT 1',
      'CREATE TEMP TABLE scratch (x int)',
      'LISTEN probe_channel',
      'SELECT pg_advisory_lock(42)',
    ])
      await db.execute(sql.raw(statement));
    const before = reusedDatabases();
    await first.close();

    const again = await createTestDatabase();
    expect(reusedDatabases()).toBe(before + 1);
    const fresh = await createTestDatabase();
    expect(reusedDatabases()).toBe(before + 1);
    expect(await stateOf(again.database)).toEqual(await stateOf(fresh.database));
    // Ids start again as on a fresh database.
    expect((await createCompany(again.database.db)).id).toBe((await createCompany(fresh.database.db)).id);
    const stale = await db.execute(sql`SELECT 1`).catch((error: Error) => error);
    expect(stale instanceof Error && (stale.cause as Error | undefined)?.message).toBe('This test database was closed.');
    await fresh.close();
    await again.close();
  });

  /** Two opened databases of this worker as raw PGlite clients, none left idle. */
  async function twoClients(): Promise<[PGlite, PGlite]> {
    await takeIdle()?.close();
    const [a, b] = [await createTestDatabase(), await createTestDatabase()];
    await a.close();
    const first = takeIdle() as PGlite;
    await b.close();
    return [first, takeIdle() as PGlite];
  }

  it('keeps one idle database when two files close at once, and closes the other', async () => {
    const [a, b] = await twoClients();
    const lent = [await lend(a), await lend(b)];
    await Promise.all(lent.map((database) => database.close()));
    const kept = takeIdle();
    expect([a, b]).toContain(kept);
    expect([a, b].filter((client) => client !== kept).map((client) => client.closed)).toEqual([true]);
    await kept?.close();
  });

  it('gives up a database whose reset waits past its bound (a transaction left open), without waiting for it', async () => {
    const [held, spare] = await twoClients();
    await spare.close();
    const database = await lend(held, { resetTimeoutMs: 200 });
    let release = () => {};
    const open = held.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    const started = Date.now();
    await database.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(takeIdle()).toBeUndefined();
    expect(held.closed).toBe(false);
    release();
    await open;
    await held.close();
  });

  it.each([
    ['an index', 'CREATE INDEX probe_idx ON companies (name)', "SELECT to_regclass('probe_idx') IS NULL AS gone"],
    [
      'a default',
      "ALTER TABLE companies ALTER COLUMN name SET DEFAULT 'x'",
      `SELECT NOT EXISTS (SELECT FROM pg_attrdef d JOIN pg_attribute a
      ON a.attrelid = d.adrelid AND a.attnum = d.adnum WHERE d.adrelid = 'companies'::regclass AND a.attname = 'name') AS gone`,
    ],
    [
      'a trigger switched off',
      'ALTER TABLE audit_events DISABLE TRIGGER USER',
      `SELECT bool_and(tgenabled = 'O') AS gone FROM pg_trigger
      WHERE tgrelid = 'audit_events'::regclass AND NOT tgisinternal`,
    ],
    [
      'a function',
      'CREATE FUNCTION probe_fn() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$',
      "SELECT to_regproc('probe_fn') IS NULL AS gone",
    ],
    ['a setting of the database', "ALTER DATABASE postgres SET work_mem = '8MB'", "SELECT current_setting('work_mem') <> '8MB' AS gone"],
  ])('is not lent again once a file changed its catalog: %s', async (_change, statement, undone) => {
    const first = await createTestDatabase();
    await first.database.db.execute(sql.raw(statement));
    await first.close();
    const before = reusedDatabases();
    const next = await createTestDatabase();
    expect(reusedDatabases()).toBe(before);
    expect((await next.database.db.execute(sql.raw(undone))).rows[0]).toEqual({ gone: true });
    await next.close();
  });
});
