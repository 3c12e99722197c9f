// A pooled PostgreSQL connection can die while idle or while checked out by a transaction (a
// restart, pg_terminate_backend, a dropped test database). The pool must report it to our listener,
// discard it, open a new one on the next query, and never raise an unhandled 'error' event, which
// would crash the server; the request whose transaction lost its connection gets a 503
// (docs/operations.md, "Failures").
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPostgres, queryRows, sql } from '../../src/db/client.js';
import { databaseUnavailable } from '../../src/platform/db-errors.js';
import { createTestApp } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { newUserBody } from '../helpers/users.js';

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
    database.onConnectionError((error) => lost.push(error));
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

/** Runs `query` on a connection of its own to the test database (or the one at `url`). */
async function asAdmin<T extends pg.QueryResultRow>(text: string, values: unknown[] = [], url = testDb.url): Promise<T[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return (await admin.query<T>(text, values)).rows;
  } finally {
    await admin.end();
  }
}

/** Polls until a backend of the test database matches `where` (a pg_stat_activity condition); answers its pid. */
async function backendWhere(where: string, url = testDb.url): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const rows = await asAdmin<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
      [],
      url,
    );
    if (rows.length > 0) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no backend where ${where}`);
}

const terminate = (pid: number) => asAdmin('SELECT pg_terminate_backend($1)', [pid]);

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL connections lost while checked out by a transaction', () => {
  it('a statement running in a transaction: the transaction fails as unavailable, no unhandled error, the pool recovers', async () => {
    const database = await openPostgres(testDb.url as string, 2);
    const lost: boolean[] = [];
    database.onConnectionError((_error, inUse) => lost.push(inUse));
    try {
      const running = database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_sleep(30) AS checked_out_sleep`);
      });
      const failed = running.then(
        () => undefined,
        (error: unknown) => error,
      );
      await terminate(await backendWhere(`query LIKE '%checked_out_sleep%' AND xact_start IS NOT NULL`));
      expect(databaseUnavailable(await failed)).toBe(true);
      await expect.poll(() => lost, { timeout: 5_000 }).toEqual([true]);
      const [row] = await database.db.transaction((tx) => queryRows<{ one: number }>(tx, sql`SELECT 1 AS one`));
      expect(row.one).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('idle inside a transaction: the next statement fails as unavailable, no unhandled error, the pool recovers', async () => {
    const database = await openPostgres(testDb.url as string, 2);
    const lost: boolean[] = [];
    database.onConnectionError((_error, inUse) => lost.push(inUse));
    try {
      const failed = await database.db
        .transaction(async (tx) => {
          const [{ pid }] = await queryRows<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`);
          await terminate(pid);
          // The goodbye arrives while no statement runs on the connection: the client's error event.
          for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
          await tx.execute(sql`SELECT 1`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(databaseUnavailable(failed)).toBe(true);
      expect(lost).toEqual([true]);
      const [row] = await database.db.transaction((tx) => queryRows<{ one: number }>(tx, sql`SELECT 1 AS one`));
      expect(row.one).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('a connection that died idle in the pool and is handed to a transaction before its goodbye is read: the pool keeps its size', async () => {
    // One connection: a transaction that never gave it back would leave the pool with none.
    const database = await openPostgres(testDb.url as string, 1);
    try {
      const [{ pid }] = await queryRows<{ pid: number }>(database.db, sql`SELECT pg_backend_pid() AS pid`);
      // Terminate the backend and wait for it to be gone without letting this process read its
      // socket (a blocking child process), then start a transaction in the same turn: BEGIN goes
      // out on the dead connection.
      execFileSync(
        process.execPath,
        [
          '-e',
          `const pg = require('pg'); (async () => { const c = new pg.Client({ connectionString: process.argv[1] }); await c.connect();
           await c.query('SELECT pg_terminate_backend($1)', [Number(process.argv[2])]);
           for (let i = 0; i < 200; i++) { const r = await c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [Number(process.argv[2])]);
           if (r.rowCount === 0) break; await new Promise((s) => setTimeout(s, 25)); } await c.end(); })();`,
          testDb.url as string,
          String(pid),
        ],
        { cwd: process.cwd(), timeout: 30_000 },
      );
      const failed = await database.db
        .transaction((tx) => tx.execute(sql`SELECT 1`))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(databaseUnavailable(failed), String(failed)).toBe(true);
      const [row] = await database.db.transaction((tx) => queryRows<{ one: number }>(tx, sql`SELECT 1 AS one`));
      expect(row.one).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('through HTTP: the request whose transaction lost its connection gets 503 with Retry-After, its Idempotency-Key is released, the next request succeeds', async () => {
    const ctx = await createTestApp();
    try {
      const company = await createCompany(ctx.db);
      const api = as(ctx.app, company);
      const body = newUserBody(company);
      const headers = { 'idempotency-key': 'lost-connection-1' };
      // Hold inserts into users, so that the request's transaction waits inside its INSERT.
      const admin = new pg.Client({ connectionString: ctx.testDb.url });
      await admin.connect();
      try {
        await admin.query('BEGIN');
        await admin.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
        const pending = api.post('/api/users', body, { headers });
        const pid = await backendWhere(`wait_event_type = 'Lock' AND xact_start IS NOT NULL`, ctx.testDb.url);
        await terminate(pid);
        const res = await pending;
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json()).toEqual({ error: 'The database is unavailable; try again.' });
        expect(res.headers['retry-after']).toBe('5');
      } finally {
        await admin.query('ROLLBACK');
        await admin.end();
      }
      const again = await api.post('/api/users', body, { headers });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      const [{ n }] = await queryRows<{ n: number }>(
        ctx.db,
        sql`SELECT count(*)::int AS n FROM users WHERE personal_email = ${String(body.personal_email)}`,
      );
      expect(n).toBe(1);
    } finally {
      await ctx.close();
    }
  });
});
