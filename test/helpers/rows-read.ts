// How many rows of a table a read fetched, from PostgreSQL's own counters (pg_stat_xact_user_tables).
//
// Those "transaction" counters are not the transaction's alone: a backend flushes its pending counts
// to the shared statistics at most once a second, when idle, and until then the xact views go on
// showing what earlier transactions on the same connection read (PostgreSQL 15 and later, and
// PGlite). A count taken once, after the read, then held a factory's or another test's reads of a
// second before: 3,520 rows where the read fetched 20. So the counter is read before and after, in
// the same transaction (no flush happens inside one), and the difference is the read's own.
import { sql } from 'drizzle-orm';
import { type Db, type Executor, queryRows } from '../../src/db/client.js';

export type RowCounter = 'seq_tup_read + idx_tup_fetch' | 'idx_tup_fetch' | 'seq_scan';

/** The counter's current value for `table` on this connection: read it before and after, in one transaction. */
export async function tableReads(executor: Executor, table: string, counter: RowCounter = 'seq_tup_read + idx_tup_fetch'): Promise<number> {
  const [row] = await queryRows<{ n: string }>(
    executor,
    sql`SELECT coalesce(sum(${sql.raw(counter)}), 0) AS n FROM pg_stat_xact_user_tables WHERE relname = ${table}`,
  );
  return Number(row.n);
}

/** tableReads on a node-postgres client of the test's own (tests that call functions over a raw connection). */
export async function clientTableReads(
  client: { query<R>(text: string, values: unknown[]): Promise<{ rows: R[] }> },
  table: string,
  counter: RowCounter,
): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT coalesce(sum(${counter}), 0) AS n FROM pg_stat_xact_user_tables WHERE relname = $1`,
    [table],
  );
  return Number(rows[0].n);
}

/**
 * `read`'s result and the rows of `table` it fetched, in a transaction of its own rolled back after,
 * with generic plans forced as the hot-reads pool forces them (db/client.ts).
 */
export async function rowsReadBy<T>(db: Db, table: string, read: (tx: Executor) => Promise<T>): Promise<{ result: T; rows: number }> {
  let out: { result: T; rows: number } | undefined;
  await db
    .transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
      const before = await tableReads(tx, table);
      const result = await read(tx);
      out = { result, rows: (await tableReads(tx, table)) - before };
      throw new Error('rollback');
    })
    .catch((error: Error) => {
      if (error.message !== 'rollback') throw error;
    });
  if (!out) throw new Error('no result');
  return out;
}
