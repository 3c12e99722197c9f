// Input the database cannot hold is refused before any route code runs (docs/security.md, "Input:
// NUL characters and out-of-range numbers"). PostgreSQL refuses U+0000 in text and integers beyond
// their column (ids are int4), and each such refusal used to surface as a 500 after part of the
// work was done. One rule for every route, in four places:
// - preValidation: a NUL in any query, body (JSON or form) or header value is a validation error
//   naming the field, in the route's family shape; a path parameter holding a NUL or digits beyond
//   int4 in an id names a row that cannot exist, so it gets the route's own "not found" answer.
// - onRoute: every integer of a query, body or params schema is bounded to int4, and every number
//   to ±10^15 (a 4xx from the schema instead of an overflow in SQL, even for a value the route
//   then ignores); a schema with tighter bounds keeps them. Money sent as strings is bounded by
//   each feature's money parser to its numeric(18,2) column.
// - preHandler (first of all): no number in the validated query, body or params may be infinite.
//   Ajv coerces `1e309`, `Infinity` and `-Infinity` to ±Infinity and then skips its `minimum` and
//   `maximum` checks for a value that is not finite, and JSON.parse reads `1e309` as Infinity: such
//   a value is refused as the field's type error, exactly as `NaN` or `abc` are (docs/security.md,
//   "Input: NUL characters and out-of-range numbers").
// - multipart fields and CSV cells are read by route code: they call `assertNoNul` on what they read.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { badRequest, type DomainError, forbidden, invalid, notFound } from './errors.js';
import { isRecord } from './guards.js';

/** Largest value of an int4 column (every serial id and every integer input). */
export const MAX_INT4 = 2_147_483_647;
const MIN_INT4 = -2_147_483_648;
/**
 * Bound of every JSON number input: every number the API stores lands in numeric(18,2) (at most
 * 10^16), and beyond 10^15 a JSON number no longer holds an amount to the kobo.
 */
export const MAX_NUMBER = 1e15;
const NUL = '\u0000';
/** Deeper than any body the API accepts; a deeper one is refused rather than walked. */
const MAX_DEPTH = 32;

export const nulMessage = (field: string) => `The ${field.replace(/_/g, ' ')} field must not contain NUL characters.`;

/** The path (`users.0`, `paystubs.2.id`) of the first string or key holding U+0000, if any. */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : undefined;
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  if (depth > MAX_DEPTH) return path || 'body';
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return at;
    const found = findNul(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Throws the validation error for the first field holding a NUL (multipart fields, CSV rows). */
export function assertNoNul(fields: unknown): void {
  const field = findNul(fields);
  if (field) throw invalid({ [field]: [nulMessage(field)] });
}

/** A positive int4 id from its decimal text (path segments, CSV cells); undefined when it is not one. */
export function parseRowId(raw: string): number | undefined {
  if (!/^\d{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= MAX_INT4 ? id : undefined;
}

/**
 * A path segment naming a row that cannot exist: a NUL in any parameter, or digits beyond int4 in
 * an id (`id`, `*_id`; tokens and references are never all digits and keep their own answer).
 */
const cannotExist = (param: string, value: unknown) =>
  typeof value === 'string' &&
  (value.includes(NUL) || ((param === 'id' || param.endsWith('_id')) && /^\d+$/.test(value) && Number(value) > MAX_INT4));

/** The route's answer for a resource that does not exist (its tenancy refusal for the company in the path). */
function missingResource(request: FastifyRequest, param: string): DomainError {
  const config = request.routeOptions.config;
  const tenancy = config.tenancy;
  if (tenancy?.source === 'path' && (tenancy.pathParam ?? 'company_id') === param) {
    return tenancy.notFound ? notFound(tenancy.notFound) : forbidden(tenancy.forbidden);
  }
  return notFound(config.notFoundMessage ?? 'Not found.');
}

function checkRequest(request: FastifyRequest): void {
  for (const [param, value] of Object.entries(isRecord(request.params) ? request.params : {})) {
    if (cannotExist(param, value)) throw missingResource(request, param);
  }
  // Every request passes here: no arrays or closures per header.
  const headers = request.headers;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string' ? value.includes(NUL) : Array.isArray(value) && value.some((text) => text.includes(NUL))) {
      throw badRequest(`The ${name} header must not contain NUL characters.`);
    }
  }
  if (request.routeOptions.config.ownInputChecks) return;
  assertNoNul(request.query);
  assertNoNul(request.body);
}

/** Bounds every integer of a request schema to int4 and every number to ±MAX_NUMBER, keeping tighter bounds. */
export function boundNumbers(schema: unknown, depth = 0): void {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return;
  const node = schema as Record<string, unknown>;
  const types = [node.type].flat();
  const limit = types.includes('integer') ? MAX_INT4 : types.includes('number') ? MAX_NUMBER : undefined;
  if (limit !== undefined) {
    const lowest = limit === MAX_INT4 ? MIN_INT4 : -limit;
    if (typeof node.maximum !== 'number' || node.maximum > limit) node.maximum = limit;
    if (typeof node.minimum !== 'number' || node.minimum < lowest) node.minimum = lowest;
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) boundNumbers(item, depth + 1);
    else boundNumbers(value, depth + 1);
  }
}

/** The JSON type (`integer` or `number`) a schema gives the value at `path`; `number` when unknown. */
function numberTypeAt(schema: unknown, path: string[]): string {
  let node = schema;
  for (const key of path) {
    const branches = (isRecord(node) && Array.isArray(node.anyOf) ? node.anyOf : [node]).filter(isRecord);
    const holder = branches.find((branch) => isRecord(branch.properties) || isRecord(branch.items));
    node = holder && isRecord(holder.properties) ? holder.properties[key] : holder?.items;
  }
  const branches = (isRecord(node) && Array.isArray(node.anyOf) ? node.anyOf : [node]).filter(isRecord);
  return branches.some((branch) => [branch.type].flat().includes('integer')) ? 'integer' : 'number';
}

/** The path of the first number that is not finite (±Infinity, NaN), if any. */
export function findNonFinite(value: unknown, path: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value) || depth > MAX_DEPTH) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = findNonFinite(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Throws, as Ajv's own type error would be, for the first infinite number of the validated input. */
function checkFinite(request: FastifyRequest): void {
  const schema = request.routeOptions.schema;
  const parts = [
    ['querystring', request.query, schema?.querystring],
    ['body', request.body, schema?.body],
    ['params', request.params, schema?.params],
  ] as const;
  for (const [context, value, partSchema] of parts) {
    const path = findNonFinite(value);
    if (!path) continue;
    // The tenancy check answers a `company_id` that is not an id with its documented 400.
    if (path.length === 1 && path[0] === 'company_id' && request.routeOptions.config.tenancy) continue;
    const json = isRecord(partSchema) && isRecord(partSchema.content) ? undefined : partSchema;
    const error = new Error(`${context}/${path.join('/')} must be finite`) as Error & Record<string, unknown>;
    error.validationContext = context;
    error.validation = [
      { keyword: 'type', instancePath: path.length ? `/${path.join('/')}` : '', params: { type: numberTypeAt(json, path) } },
    ];
    error.statusCode = 400;
    throw error;
  }
}

export function registerInputSafety(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema;
    if (schema && !route.config?.ownInputChecks) for (const part of [schema.querystring, schema.body, schema.params]) boundNumbers(part);
  });
  // Callback-style: it never waits (a throw reaches Fastify's error handling all the same).
  app.addHook('preValidation', (request, _reply, done) => {
    checkRequest(request);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.routeOptions.config.ownInputChecks) checkFinite(request);
    done();
  });
}
