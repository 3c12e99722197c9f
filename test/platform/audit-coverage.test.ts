// Audit coverage over the route catalog (docs/audit.md, "What is recorded"): every write route
// (POST, PUT, PATCH, DELETE) is sent once, as company A of the isolation world, with the valid body
// the input-safety probes use (test/isolation/catalog-inputs.ts) or one made from its schema. Each
// request that succeeds (2xx) must have added at least one audit_events row for A or A's child
// or a company below them (C4 changes the child, C2's event is the new company's), or the test fails naming the route. Requests refused (a sample that a
// route's rules refuse, an id that names nothing) change nothing and are not audited by design;
// the walk reports how many routes it reached and needs most of them.

import { sql } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/app.js';
import { queryRows } from '../../src/db/client.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { type CatalogInputs, catalogInputs } from '../isolation/catalog-inputs.js';
import { buildWorld, type World } from '../isolation/world.js';

/**
 * Write routes that change no company data when they succeed, so no audit event is owed. Keep
 * this short: each entry says why.
 */
const CHANGES_NOTHING: Record<string, string> = {};

/** Sent last: they end what later requests need (the token, the company, the records). */
const LAST = (entry: RouteEntry) => entry.method === 'DELETE' || /deactivate|destroy|terminate/.test(entry.name);

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas are walked structurally
type Schema = any;

let ctx: TestContext;
let world: World;
let inputs: CatalogInputs;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox' });
  world = await buildWorld(ctx.app, ctx.db);
  inputs = await catalogInputs(ctx.app, world);
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

describe('audit coverage: every write route that succeeds records an audit event', () => {
  it('walks the catalog', async () => {
    const { a } = world;
    const writes = ctx.app.routeCatalog.filter((entry) => entry.method !== 'GET' && entry.url.startsWith('/api/'));
    const ordered = [...writes.filter((e) => !LAST(e)), ...writes.filter(LAST)];
    const unaudited: string[] = [];
    const reached: string[] = [];
    for (const entry of ordered) {
      const payload = inputs.bases[entry.name] ?? sample(bodySchema(entry.schema) ?? { type: 'object' });
      const before = await auditCount(a.company.id);
      const res = await ctx.app.inject({
        method: entry.method as 'POST',
        url: fillPath(entry),
        headers: a.company.auth,
        payload: payload as object,
      });
      if (res.statusCode >= 300) continue;
      reached.push(entry.name);
      if (CHANGES_NOTHING[entry.name]) continue;
      if ((await auditCount(a.company.id)) <= before)
        unaudited.push(`${entry.method} ${entry.url} (${entry.name}): ${res.statusCode} without an audit event`);
    }
    console.log(`audit coverage walk: ${reached.length} of ${writes.length} write routes succeeded: ${reached.join(', ')}`);
    expect(unaudited).toEqual([]);
    // The walk is worth something only if most write routes succeed with their sample.
    expect(reached.length, `reached: ${reached.join(', ')}`).toBeGreaterThanOrEqual(25);
  });
});
