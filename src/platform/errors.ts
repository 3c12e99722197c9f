// Services throw DomainError; the one error handler (error-handler.ts) turns it into HTTP. A
// route's `family` (route config) picks the body shape (docs/reference.md, "Common rules").

export type ErrorCode =
  | 'bad_request' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'validation' // 422, or 400 in families whose validation status is 400
  | 'rate_limited' // 429
  | 'bad_gateway' // 502: a provider we depend on gave no usable answer
  | 'unavailable' // 503: the database could not be reached or the connection was lost; retry later
  | 'internal'; // 500

/**
 * Response families of docs/reference.md, "Common rules":
 * - plain:     {error: message}; validation 422 {error: {field: [msg]}}     (users, invoices, auth)
 * - companies: {error: message}; validation 422 {error: "Validation failed.", messages}
 * - bulk:      {error: message}; validation 422 {errors: {field: [msg]}}
 * - paystubs:  {error: message}; validation 400 {error: message}
 * - settings:  {error: message}; validation 422 {error: message}
 * - wallet:    {status: "error", message}; validation 400
 */
export type ErrorFamily = 'plain' | 'companies' | 'bulk' | 'paystubs' | 'settings' | 'wallet';

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** Extra fields of the `{error}` body (a 409 that says by how much: docs/payroll-runs.md, "Routes and messages"). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Refusals of the authentication layer (401, 429, and the API-access and scope 403s).
 * docs/reference.md, "Authentication and scopes", gives them the `{error}` body on every endpoint,
 * wallet routes included.
 */
export class AccessError extends DomainError {}

export const badRequest = (message: string) => new DomainError('bad_request', message);
export const unauthorized = (message = 'Unauthorized') => new DomainError('unauthorized', message);
export const forbidden = (message: string, details?: Record<string, unknown>) =>
  new DomainError('forbidden', message, undefined, undefined, details);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new DomainError('conflict', message, undefined, undefined, details);
export const internal = (message: string) => new DomainError('internal', message);
export const badGateway = (message: string) => new DomainError('bad_gateway', message);

/** Seconds a client is told to wait after a 503 for a database that could not be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** The 503 of a request whose database connection was refused or lost (docs/operations.md, "Failures"). */
export const databaseUnavailableError = () =>
  new DomainError('unavailable', 'The database is unavailable; try again.', undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

/** A validation failure on named fields. `message` is used by families that show one string. */
export function invalid(fields: FieldErrors, message?: string): DomainError {
  const first = Object.values(fields)[0]?.[0] ?? 'The given data was invalid.';
  return new DomainError('validation', message ?? first, fields);
}

/** Shorthand for one field with one message. */
export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

export function addFieldError(fields: FieldErrors, field: string, message: string): void {
  if (!fields[field]) fields[field] = [];
  fields[field].push(message);
}
