// The one classification of "the database could not be reached or the connection was lost"
// (docs/operations.md, "Failures"): what becomes a 503, and what must not.
import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './db-errors.js';
import { errorResponse } from './error-handler.js';
import { databaseUnavailableError } from './errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As Drizzle throws it: its own error with the driver's as the cause. */
const wrapped = (cause: unknown) => new Error('Failed query: insert into "users" ...\nparams: ...', { cause });

describe('databaseUnavailable', () => {
  it.each([
    ['node-postgres: the socket closed under the client', new Error('Connection terminated unexpectedly')],
    ['a query on a client that already lost its connection', new Error('Client was closed and is not queryable')],
    ['pg-pool: no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg-pool: a new connection did not open in time', new Error('Connection terminated due to connection timeout')],
    ['refused', withCode('ECONNREFUSED')],
    ['reset', withCode('ECONNRESET')],
    ['57P01 admin_shutdown (pg_terminate_backend)', withCode('57P01')],
    ['57P02 crash_shutdown', withCode('57P02')],
    ['57P03 cannot_connect_now', withCode('57P03')],
    ['08006 connection_failure', withCode('08006')],
    ['08001 unable to connect', withCode('08001')],
    ['53300 too_many_connections', withCode('53300')],
    ['wrapped by Drizzle', wrapped(withCode('57P01'))],
    ['every address of a name refused', Object.assign(new AggregateError([withCode('ECONNREFUSED')]), { code: 'ECONNREFUSED' })],
  ])('%s: yes', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(withCode('23505'))],
    ['a syntax error', withCode('42601')],
    ['a serialization failure', withCode('40001')],
    ['a statement cancelled (57014)', withCode('57014')],
    ['a plain error', new Error('boom')],
    ['not an error', 'Connection terminated unexpectedly'],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(false);
  });
});

describe('the 503 in each response family', () => {
  it.each(['plain', 'companies', 'bulk', 'paystubs', 'settings'] as const)('%s: {error}', (family) => {
    expect(errorResponse(databaseUnavailableError(), family)).toEqual({
      status: 503,
      body: { error: 'The database is unavailable; try again.' },
    });
  });

  it('wallet: {status: "error", message}', () => {
    expect(errorResponse(databaseUnavailableError(), 'wallet')).toEqual({
      status: 503,
      body: { status: 'error', message: 'The database is unavailable; try again.' },
    });
  });

  it('tells the client when to retry', () => {
    expect(databaseUnavailableError().headers).toEqual({ 'Retry-After': '5' });
  });
});
