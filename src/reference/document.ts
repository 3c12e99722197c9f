// Completes the document @fastify/swagger generates from the route schemas (docs/api-reference.md):
// descriptions and examples from the catalog (src/reference/operations/), error examples from each
// route's family, realistic documented bounds, and the `required` lists that route code enforces.
import type { ErrorFamily } from '../platform/errors.js';
import { clientErrorExamples, serverErrorExamples } from './errors.js';
import { OPERATIONS, type OperationDoc } from './operations/index.js';
import { type SchemaNode, sampleOf } from './samples.js';

/** What the transform hook records of a route (platform/openapi.ts). */
export interface OperationFacts {
  name?: string;
  family: ErrorFamily;
  notFound?: string;
  forbidden?: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; schema?: SchemaNode }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: SchemaNode; example?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}
interface MediaType {
  schema?: SchemaNode;
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaNode> };
}

const camel = (text: string) => text.replace(/[-_.\s/]+([a-zA-Z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** `users.store` → `usersStore`; an unnamed route (the operator API): from its method and path. */
export function operationIdOf(name: string | undefined, method: string, url: string): string {
  if (name) return camel(name);
  const path = url.replace(/\/:[A-Za-z_]+/g, '/by-id').replace(/^\//, '');
  return camel(`${method.toLowerCase()}-${path}`);
}

/**
 * A route name serves two operations in a few places (S9 as PUT and PATCH, W2 at two paths): the
 * first registered keeps the plain id, the other gets its method (or its last path segment) added.
 * `owners`: operationId → the `METHOD url` that holds it.
 */
export function uniqueOperationId(owners: Map<string, string>, id: string, method: string, url: string): string {
  const key = `${method} ${url}`;
  const owner = owners.get(id);
  if (owner === undefined || owner === key) {
    owners.set(id, key);
    return id;
  }
  const suffix = owner.split(' ')[0] !== method ? method.toLowerCase() : (url.split('/').pop() ?? 'alias');
  const unique = camel(`${id}-${suffix}`);
  owners.set(unique, key);
  return unique;
}

/** The spec's codes out of a summary: `U3. Create a user` → `Create a user`, `Operator: x` → `x` kept. */
export function plainSummary(summary: string): string {
  return summary.replace(/^[A-Z]{1,2}\d+(\/[A-Z]{1,2}\d+)*\.?\s+/, '');
}

const INT4_MIN = -2_147_483_648;
const NUMBER_MIN = -1e15;
/** Money fields a route refuses at zero (the invoices: "must be greater than 0"). */
const POSITIVE_MONEY = new Set(['total_amount', 'amount_requested', 'amount_paid', 'amount']);
/** Integer inputs below 1 that the routes refuse (ids: docs/decisions.md, `company_id`). */
const isCountOrId = (field: string) =>
  field === 'id' || field.endsWith('_id') || field.endsWith('_ids') || field === 'suspension_duration_value';

/**
 * The documented bounds of inputs: input-safety bounds every integer to int4 and every number to
 * ±10^15 (a safety net, not the business rule); where a route refuses less, the document says so:
 * ids from 1, money from 0 (or above 0), so that generated sample requests are realistic.
 */
function documentBounds(node: unknown, field = '', depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 16) return;
  if (Array.isArray(node)) {
    for (const item of node) documentBounds(item, field, depth + 1);
    return;
  }
  const schema = node as SchemaNode;
  const types = [schema.type].flat();
  if (types.includes('integer') && schema.minimum === INT4_MIN && isCountOrId(field)) schema.minimum = 1;
  if (types.includes('number') && schema.minimum === NUMBER_MIN) {
    if (POSITIVE_MONEY.has(field)) {
      delete schema.minimum;
      schema.exclusiveMinimum = 0;
    } else schema.minimum = 0;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) documentBounds(inner, name, depth + 1);
    } else if (key === 'items' || key === 'anyOf' || key === 'oneOf') documentBounds(value, field, depth + 1);
  }
}

const STATUS_WORDS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: the work goes on in the background',
  '4XX': 'Refused: the body shape is the route family’s (see Errors in the introduction)',
  '5XX': 'Server error or database unavailable (retry after Retry-After)',
};

function completeOperation(
  operation: Operation,
  entry: OperationDoc | undefined,
  facts: OperationFacts,
  resolve: (ref: string) => unknown,
) {
  if (entry?.summary) operation.summary = entry.summary;
  if (entry?.description) operation.description = entry.description;
  for (const parameter of operation.parameters ?? []) documentBounds(parameter.schema, parameter.name);
  if (entry?.requestBody && !operation.requestBody) operation.requestBody = structuredClone(entry.requestBody) as Operation['requestBody'];
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    documentBounds(media.schema);
    if (entry?.required && media.schema)
      media.schema.required = [...new Set([...((media.schema.required as string[]) ?? []), ...entry.required])];
    if (entry?.body !== undefined) media.example = entry.body;
  }
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (response.description === 'Default Response' && STATUS_WORDS[status]) response.description = STATUS_WORDS[status];
    for (const media of Object.values(response.content ?? {})) {
      if (status === '4XX') media.examples = clientErrorExamples(facts);
      else if (status === '5XX') media.examples = serverErrorExamples(facts);
      else media.example = entry?.responses?.[status] ?? sampleOf(media.schema, resolve);
    }
  }
}

/** The generated document, completed (a copy: the plugin caches what this returns). */
export function completeDocument(generated: Document, facts: Map<string, OperationFacts>): Document {
  const document = structuredClone(generated);
  const schemas = document.components?.schemas ?? {};
  const resolve = (ref: string) => schemas[ref.replace('#/components/schemas/', '')];
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const id = operation.operationId ?? '';
      const fact = facts.get(id) ?? { family: 'plain' };
      completeOperation(operation, OPERATIONS[fact.name ?? id], fact, resolve);
    }
  }
  // The webhooks section (the payloads the service sends): `payroll_run.paid` → `payrollRunPaidEvent`.
  for (const [event, item] of Object.entries(document.webhooks ?? {}))
    for (const operation of Object.values(item)) operation.operationId ??= camel(`${event}-event`);
  return document;
}
