// Input safety over every named /api route, generated from the route catalog (docs/security.md,
// "Input: NUL characters and out-of-range numbers"). A new route cannot skip it: its body and query
// schemas, path parameters and error family come from the catalog.
// - NUL: for each write route and each string field of its body (from the body schema and from a
//   valid body), the field gets a "\u0000"; for every route, each string query field does too. The
//   answer is the family's validation shape naming the field, and the database is unchanged.
// - Path ids: each path parameter set to 99999999999999999999999, 2147483648 or a NUL answers exactly
//   what an id that does not exist (2147483647) answers: the route's 404 (or its tenancy refusal).
// - Numbers: each integer or number field of a query or body gets 1e23 (and the same digits as a
//   string where the schema takes strings too): a 4xx in the family's shape, nothing written.
// - Numbers that are not finite: each numeric query field gets 1e309, Infinity, -Infinity, NaN and
//   1e400 (the validator turns all but NaN into ±Infinity and then skips its range checks), and each
//   numeric body field the JSON number 1e309: the family's validation shape, nothing written.
// - Malformed multipart bodies, sent to every route: never a 5xx; a route that reads multipart
//   (its schema's `consumes`) answers 400 "Malformed multipart body." and writes nothing.
import type { FastifySchema } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/app.js';
import type { ErrorFamily } from '../../src/platform/errors.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { as } from '../helpers/http.js';
import { catalogInputs } from './catalog-inputs.js';
import type { Json, Method } from './probes.js';
import { buildWorld, databaseFingerprint, type World } from './world.js';

const NUL = '\u0000';
const HUGE = '99999999999999999999999';
const MISSING = '2147483647';

// biome-ignore lint/suspicious/noExplicitAny: JSON schemas are walked structurally
type Schema = any;

let ctx: TestContext;
let world: World;
let pathValues: Record<string, (url: string) => string>;
let bases: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox' });
  world = await buildWorld(ctx.app, ctx.db);
  ({ pathValues, bases } = await catalogInputs(ctx.app, world));
});
afterAll(() => ctx?.close());

/** The JSON body schema of a route (U4 declares it per content type). */
function bodySchema(schema: FastifySchema | undefined): Schema {
  const body = schema?.body as Schema;
  return body?.content?.['application/json']?.schema ?? body;
}

const branches = (schema: Schema): Schema[] => (schema?.anyOf ?? schema?.oneOf ?? [schema]).filter(Boolean);
/** A schema without `type` (money, read by its feature's parser: MoneyInput) takes every type. */
const takes = (schema: Schema, type: string) =>
  branches(schema).some((branch) => branch.type === type || (branch.type === undefined && !branch.$ref && !branch.const && !branch.enum));

/** Paths (`users.0`) of the string fields of an object schema, arrays of strings included. */
function stringFields(schema: Schema): string[] {
  return Object.entries((schema?.properties ?? {}) as Record<string, Schema>).flatMap(([name, property]) => {
    if (takes(property, 'string')) return [name];
    if (branches(property).some((branch) => branch.type === 'array' && takes(branch.items, 'string'))) return [`${name}.0`];
    return [];
  });
}

/** Paths of the string values inside a body (items of P2, S3's setting fields). */
function stringLeaves(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => stringLeaves(inner, prefix ? `${prefix}.${key}` : key));
}

const numberFields = (schema: Schema): string[] =>
  Object.entries((schema?.properties ?? {}) as Record<string, Schema>)
    .filter(([, property]) => takes(property, 'integer') || takes(property, 'number'))
    .map(([name]) => name);

