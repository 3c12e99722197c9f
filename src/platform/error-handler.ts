// The one mapping from errors to HTTP responses. 5xx details are logged, never sent.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailable } from './db-errors.js';
import { AccessError, addFieldError, DomainError, databaseUnavailableError, type ErrorFamily, type FieldErrors } from './errors.js';

/** The HTTP status of each DomainError code, for the API and the console's error pages alike. */
export const DOMAIN_STATUS: Record<DomainError['code'], number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  rate_limited: 429,
  bad_gateway: 502,
  unavailable: 503,
  internal: 500,
};

export function familyOf(request: FastifyRequest): ErrorFamily {
  return request.routeOptions?.config?.family ?? 'plain';
}

export function errorResponse(error: DomainError, family: ErrorFamily): { status: number; body: unknown } {
  if (error.code === 'validation') {
    const fields: FieldErrors = error.fields ?? {};
    switch (family) {
      case 'companies':
        return { status: 422, body: { error: 'Validation failed.', messages: fields } };
      case 'bulk':
        return { status: 422, body: { errors: fields } };
      case 'paystubs':
        return { status: 400, body: { error: error.message } };
      case 'settings':
        return { status: 422, body: { error: error.message } };
      case 'wallet':
        return { status: 400, body: { status: 'error', message: error.message } };
      default:
        return { status: 422, body: { error: fields } };
    }
  }
  const status = DOMAIN_STATUS[error.code];
  if (family === 'wallet' && status !== 401 && status !== 429 && !(error instanceof AccessError)) {
    return { status, body: { status: 'error', message: error.message } };
  }
  return { status, body: { error: error.message, ...error.details } };
}

/** Turns Ajv errors into {field: [message]} with Laravel-like sentences. */
export function fieldsFromValidation(error: FastifyError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.validation ?? []) {
    const params = issue.params;
    const pathField = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const missing = typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
    const field = missing ?? (pathField || error.validationContext || 'body');
    const label = field.replace(/_/g, ' ');
    let message: string;
    switch (issue.keyword) {
      case 'required':
        message = `The ${label} field is required.`;
        break;
      case 'type':
        message = `The ${label} field must be ${describeType(String(params.type))}.`;
        break;
      case 'enum':
      case 'const':
      case 'anyOf':
        message = `The selected ${label} is invalid.`;
        break;
      case 'format':
        message = `The ${label} field must be a valid ${String(params.format)}.`;
        break;
      case 'minLength':
        message = `The ${label} field must be at least ${String(params.limit)} characters.`;
        break;
      case 'maxLength':
        message = `The ${label} field must not be greater than ${String(params.limit)} characters.`;
        break;
      case 'minimum':
        message = `The ${label} field must be at least ${String(params.limit)}.`;
        break;
      case 'maximum':
        message = `The ${label} field must not be greater than ${String(params.limit)}.`;
        break;
      case 'pattern':
        message = `The ${label} field format is invalid.`;
        break;
      case 'additionalProperties':
        message = `The ${String(params.additionalProperty).replace(/_/g, ' ')} field is not allowed.`;
        break;
      case 'maxItems':
        message = `The ${label} field must not have more than ${String(params.limit)} items.`;
        break;
      default:
        message = `The ${label} field is invalid.`;
    }
    if (!fields[field]?.includes(message)) addFieldError(fields, field, message);
  }
  return fields;
}

function describeType(type: string): string {
  if (type === 'integer') return 'an integer';
  if (type === 'number') return 'a number';
  if (type === 'boolean') return 'true or false';
  if (type === 'array') return 'an array';
  if (type === 'object') return 'an object';
  return 'a string';
}

/**
 * Errors as logged. Drizzle puts a failed query's parameters into the message ("params: ..."), and
 * those can be password hashes, tokens' hashes or personal data: they are cut before logging.
 */
export function serializeError(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  const scrub = (text: string | undefined) => (text ?? '').replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');
  const plain = (value: unknown, depth: number): { type: string; message: string; stack: string; [key: string]: unknown } => {
    if (!(value instanceof Error)) return { type: typeof value, message: scrub(String(value)), stack: '' };
    const out: { type: string; message: string; stack: string; [key: string]: unknown } = {
      type: value.name,
      message: scrub(value.message),
      stack: scrub(value.stack),
    };
    if ('code' in value && value.code !== undefined) out.code = value.code;
    if ('statusCode' in value && value.statusCode !== undefined) out.statusCode = value.statusCode;
    if (value.cause !== undefined && depth < 3) out.cause = plain(value.cause, depth + 1);
    return out;
  };
  return plain(error, 0);
}

/**
 * A multipart body busboy cannot parse (no boundary, a boundary that never appears, a part cut
 * short): busboy throws plain errors without a code, each naming "multipart" (@fastify/busboy,
 * lib/types/multipart.js and deps/dicer). The client's fault, answered like malformed JSON.
 * Errors of the temporary files (ENOSPC...) carry a code and stay 500s.
 */
function isMalformedMultipart(error: FastifyError): boolean {
  return error.code === undefined && error.statusCode === undefined && /\bmultipart\b/i.test(error.message ?? '');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const family = familyOf(request);
    let domain: DomainError;
    if (error instanceof DomainError) {
      domain = error;
    } else if (error.validation) {
      const override = request.routeOptions?.config?.badRequestMessage;
      domain = override ? new DomainError('bad_request', override) : new DomainError('validation', '', fieldsFromValidation(error));
      if (!override) {
        const fields = domain.fields ?? {};
        domain = new DomainError('validation', Object.values(fields)[0]?.[0] ?? 'The given data was invalid.', fields);
      }
    } else if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
      domain = new DomainError('bad_request', 'Malformed JSON body.');
    } else if (isMalformedMultipart(error)) {
      domain = new DomainError('bad_request', 'Malformed multipart body.');
    } else if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return reply
        .status(413)
        .send(family === 'wallet' ? { status: 'error', message: 'Request body too large.' } : { error: 'Request body too large.' });
    } else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
      domain = new DomainError('bad_request', 'Unsupported content type.');
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      domain = new DomainError(
        error.statusCode === 404 ? 'not_found' : 'bad_request',
        error.statusCode === 404 ? 'Not found.' : 'Bad request.',
      );
    } else if (databaseUnavailable(error)) {
      // The pool has dropped the connection; nothing was committed by this request's transaction.
      request.log.warn({ err: error }, 'database unavailable: answered 503');
      domain = databaseUnavailableError();
    } else {
      request.log.error({ err: error }, 'unhandled error');
      const message = request.routeOptions?.config?.internalMessage ?? 'Internal server error.';
      domain = new DomainError('internal', message);
    }
    if (domain.code === 'internal' && error instanceof DomainError) request.log.error({ err: error }, 'internal error');
    const { status, body } = errorResponse(domain, family);
    if (domain.headers) reply.headers(domain.headers);
    return reply.status(status).send(body);
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not found.' }));
}
