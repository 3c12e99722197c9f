// Test-only contract check (docs/api-reference.md, "Contract test"): every JSON answer of a route
// with a response schema is validated against the documented schema of its status code, and each
// disagreement is recorded. fast-json-stringify serializes by the same schema but quietly coerces
// (a number for a string, `"false"` for true), drops unknown keys and cannot see a wrong branch
// of a union, so the check runs on what the route code produced: the object before serialization,
// or, for answers the route wrote as JSON text itself, that text parsed. Off in production: the
// test helper turns it on (test/helpers/app.ts).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

/** The response schema of `status`: the exact code, then `4xx`-style, then `default`. */
function schemaFor(request: FastifyRequest, status: number): unknown {
  const responses = (request.routeOptions.schema?.response ?? undefined) as Record<string, unknown> | undefined;
  if (!responses) return undefined;
  return responses[String(status)] ?? responses[`${Math.floor(status / 100)}xx`] ?? responses.default;
}

// One validator per documented schema for the whole process (the suite builds an app per test
// file), keyed by the schema's JSON; shared schemas are the same in every app of the process.
let sharedAjv: Ajv2020 | undefined;
const compiledByText = new Map<string, Validate>();
function contractAjv(): Ajv2020 {
  if (!sharedAjv) {
    sharedAjv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(sharedAjv);
  }
  return sharedAjv;
}

export function registerResponseContract(app: FastifyInstance, record: (mismatch: string) => void): void {
  const ajv = contractAjv();
  const compiled = new WeakMap<object, Validate>();
  const checked = new WeakSet<FastifyRequest>();

  function check(request: FastifyRequest, reply: FastifyReply, body: unknown): void {
    const schema = schemaFor(request, reply.statusCode);
    if (!schema || typeof schema !== 'object') return;
    // Shared schemas (`Type.Ref('User')`) of the route's plugin, added once each.
    for (const shared of Object.values(request.server.getSchemas() as Record<string, { $id?: string }>)) {
      if (shared.$id && !ajv.getSchema(shared.$id)) ajv.addSchema(shared);
    }
    let validate = compiled.get(schema);
    if (!validate) {
      const text = JSON.stringify(schema);
      validate = compiledByText.get(text) ?? (ajv.compile(schema) as Validate);
      compiledByText.set(text, validate);
      compiled.set(schema, validate);
    }
    // What reaches the wire: Dates become ISO text, undefined keys vanish.
    const wire = JSON.parse(JSON.stringify(body) ?? 'null');
    if (validate(wire)) return;
    const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
    record(`${request.method} ${request.routeOptions.url} → ${reply.statusCode}: ${errors.join('; ')}`);
  }

  app.addHook('preSerialization', (request, reply, payload, done) => {
    checked.add(request);
    try {
      check(request, reply, payload);
    } catch (error) {
      record(`${request.method} ${request.routeOptions.url}: the check itself failed: ${(error as Error).message}`);
    }
    done(null, payload);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!checked.has(request) && typeof payload === 'string' && type.includes('application/json') && reply.statusCode !== 204) {
      try {
        check(request, reply, JSON.parse(payload));
      } catch (error) {
        record(`${request.method} ${request.routeOptions.url}: the check itself failed: ${(error as Error).message}`);
      }
    }
    done(null, payload);
  });
}