/** A value for a schema: the first literal or enum value, else a plain one of its type. */
function sample(schema: Schema): unknown {
  const branch = branches(schema).find((candidate) => candidate.type !== 'null') ?? {};
  if (branch.const !== undefined) return branch.const;
  if (branch.enum) return branch.enum[0];
  if (branch.type === 'object') return Object.fromEntries(Object.entries(branch.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  if (branch.type === 'array') return [sample(branch.items)];
  if (branch.type === 'integer' || branch.type === 'number') return 1;
  if (branch.type === 'boolean') return false;
  return 'x';
}

function withValue(body: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const keys = path.split('.');
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === undefined || node[key] === null) node[key] = /^\d+$/.test(keys[keys.indexOf(key) + 1]) ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  node[last] = typeof value === 'function' ? value(node[last]) : value;
  return copy;
}

function fillPath(entry: RouteEntry, overrides: Record<string, string> = {}): string {
  return entry.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    if (overrides[name] !== undefined) return encodeURIComponent(overrides[name]);
    const value = pathValues[name];
    if (!value) throw new Error(`${entry.url}: no value for path parameter ${name}; add one to pathValues`);
    return value(entry.url);
  });
}

const paramsOf = (entry: RouteEntry) => [...entry.url.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]);
const isWrite = (entry: RouteEntry) => entry.method !== 'GET';
const label = (field: string) => field.replace(/_/g, ' ');

/**
 * The family's validation answer (docs/reference.md, "Common rules"), naming the field; returns
 * problems. A route that checks its own input (the wallet's W1/W2, RouteConfig.ownInputChecks)
 * answers with its documented messages instead (W2: "Transaction not found." for a reference that
 * cannot exist): any 4xx in the family's shape.
 */
function fieldProblems(entry: RouteEntry, status: number, body: Json, field: string): string[] {
  return entry.ownInputChecks ? errorShapeProblems(entry.family, status, body) : familyProblems(entry.family, status, body, field);
}

function familyProblems(family: ErrorFamily, status: number, body: Json, field: string): string[] {
  const named = (text: unknown) => typeof text === 'string' && text.includes(label(field));
  const ok = (() => {
    switch (family) {
      case 'companies':
        return status === 422 && body?.error === 'Validation failed.' && Array.isArray(body?.messages?.[field]);
      case 'bulk':
        return status === 422 && Array.isArray(body?.errors?.[field]);
      case 'paystubs':
        return status === 400 && named(body?.error);
      case 'settings':
        return status === 422 && named(body?.error);
      case 'wallet':
        return status === 400 && body?.status === 'error' && named(body?.message);
      default:
        return status === 422 && Array.isArray(body?.error?.[field]);
    }
  })();
  return ok ? [] : [`expected the ${family} validation shape naming ${field}`];
}

/** The family's error shape for any 4xx (numbers: the refusal may be a range message or a 404). */
function errorShapeProblems(family: ErrorFamily, status: number, body: Json): string[] {
  if (status < 400 || status >= 500) return [`expected a 4xx, got ${status}`];
  const shaped =
    family === 'wallet'
      ? body?.status === 'error' && typeof body?.message === 'string'
      : family === 'bulk'
        ? body?.errors !== undefined || typeof body?.error === 'string'
        : body?.error !== undefined;
  return shaped ? [] : [`not the ${family} error shape`];
}

async function send(method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await as(ctx.app, world.a.company).request(method, url, payload, { headers });
  let body: Json;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, text: res.body };
}

