// Named prepared statements for the hot reads. Drizzle builds a query's SQL text from its object
// tree on every call (about a third of the CPU of GET /api/users before the read-path work); a
// prepared query is built once, and on PostgreSQL its name makes node-postgres parse it once per
// pooled connection and PostgreSQL plan it once (generic plan after five executions) instead of on
// every request. On PGlite the name is ignored and the prepared query runs as an ordinary
// parameterized query. Behind PgBouncer in transaction mode, named statements need PgBouncer >=
// 1.21 with max_prepared_statements set (docs/operations.md).
import type { SQL } from 'drizzle-orm';
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
 * Runs a statement written with Drizzle's `sql` as the named prepared statement `name`: on
 * PostgreSQL, node-postgres parses it once per pooled connection and PostgreSQL keeps its plan
 * (the hot writes of U3, whose parse and plan were a large part of PostgreSQL's CPU per create:
 * docs/benchmarks.md). `query` must produce the same text on every call (lists as ONE array
 * parameter, pg-array.ts), since a name stands for one text per connection. On PGlite the name is
 * ignored.
 */
export async function queryNamed<T>(executor: Executor, name: string, query: SQL): Promise<T[]> {
  const { dialect } = executor as unknown as { dialect: PgDialect };
  const prepared = executor._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  const result = (await prepared.execute()) as { rows: T[] };
  return result.rows;
}
