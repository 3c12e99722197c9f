// Recognising database errors on both drivers. Drizzle wraps the driver error, so the cause chain is
// walked. A unique-index violation (SQLSTATE 23505) becomes a clean 422/409 instead of a 500; a lost
// or refused connection becomes a 503 with Retry-After (docs/operations.md, "Failures"). Here in
// db/ because the pool guard needs it and db/ imports nothing above it; features and the platform
// read it through platform/db-errors.ts.

/** A plain object's own fields (platform/guards.ts has the same; db/ sits below the platform). */
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** How far down a cause chain we look (Drizzle's DrizzleQueryError, then the driver's error). */
const MAX_DEPTH = 5;

/** The name of the violated unique constraint or index, or undefined when it is another error. */
export function uniqueViolation(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; isRecord(current) && depth < MAX_DEPTH; depth++) {
    if (current.code === '23505') {
      if (typeof current.constraint === 'string') return current.constraint;
      const match = typeof current.message === 'string' ? /unique constraint "([^"]+)"/.exec(current.message) : null;
      return match ? match[1] : 'unknown';
    }
    current = current.cause;
  }
  return undefined;
}

/** Socket errors of a connection to PostgreSQL that went away or could not be made. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs meaning "this session is gone or none can be had now; the same request later may work":
 * 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, in recovery), 53300 too_many_connections, and
 * class 08 (connection exceptions).
 */
function unavailableState(code: string): boolean {
  return code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code.startsWith('08');
}

/**
 * node-postgres and pg-pool report a dead or unobtainable connection with plain Errors: the socket
 * closed under a client, a query on a client that already lost its connection, and the pool's
 * connection timeout (waiting for a free connection, or for a new one to open).
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client was closed and is not queryable',
  'Client has encountered a connection error and is not queryable',
];

/**
 * Whether `error` (or what it wraps) says the database could not be reached or the connection was
 * lost: nothing about the request is wrong, and it may succeed once PostgreSQL answers again. The
 * one classification of such errors: the API's 503 and the job queue's retry use it.
 */
export function databaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; isRecord(current) && depth < MAX_DEPTH; depth++) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && unavailableState(code))) return true;
    if (
      typeof current.message === 'string' &&
      UNAVAILABLE_MESSAGES.some((text) => (current as { message: string }).message.startsWith(text))
    )
      return true;
    // Node's connect to a name with several addresses fails with an AggregateError of each attempt's error.
    if (Array.isArray(current.errors) && current.errors.some((inner) => databaseUnavailable(inner))) return true;
    current = current.cause;
  }
  return false;
}
