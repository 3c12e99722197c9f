// Named prepared statements for the hot reads. Drizzle builds a query's SQL text from its object
// tree on every call (about a third of the CPU of GET /api/users before issue 19); a prepared query
// is built once, and on PostgreSQL its name makes node-postgres parse it once per pooled connection
// and PostgreSQL plan it once (generic plan after five executions) instead of on every request.
// On PGlite the name is ignored and the prepared query runs as an ordinary parameterized query.
// Behind PgBouncer in transaction mode, named statements need PgBouncer >= 1.21 with
// max_prepared_statements set (docs/operations.md).
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
