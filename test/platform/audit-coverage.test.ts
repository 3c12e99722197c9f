// Audit coverage over the route catalog (docs/audit.md, "What is recorded"): every write route
// (POST, PUT, PATCH, DELETE) is sent once and must succeed, and its success must have added at
// least one audit_events row to the company that sent it (or a company below it: C4 changes the
// child, C2's event is the new company's); the test fails naming any route that is refused or
// leaves no event. Most routes are sent as company A of the isolation world with the valid body
// the input-safety probes use (test/isolation/catalog-inputs.ts) or one made from its schema; a
// route that needs a resource in a given state gets it from its set-up (audit-coverage.setups.ts),
// in a company of its own, and only the request itself is counted. A new write route therefore
// needs either a sample that succeeds or a set-up, and an audit event.

import { sql } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/app.js';
import { queryRows } from '../../src/db/client.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { as, type Method } from '../helpers/http.js';
import { type CatalogInputs, catalogInputs } from '../isolation/catalog-inputs.js';
import { buildWorld, type World } from '../isolation/world.js';
import { type CoverageRequest, coverageSetups } from './audit-coverage.setups.js';

/**
 * Write routes that change no company data when they succeed, so no audit event is owed. Keep
 * this short: each entry says why.
 */
const CHANGES_NOTHING: Record<string, string> = {};

type Setups = ReturnType<typeof coverageSetups>;

/** Sent last: they end what later requests need (the token, the company, the records). */
const LAST = (entry: RouteEntry) => entry.method === 'DELETE' || /deactivate|destroy|terminate/.test(entry.name);

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas are walked structurally
type Schema = any;

let ctx: TestContext;
let world: World;
let inputs: CatalogInputs;
let setups: Setups;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox', sandboxTransferDelaySeconds: 0 });
  world = await buildWorld(ctx.app, ctx.db);
  inputs = await catalogInputs(ctx.app, world);
  setups = coverageSetups(ctx.app, ctx.db);
});
afterAll(() => ctx?.close());

function bodySchema(schema: FastifySchema | undefined): Schema {
  const body = schema?.body as Schema;
  return body?.content?.['application/json']?.schema ?? body;
}

/** A value for a schema: the first literal or enum value, else a plain one of its type. */
function sample(schema: Schema): unknown {
  const branch = (schema?.anyOf ?? schema?.oneOf ?? [schema]).filter(Boolean).find((c: Schema) => c.type !== 'null') ?? {};
  if (branch.const !== undefined) return branch.const;
  if (branch.enum) return branch.enum[0];
  if (branch.type === 'object') return Object.fromEntries(Object.entries(branch.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (branch.type === 'array') return [sample(branch.items)];
  if (branch.type === 'integer' || branch.type === 'number') return 1;
  if (branch.type === 'boolean') return false;
  return 'x';
}

const fillPath = (entry: RouteEntry) =>
  entry.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = inputs.pathValues[name];
    if (!value) throw new Error(`${entry.url}: no value for path parameter ${name}; add one to catalog-inputs.ts`);
    return encodeURIComponent(value(entry.url));
  });

/** Events of A's tree: A, its child, and a company created during the walk (C2's event is the new company's). */
async function auditCount(root: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`WITH RECURSIVE tree(id) AS (SELECT ${root}::int UNION SELECT c.id FROM companies c JOIN tree t ON c.created_by = t.id)
        SELECT count(*)::int AS n FROM audit_events WHERE company_id IN (SELECT id FROM tree)`,
  );
  return row.n;
}

/** The request for a route: its set-up's, else company A's with the catalog sample. */
async function requestFor(entry: RouteEntry): Promise<CoverageRequest> {
  const setup = setups[entry.name];
  if (setup) return setup();
  return {
    company: world.a.company,
    url: fillPath(entry),
    payload: (inputs.bases[entry.name] ?? sample(bodySchema(entry.schema) ?? { type: 'object' })) as object,
  };
}

describe('audit coverage: every write route that succeeds records an audit event', () => {
  it('walks the catalog: every write route succeeds once and leaves an audit event', async () => {
    const writes = ctx.app.routeCatalog.filter((entry) => entry.method !== 'GET' && entry.url.startsWith('/api/'));
    const ordered = [...writes.filter((e) => !LAST(e)), ...writes.filter(LAST)];
    const unaudited: string[] = [];
    const refused: string[] = [];
    for (const entry of ordered) {
      const request = await requestFor(entry);
      const before = await auditCount(request.company.id);
      const res = await as(ctx.app, request.company).request(entry.method as Method, request.url, request.payload, {
        headers: request.headers,
      });
      if (res.statusCode >= 300) {
        refused.push(`${entry.method} ${entry.url} (${entry.name}): ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      if (CHANGES_NOTHING[entry.name]) continue;
      if ((await auditCount(request.company.id)) <= before)
        unaudited.push(`${entry.method} ${entry.url} (${entry.name}): ${res.statusCode} without an audit event`);
    }
    // A refused request proves nothing: give the route a sample or a set-up that succeeds.
    expect(refused, `${writes.length} write routes`).toEqual([]);
    expect(unaudited).toEqual([]);
    // Every set-up names a write route of the catalog (a renamed route must not leave one unused).
    expect(Object.keys(setups).filter((name) => !writes.some((entry) => entry.name === name))).toEqual([]);
  });
});
