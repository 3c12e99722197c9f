// Named prepared statements for the hot reads. Drizzle builds a query's SQL text from its object
// tree on every call (about a third of the CPU of GET /api/users before the read-path work); a
// prepared query is built once, and on PostgreSQL its name makes node-postgres parse it once per
// pooled connection and PostgreSQL plan it once (generic plan after five executions) instead of on
// every request. On PGlite the name is ignored and the prepared query runs as an ordinary
// parameterized query. Behind PgBouncer in transaction mode, named statements need PgBouncer >=
// 1.21 with max_prepared_statements set (docs/operations.md).
import type { Query, SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

/**
 * `build` prepares the statement on one executor (the database, or a transaction, which gets its
 * own); the result is kept per executor for as long as the executor lives.
 */
export function preparedPerExecutor<P>(build: (executor: Executor) => P): (executor: Executor) => P {
  const cache = new WeakMap<Executor, P>();
  return (executor) => {
    let prepared = cache.get(executor);
    if (prepared === undefined) {
      prepared = build(executor);
      cache.set(executor, prepared);
    }
    return prepared;
  };
}

/**
 * Makes a prepared Drizzle select answer the driver's rows as they arrive: one array per row, in
 * the selection's order, with Drizzle's own driver settings (timestamps and dates as PostgreSQL's
 * text, everything else parsed by the driver) but without Drizzle's mapping into nested objects
 * (`mapResultRow`: an `is()` check and a decoder call per field). For the hot reads, whose caller
 * builds its answer straight from the row. Both drivers' prepared queries (node-postgres and
 * PGlite) run their rows through `customResultMapper` when one is set; an upgrade that drops it
 * fails here, at the first preparation, not with wrong answers.
 */
export function withArrayRows<P extends object>(
  prepared: P,
): Omit<P, 'execute'> & {
  execute(values?: Record<string, unknown>): Promise<unknown[][]>;
} {
  if (!('customResultMapper' in prepared)) throw new Error('drizzle prepared query without customResultMapper: cannot read array rows');
  (prepared as { customResultMapper: (rows: unknown[][]) => unknown[][] }).customResultMapper = (rows) => rows;
  return prepared as unknown as Omit<P, 'execute'> & { execute(values?: Record<string, unknown>): Promise<unknown[][]> };
}

/**
 * A named prepared statement for the hot writes of U3 (docs/users.md, "Performance notes"),
 * written ONCE with Drizzle's `sql` and `sql.placeholder('name')` where each value goes; the
 * function it returns runs it with `values` (one per placeholder name). On PostgreSQL node-postgres
 * parses it once per pooled connection and PostgreSQL keeps its plan; on PGlite the name is
 * ignored. Its text is built from the template once, on the first call: Drizzle's sqlToQuery walks
 * the whole template (the insert's flat row alone is some 60 column references), and building it
 * for every create was about a sixth of the server's CPU per create (docs/benchmarks.md, "Writes
 * and batches"). Lists go in as ONE array value each (pg-array.ts), so the text never changes.
 */
export function namedStatement<T>(name: string, query: SQL): (executor: Executor, values: Record<string, unknown>) => Promise<T[]> {
  let built: Query | undefined;
  return async (executor, values) => {
    // Every executor of either driver has a PgDialect, whose text is the same: build it once.
    built ??= (executor as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query);
    const prepared = executor._.session.prepareQuery(built, undefined, name, false);
    const result = (await prepared.execute(values)) as { rows: T[] };
    return result.rows;
  };
}

/**
 * withArrayRows' rows as objects keyed by the selection's keys in its order (`keys`: the keys of the
 * object passed to `select`): what Drizzle would map, without its decoders, so timestamps stay
 * PostgreSQL's text (isoTimestamp's fast path) instead of a Date parsed per value.
 */
export function keyedRows<T>(keys: readonly string[], rows: readonly unknown[][]): T[] {
  const keyed = new Array<T>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]] = values[i];
    keyed[r] = row as T;
  }
  return keyed;
}

/** A row type whose timestamps may come as PostgreSQL's text (keyedRows) as well as Dates (Drizzle's mapping). */
export type TextTimestamps<T> = {
  [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends Date | null ? Date | string | null : T[K];
};
