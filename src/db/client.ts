// The one place that knows whether we run on PGlite (embedded) or PostgreSQL. Everything above
// this file sees a Drizzle PgDatabase (`db.transaction` for a transaction).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type ConnectionErrorListener, guardPool } from './pool-guard.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/**
 * The raw-result shape both drivers share: pglite's `Results` and node-postgres' `QueryResult`
 * each carry `rows`. Typing the HKT this way lets `execute<T>()` return typed rows.
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}
type RowsResult<Row> = { rows: Row[] };
// biome-ignore lint/suspicious/noExplicitAny: the two drivers differ only in their result HKT.
export type Db = PgDatabase<RowsResultHKT, Schema, any>;
// biome-ignore lint/suspicious/noExplicitAny: see Db.
export type Tx = PgTransaction<RowsResultHKT, Schema, any>;
/** A repo method runs on the database or inside the caller's transaction. */
export type Executor = Db | Tx;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs a multi-statement SQL script (migrations). */
  execScript(text: string): Promise<void>;
  /**
   * Where the loss of a pooled connection is reported, idle or checked out (PostgreSQL restarted or
   * stopped, a backend terminated by an administrator), once per connection. The pool discards such
   * a connection and opens a new one on demand; the statement that was running on it fails (a 503,
   * docs/operations.md "Failures"). Without a listener the error event would end the process.
   */
  onConnectionError(listener: ConnectionErrorListener): void;
  close(): Promise<void>;
}

// PostgreSQL's numeric comes back as a string already; make int8 (count(*), bigserial) a JS number
// on both drivers so code does not depend on the driver.
pg.types.setTypeParser(20, (value: string) => Number(value));

/** How every PGlite of ours is opened (int8 as a JS number, as on PostgreSQL). */
export const PGLITE_OPTIONS = { parsers: { 20: (value: string) => Number(value) } };

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  return pgliteDatabase(await PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, PGLITE_OPTIONS));
}

/**
 * A Database over a PGlite opened with PGLITE_OPTIONS (the test helpers open theirs from a migrated
 * data-directory image; see docs/architecture.md "Tests").
 */
export function pgliteDatabase(client: PGlite): Database {
  const db: Db = drizzlePglite({ client, schema });
  return {
    kind: 'pglite',
    db,
    execScript: async (text) => {
      await client.exec(text);
    },
    onConnectionError: () => {},
    close: () => client.close(),
  };
}

/**
 * The executor for the hot prepared reads (U1's page, U2): on PostgreSQL a pool of its own whose
 * sessions always use a prepared statement's generic plan; elsewhere (PGlite, a transaction, a URL
 * with its own `options`) the executor itself. Why: U1's page ends in `LIMIT $n OFFSET $m`, for
 * which the generic plan has to assume 10% of the company's rows, so PostgreSQL's plan cache never
 * keeps it and plans the page again on every execution (~0.3 ms of planning for ~0.1 ms of
 * execution; docs/benchmarks.md). The generic plan is the company's index range either way. Only
 * statements prepared for this executor run there; every other statement keeps PostgreSQL's choice
 * between custom and generic plans.
 */
export function hotReads(executor: Executor): Executor {
  return HOT_READS.get(executor) ?? executor;
}
const HOT_READS = new WeakMap<Executor, Executor>();

/**
 * Whether the executor's statements run in a PostgreSQL server of their own, on another core than
 * this process (not the in-process PGlite). Work moved into such a statement leaves the server's
 * single thread; on PGlite it stays on it (and WASM PostgreSQL does it slower than V8), so a read
 * may choose where its output is written (U1's page: users.service.ts). A transaction answers false:
 * both ways give the same answer, the choice is only about speed.
 */
export function onDatabaseServer(executor: Executor): boolean {
  return ON_SERVER.has(executor);
}
const ON_SERVER = new WeakSet<Executor>();

/**
 * How long a statement waits for a pooled connection (a free one, or a new one to open) before it
 * fails with a 503: PostgreSQL unreachable without a refusal (a host down, a network cut) would
 * otherwise hold every request until the client gave up (docs/operations.md, "Failures").
 */
const CONNECT_TIMEOUT_MS = 10_000;

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  // JIT off unless the URL says otherwise: our statements are short OLTP queries, and a compile
  // triggered by a pessimistic estimate (a table not yet analyzed) costs 10-300 ms per statement.
  const ownOptions = /[?&]options=/.test(url);
  const jit = ownOptions ? {} : { options: '-c jit=off' };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...jit });
  let connectionErrorListener: ConnectionErrorListener = () => {};
  guardPool(pool, () => connectionErrorListener);
  await pool.query('SELECT 1');
  const db: Db = drizzleNodePg({ client: pool, schema });
  // Connections open on demand; a startup option, so nothing leaks into the main pool's sessions
  // (behind PgBouncer: see docs/operations.md). As large as the main pool: with half as many, list
  // requests waited for a connection while the server's thread was idle (docs/operations.md).
  const hotPool = ownOptions
    ? undefined
    : new pg.Pool({
        connectionString: url,
        max: poolSize,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        // No parallel workers: a generic plan of a page whose LIMIT is a parameter assumes thousands
        // of rows and may gather from workers, whose start-up alone took ~5 ms for the audit log's
        // page after a cursor at 1,000,000 events, where the serial plan takes 0.1 (docs/operations.md).
        options: '-c jit=off -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0',
      });
  if (hotPool) guardPool(hotPool, () => connectionErrorListener);
  const hot = hotPool ? drizzleNodePg({ client: hotPool, schema }) : undefined;
  if (hot) HOT_READS.set(db, hot);
  ON_SERVER.add(db);
  if (hot) ON_SERVER.add(hot);
  return {
    kind: 'postgres',
    db,
    execScript: async (text) => {
      await pool.query(text);
    },
    onConnectionError: (listener) => {
      connectionErrorListener = listener;
    },
    close: async () => {
      await Promise.all([endPool(pool), hotPool ? endPool(hotPool) : undefined]);
    },
  };
}

/**
 * `pool.end()` resolves once every client has been asked to end, before their connections have
 * closed; a caller that then drops the database (tests) or exits would cut them mid-goodbye. Wait
 * for every connection to be gone.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let removed = 0;
  let timer: NodeJS.Timeout | undefined;
  const allRemoved = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      removed += 1;
      if (removed >= open) resolve();
    });
    // A client whose connect failed leaves without a 'remove' event: never wait for it forever.
    timer = setTimeout(resolve, 2_000);
  });
  await pool.end();
  await allRemoved;
  clearTimeout(timer);
}

/**
 * Raw rows of a SQL query; both drivers return `{ rows }`. The row type is the caller's word for
 * what its SELECT list returns: this is the one place raw SQL meets the type system.
 */
export async function queryRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = await executor.execute(query);
  return result.rows as T[];
}

export { sql };
