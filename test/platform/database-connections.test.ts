// A pooled PostgreSQL connection can die while idle (a restart, pg_terminate_backend, a dropped
// test database). The pool must report it to our listener, replace the connection on the next
// query, and never raise an unhandled 'error' event, which would crash the server.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres, queryRows, sql } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(() => testDb.close());

/** Opens `count` pooled connections at once (each query holds one for 50 ms); returns their backend pids. */
async function openConnections(database: Database, count: number): Promise<number[]> {
  const rows = await Promise.all(
    Array.from({ length: count }, () => queryRows<{ pid: number }>(database.db, sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`)),
  );
  return rows.map(([row]) => row.pid);
}

describe.skipIf(!process.env.DATABASE_URL)('pooled PostgreSQL connections', () => {
  it('survives idle connections being terminated and reconnects on the next query', async () => {
    const database = await openPostgres(testDb.url as string, 3);
    const lost: Error[] = [];
    database.onIdleConnectionError((error) => lost.push(error));
    try {
      // Three connections in the pool, all idle afterwards.
      const pids = await openConnections(database, 3);
      const admin = new pg.Client({ connectionString: testDb.url });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [[...new Set(pids)]]);
      await admin.end();
      await expect.poll(() => lost.length, { timeout: 5_000 }).toBe(new Set(pids).size);
      expect(lost.every((error) => (error as Error & { code?: string }).code === '57P01')).toBe(true);

      const [row] = await queryRows<{ one: number }>(database.db, sql`SELECT 1 AS one`);
      expect(row.one).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('close() returns only after every connection has gone', async () => {
    const database = await openPostgres(testDb.url as string, 4);
    const pids = await openConnections(database, 4);
    await database.close();
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids]);
    await admin.end();
    expect(rows[0].n).toBe(0);
  });
});