/** Sends each case; a case's problems are its family mismatch, a 500, or any table it changed. */
async function runCases(
  cases: {
    entry: RouteEntry;
    what: string;
    url: string;
    payload?: unknown;
    headers?: Record<string, string>;
    check: (status: number, body: Json) => string[];
  }[],
): Promise<string[]> {
  const problems: string[] = [];
  let before = await databaseFingerprint(ctx.db);
  for (const { entry, what, url, payload, headers, check } of cases) {
    const res = await send(entry.method as Method, url, payload, headers);
    const found = check(res.status, res.body);
    const after = await databaseFingerprint(ctx.db);
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length) found.push(`changed ${changed.join(', ')}`);
    before = after;
    for (const problem of found)
      problems.push(`${entry.method} ${entry.url} (${entry.name}) ${what}: ${problem}: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return problems;
}

const catalog = () => ctx.app.routeCatalog;

describe('NUL characters in any text input: a 4xx in the family shape naming the field, nothing written', () => {
  it('every string field of every write route body (from its schema and a valid body)', async () => {
    const cases = catalog()
      .filter(isWrite)
      .flatMap((entry) => {
        const schema = bodySchema(entry.schema);
        const base = bases[entry.name] ?? sample(schema ?? { type: 'object' });
        const fields = [...new Set([...stringFields(schema), ...stringLeaves(base)])];
        // A route without string fields still reads its body (U5-U7 `company_id`, `notify`).
        if (!fields.length) fields.push('note');
        return fields.map((field) => ({
          entry,
          what: `body ${field}`,
          url: fillPath(entry),
          payload: withValue(base, field, (old: unknown) => `${typeof old === 'string' ? old : 'x'}${NUL}`),
          check: (status: number, body: Json) => fieldProblems(entry, status, body, field),
        }));
      });
    expect(cases.length).toBeGreaterThan(60);
    expect(await runCases(cases)).toEqual([]);
  });

  it('every string query field of every route (and an unknown one)', async () => {
    const cases = catalog().flatMap((entry) => {
      const fields = [...stringFields(entry.schema?.querystring), 'note'];
      return fields.map((field) => ({
        entry,
        what: `query ${field}`,
        url: `${fillPath(entry)}?${encodeURIComponent(field.replace(/\.0$/, ''))}=x%00y`,
        check: (status: number, body: Json) => fieldProblems(entry, status, body, field.replace(/\.0$/, '')),
      }));
    });
    expect(await runCases(cases)).toEqual([]);
  });
});

describe('path ids that cannot exist: exactly the answer for a missing id', () => {
  it('every path parameter of every route: 99999999999999999999999, 2147483648 and a NUL answer like 2147483647', async () => {
    const problems: string[] = [];
    const before = await databaseFingerprint(ctx.db);
    const routes = catalog().filter((entry) => paramsOf(entry).length);
    expect(routes.length).toBeGreaterThan(20);
    for (const entry of routes) {
      for (const param of paramsOf(entry)) {
        const payload = isWrite(entry) ? (bases[entry.name] ?? {}) : undefined;
        const missing = await send(entry.method as Method, fillPath(entry, { [param]: MISSING }), payload);
        if (![403, 404].includes(missing.status))
          problems.push(`${entry.method} ${entry.url} ${param}=${MISSING}: ${missing.status} ${missing.text}`);
        for (const value of [HUGE, '2147483648', `1${NUL}`]) {
          const res = await send(entry.method as Method, fillPath(entry, { [param]: value }), payload);
          if (res.status !== missing.status || res.text !== missing.text)
            problems.push(
              `${entry.method} ${entry.url} ${param}=${JSON.stringify(value)}: ${res.status} ${res.text.slice(0, 200)}, expected ${missing.status} ${missing.text}`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
    const after = await databaseFingerprint(ctx.db);
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual([]);
  });
});

describe('out-of-range numbers in a query or body: a 4xx in the family shape, nothing written', () => {
  it('every integer or number field of every query and write body gets 1e23', async () => {
    const cases = catalog().flatMap((entry) => {
      const query = numberFields(entry.schema?.querystring).flatMap((field) =>
        [HUGE, `-${HUGE}`].map((value) => ({ entry, what: `query ${field}=${value}`, url: `${fillPath(entry)}?${field}=${value}` })),
      );
      const schema = isWrite(entry) ? bodySchema(entry.schema) : undefined;
      const base = bases[entry.name] ?? sample(schema ?? { type: 'object' });
      const body = numberFields(schema).flatMap((field) =>
        [1e23, -1e23, ...(takes(schema.properties[field], 'string') ? [HUGE] : [])].map((value) => ({
          entry,
          what: `body ${field}=${value}`,
          url: fillPath(entry),
          payload: withValue(base, field, value),
        })),
      );
      return [...query, ...body].map((probe) => ({
        ...probe,
        check: (status: number, res: Json) => errorShapeProblems(entry.family, status, res),
      }));
    });
    expect(cases.length).toBeGreaterThan(20);
    expect(await runCases(cases)).toEqual([]);
  });
});

describe("numbers that are not finite: the field's validation answer in the family shape, nothing written", () => {
  const NON_FINITE = ['1e309', 'Infinity', '-Infinity', 'NaN', '1e400'];
  /** The tenancy check answers a `company_id` that is not an id with its documented 400 (docs/reference.md, "Common rules"). */
  const check = (entry: RouteEntry, field: string) => (status: number, body: Json) =>
    field === 'company_id' ? errorShapeProblems(entry.family, status, body) : fieldProblems(entry, status, body, field);

  it('every numeric query parameter of every route gets 1e309, Infinity, -Infinity, NaN and 1e400', async () => {
    const cases = catalog().flatMap((entry) =>
      numberFields(entry.schema?.querystring).flatMap((field) =>
        NON_FINITE.map((value) => ({
          entry,
          what: `query ${field}=${value}`,
          url: `${fillPath(entry)}?${field}=${value}`,
          check: check(entry, field),
        })),
      ),
    );
    // page, per_page, count, startIndex, user_id and company_id of users, paystubs, companies,
    // invoices, wallet transactions, payroll runs, webhooks...
    expect(cases.length).toBeGreaterThan(100);
    expect(await runCases(cases)).toEqual([]);
  });

  it('every integer or number field of every write body gets the JSON numbers 1e309 and -1e309', async () => {
    const cases = catalog()
      .filter(isWrite)
      .flatMap((entry) => {
        const schema = bodySchema(entry.schema);
        const base = bases[entry.name] ?? sample(schema ?? { type: 'object' });
        return numberFields(schema).flatMap((field) =>
          ['1e309', '-1e309'].map((value) => ({
            entry,
            what: `body ${field}=${value}`,
            url: fillPath(entry),
            // JSON.parse reads 1e309 as Infinity; JSON.stringify cannot write it.
            payload: JSON.stringify(withValue(base, field, 'NON_FINITE')).replace('"NON_FINITE"', value),
            headers: { 'content-type': 'application/json' },
            check: (status: number, body: Json) =>
              entry.ownInputChecks ? errorShapeProblems(entry.family, status, body) : check(entry, field)(status, body),
          })),
        );
      });
    expect(cases.length).toBeGreaterThan(10);
    expect(await runCases(cases)).toEqual([]);
  });
});

// Last: routes that ignore their body (U5 deactivate, U7 delete...) act on a multipart request as
// on any other, changing the world the cases above use.
describe('malformed multipart bodies: never a 5xx; a route that reads multipart answers 400, nothing written', () => {
  const MALFORMED: [string, string, string][] = [
    ['a JSON body under a multipart boundary', 'multipart/form-data; boundary=xyz', '{"first_name":"x"}'],
    ['no boundary', 'multipart/form-data', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--xyz--\r\n'],
    ['a part cut short', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb'],
    [
      'a file cut short',
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="users_csv"; filename="u.csv"\r\nContent-Type: text/csv\r\n\r\nfirst_name',
    ],
  ];
  const readsMultipart = (entry: RouteEntry) => [entry.schema?.consumes ?? []].flat().includes('multipart/form-data');

  it('every route that reads multipart (U4, U8, U9) answers 400 "Malformed multipart body." in its family shape', async () => {
    const readers = catalog().filter(readsMultipart);
    expect(readers.map((entry) => entry.name).sort()).toEqual([
      'users.bulk-create',
      'users.bulk-update',
      'users.update',
      'users.year-to-date.import',
    ]);
    const cases = readers.flatMap((entry) =>
      MALFORMED.map(([what, type, payload]) => ({
        entry,
        what,
        url: fillPath(entry),
        payload,
        headers: { 'content-type': type },
        check: (status: number, body: Json) =>
          status === 400 && body?.error === 'Malformed multipart body.' ? [] : ['expected 400 {error: "Malformed multipart body."}'],
      })),
    );
    expect(await runCases(cases)).toEqual([]);
  });

  it('every other route: never a 5xx, a 4xx in the family shape', async () => {
    const problems: string[] = [];
    for (const entry of catalog().filter((candidate) => !readsMultipart(candidate))) {
      for (const [what, type, payload] of MALFORMED) {
        const res = await send(entry.method as Method, fillPath(entry), payload, { 'content-type': type });
        const found = res.status < 400 ? [] : errorShapeProblems(entry.family, res.status, res.body);
        for (const problem of found)
          problems.push(`${entry.method} ${entry.url} ${what}: ${problem}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
