// What keeps a lost PostgreSQL connection from ending the process or shrinking a pool for good
// (docs/operations.md, "Failures"). node-postgres raises an 'error' event on a client whose
// connection dies; an 'error' event nobody listens to throws and ends the process. pg-pool listens
// only while a client is idle in the pool: while it is checked out (every Drizzle transaction, from
// BEGIN to COMMIT) nobody did.
import type pg from 'pg';
import { databaseUnavailable } from './errors.js';

/** Told once per lost connection; `inUse`: it was checked out (a transaction) when it died. */
export type ConnectionErrorListener = (error: Error, inUse: boolean) => void;

/**
 * Gives every client of `pool` an 'error' listener for its whole life, idle or checked out, which
 * reports the loss once (a terminated backend first sends 57P01, then its socket closes: two events).
 * The pool discards such a client when it is released (it is no longer queryable) or, idle, at once.
 */
export function guardPool(pool: pg.Pool, report: () => ConnectionErrorListener): void {
  // pg-pool re-emits an idle client's error on the pool; the client's own listener below reports it.
  pool.on('error', () => {});
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (error) => {
      if (reported) return;
      reported = true;
      report()(error, checkedOut.has(client));
    });
  });
  releaseWhenFirstStatementFails(pool);
}

/**
 * Drizzle's transaction checks a client out and sends BEGIN before entering the try/finally that
 * releases it. If the connection died between the checkout and BEGIN (a backend terminated while
 * the client sat idle, its goodbye not yet read when the pool handed it out), BEGIN fails and the
 * client is never released: the pool would be one connection smaller for the life of the process.
 * So a checkout whose first statement fails on a lost connection is released here (with the error,
 * so the pool discards it); the release is made idempotent for that checkout, so a holder that
 * releases too does no harm. Only promise-style checkouts (`pool.connect()`, Drizzle's
 * transactions) are watched; `pool.query` releases its client itself.
 */
function releaseWhenFirstStatementFails(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool);
  const watched = async (): Promise<pg.PoolClient> => {
    const client = await connect();
    const release = client.release;
    const firstQuery = client.query;
    let released = false;
    client.release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      // The watch ends with the checkout: the next holder gets the prototype's query.
      Reflect.deleteProperty(client, 'query');
      release(error);
    };
    client.query = ((...args: unknown[]) => {
      Reflect.deleteProperty(client, 'query');
      const result: unknown = Reflect.apply(firstQuery, client, args);
      if (result instanceof Promise)
        result.catch((error: unknown) => {
          if (databaseUnavailable(error)) client.release(error instanceof Error ? error : new Error(String(error)));
        });
      return result;
    }) as typeof client.query;
    return client;
  };
  pool.connect = ((callback?: unknown) => (callback ? Reflect.apply(connect, pool, [callback]) : watched())) as typeof pool.connect;
}
