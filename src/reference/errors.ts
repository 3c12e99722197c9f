// Error examples of an operation, made by the error handler's own function (platform/error-handler.ts)
// from the operation's error family, so that they show exactly the bodies a client receives.
import { errorResponse } from '../platform/error-handler.js';
import { DomainError, type ErrorFamily, invalid, notFound, unauthorized } from '../platform/errors.js';

export interface ErrorFacts {
  family: ErrorFamily;
  notFound?: string;
  forbidden?: string;
}

interface NamedExample {
  summary: string;
  value: unknown;
}

/** The validation message of each family's example: a required field that was left out. */
const VALIDATION = invalid({ first_name: ['The first name field is required.'] });

/** Named examples for the 4XX response: validation, the route's own refusals, 401 and 429. */
export function clientErrorExamples(facts: ErrorFacts): Record<string, NamedExample> {
  const body = (error: DomainError) => errorResponse(error, facts.family);
  const validation = body(VALIDATION);
  const examples: Record<string, NamedExample> = {
    validation: { summary: `${validation.status}: a field failed validation`, value: validation.body },
  };
  if (facts.notFound) examples.notFound = { summary: '404: no such resource for this company', value: body(notFound(facts.notFound)).body };
  if (facts.forbidden)
    examples.forbidden = {
      summary: '403: a company the token may not act for',
      value: body(new DomainError('forbidden', facts.forbidden)).body,
    };
  examples.unauthorized = { summary: '401: missing, unknown or expired token', value: body(unauthorized()).body };
  examples.rateLimited = {
    summary: '429: rate limit reached (see the Retry-After header)',
    value: body(new DomainError('rate_limited', 'Too many requests.')).body,
  };
  return examples;
}

/** Named examples for the 5XX response. */
export function serverErrorExamples(facts: ErrorFacts): Record<string, NamedExample> {
  const unavailable = errorResponse(new DomainError('unavailable', 'The database is unavailable; try again.'), facts.family);
  return { unavailable: { summary: '503: the database could not be reached (see Retry-After)', value: unavailable.body } };
}
