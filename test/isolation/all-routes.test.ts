// Tenant isolation over every named /api route (docs/architecture.md, "Design rules", rule 9;
// docs/reference.md, "Common rules"). Company A sends, for each route, the requests that name
// unrelated company B's resources: B's ids in the path, company_id=B (or B's child) in
// query/body/form, B's user ids and e-mails inside bodies and CSV files. Each must be refused
// (403/404, or the documented per-item/422 failure), never 2xx with B's data, never 500; the answer
// carries nothing that identifies B unless A sent it; it is byte-for-byte the answer to the same
// request naming a resource that does not exist (no existence oracle); and the database is unchanged
// afterwards. B's data, read through B's own API, is the same before and after the whole matrix. The
// matrix cannot go stale: the registered routes must equal ROUTE_NAMES, and every registered method
// + path must be reached by at least one probe, or the coverage test fails.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/app.js';
import { ROUTE_NAMES } from '../../src/platform/auth/tokens.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import type { TestCompany } from '../helpers/factories.js';
import { anonymous, as } from '../helpers/http.js';
import { buildProbes, type Probe } from './probes.js';
import { buildWorld, databaseFingerprint, type Victim, victimView, type World } from './world.js';

/**
 * Isolation bugs found by this matrix, keyed `route | what` (the probe's description). Each runs
 * as `it.fails` until the feature is fixed; then the `it.fails` fails and the entry must go.
 */
const KNOWN_BUGS: Record<string, string> = {};
const SCOPE_DENIED = 'This token is not allowed to access this endpoint.';

let ctx: TestContext;
let world: World;
let probes: Probe[];
let ghosts: Probe[];
let viewBefore: Record<string, unknown>;
let rowsBefore: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp({ paymentProvider: 'sandbox' });
  world = await buildWorld(ctx.app, ctx.db);
  const aTree = [world.a.company.id, world.a.child];
  probes = buildProbes(world.a, world.victim, aTree, world.replays);
  ghosts = buildProbes(world.a, world.ghost, aTree, world.replays);
  viewBefore = await victimView(ctx.app, world);
  rowsBefore = await databaseFingerprint(ctx.db, [world.victim.company, world.victim.child]);
});
afterAll(() => ctx?.close());

const key = (probe: Probe) => `${probe.route} | ${probe.what}`;

function patternOf(url: string): RegExp {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The catalog entry a request reaches: static segments win over parameters, as in find-my-way. */
function routeOf(catalog: RouteEntry[], method: string, url: string): RouteEntry | undefined {
  const path = url.split('?')[0];
  const matches = catalog.filter((entry) => entry.method === method && patternOf(entry.url).test(path));
  return matches.sort((x, y) => (x.url.match(/:/g)?.length ?? 0) - (y.url.match(/:/g)?.length ?? 0))[0];
}

function send(probe: Probe, auth: Record<string, string> | undefined): Promise<LightMyRequestResponse> {
  // A probe's headers never carry authorization (helpers/isolation.ts), so the caller's token is kept.
  return as(ctx.app, auth ? { auth } : anonymous).request(probe.method, probe.url, probe.payload, { headers: probe.headers });
}

function requestText(probe: Probe): string {
  const payload = probe.payload;
  const text =
    payload === undefined
      ? ''
      : Buffer.isBuffer(payload)
        ? payload.toString('utf8')
        : typeof payload === 'string'
          ? payload
          : JSON.stringify(payload);
  return `${decodeURIComponent(probe.url)}\n${text}`.toLowerCase();
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

function dropVolatile(value: unknown, keys: string[]): unknown {
  if (!keys.length || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => dropVolatile(item, keys));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !keys.includes(k))
      .map(([k, v]) => [k, dropVolatile(v, keys)]),
  );
}

/** The ghost's answer with every ghost identifier put back to B's, for comparison. */
function unghost(body: string, ghost: Victim, victim: Victim): string {
  const pairs = (Object.keys(ghost) as (keyof Victim)[])
    .filter((field) => ghost[field] !== victim[field])
    .map((field) => [String(ghost[field]), String(victim[field])] as const)
    .sort((x, y) => y[0].length - x[0].length);
  let out = body;
  for (const [from, to] of pairs) out = out.split(from).join(to);
  return out;
}

const changedTables = (before: Record<string, string>, after: Record<string, string>, skip: string[] = []) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((table) => !skip.includes(table) && before[table] !== after[table]);

/**
 * Runs one probe (and its ghost twin) as A; returns the problems found, empty when isolated.
 * `state.last` is the database fingerprint before it; writes are checked after every non-GET probe
 * (a GET that writes is caught by the route's closing fingerprint).
 */
async function runProbe(
  probe: Probe,
  ghost: Probe | undefined,
  state: { last: Record<string, string> },
  caller: TestCompany = world.a.company,
): Promise<string[]> {
  const problems: string[] = [];
  const label = `${probe.method} ${probe.url} [${key(probe)}]`;
  const victimCompanies = [world.victim.company, world.victim.child];
  const victimBefore = probe.mayWrite ? await databaseFingerprint(ctx.db, victimCompanies) : undefined;
  const res = await send(probe, caller.auth);
  const allow = probe.allow ?? [403, 404];
  if (!allow.includes(res.statusCode))
    problems.push(`${label}: answered ${res.statusCode}, expected one of ${allow.join('/')}: ${res.body.slice(0, 500)}`);
  const sent = requestText(probe);
  for (const secret of world.secrets) {
    const s = secret.toLowerCase();
    if (!sent.includes(s) && res.body.toLowerCase().includes(s))
      problems.push(`${label}: the answer contains B's "${secret}": ${res.body.slice(0, 500)}`);
  }
  const body = parse(res.body);
  if (res.statusCode < 300 && probe.check && allow.includes(res.statusCode)) {
    try {
      probe.check(body);
    } catch (error) {
      problems.push(`${label}: ${(error as Error).message}: ${res.body.slice(0, 500)}`);
    }
  }
  if (ghost && probe.compare !== false) {
    const twin = await send(ghost, caller.auth);
    const volatile = probe.volatile ?? [];
    const mine = dropVolatile(body, volatile);
    const theirs = dropVolatile(parse(unghost(twin.body, world.ghost, world.victim)), volatile);
    if (twin.statusCode !== res.statusCode || JSON.stringify(mine) !== JSON.stringify(theirs)) {
      problems.push(
        `${label}: B's resource is distinguishable from a missing one: ${res.statusCode} ${res.body.slice(0, 300)} vs ${twin.statusCode} ${twin.body.slice(0, 300)}`,
      );
    }
  }
  if (process.env.ISOLATION_DUMP) console.log(`${res.statusCode} ${label} -> ${res.body.slice(0, 200)}`);
  if (probe.method !== 'GET') {
    const after = await databaseFingerprint(ctx.db);
    const changed = changedTables(state.last, after, probe.mayWrite);
    if (changed.length) problems.push(`${label}: changed the database (tables ${changed.join(', ')})`);
    if (victimBefore) {
      const touched = changedTables(victimBefore, await databaseFingerprint(ctx.db, victimCompanies));
      if (touched.length) problems.push(`${label}: changed B's rows in ${touched.join(', ')}`);
    }
    state.last = after;
  }
  return problems;
}

/** Runs probes in order; the closing fingerprint catches writes by GET probes. */
async function runProbes(list: Probe[], caller?: TestCompany): Promise<string[]> {
  const state = { last: await databaseFingerprint(ctx.db) };
  const problems: string[] = [];
  for (const probe of list) problems.push(...(await runProbe(probe, caller ? undefined : ghosts[probes.indexOf(probe)], state, caller)));
  const changed = changedTables(state.last, await databaseFingerprint(ctx.db));
  if (changed.length) problems.push(`a GET probe of ${list[0]?.route} changed the database (tables ${changed.join(', ')})`);
  return problems;
}

describe('coverage: the matrix names every registered /api route', () => {
  it('the routes registered with a config.name are exactly ROUTE_NAMES', () => {
    const registered = new Set(ctx.app.routeCatalog.map((route) => route.name));
    expect([...registered].sort()).toEqual([...ROUTE_NAMES].sort());
  });

  it('every registered method and path is reached by at least one probe, and each probe reaches the route it names', () => {
    const catalog = ctx.app.routeCatalog;
    const reached = new Set<string>();
    const wrong: string[] = [];
    for (const probe of probes) {
      const entry = routeOf(catalog, probe.method, probe.url);
      if (!entry || entry.name !== probe.route)
        wrong.push(`${probe.method} ${probe.url} names ${probe.route} but reaches ${entry?.name ?? 'nothing'}`);
      if (entry) reached.add(`${entry.method} ${entry.url}`);
    }
    expect(wrong).toEqual([]);
    const missing = catalog
      .map((entry) => `${entry.method} ${entry.url} (${entry.name})`)
      .filter((label) => !reached.has(label.replace(/ \(.*\)$/, '')));
    expect(missing, 'routes with no isolation case in test/isolation/probes.ts').toEqual([]);
    expect(probes.map(key)).toEqual(ghosts.map(key));
    expect(new Set(probes.map(key)).size, 'probe descriptions must be unique').toBe(probes.length);
  });
});

describe('as company A, naming unrelated company B', () => {
  for (const name of ROUTE_NAMES) {
    it(`${name}: refused, nothing of B in the answer, indistinguishable from a missing resource, nothing written`, async () => {
      const mine = probes.filter((probe) => probe.route === name);
      expect(mine.length, `no probe for ${name}`).toBeGreaterThan(0);
      const problems = await runProbes(mine.filter((probe) => !KNOWN_BUGS[key(probe)]));
      expect(problems).toEqual([]);
    });
  }

  for (const [bug, description] of Object.entries(KNOWN_BUGS)) {
    it.fails(`KNOWN BUG ${bug}: ${description}`, async () => {
      const probe = probes.find((candidate) => key(candidate) === bug);
      expect(probe, `no probe ${bug}`).toBeDefined();
      expect(await runProbes([probe as Probe])).toEqual([]);
    });
  }

  it("A's child, naming its parent A wherever the matrix names company B, is refused too (the tree only reaches down)", async () => {
    const A = world.a.company.id;
    // The child's token works for the child itself, so the refusals below are about the target.
    expect((await as(ctx.app, world.a.childCompany).get('/api/users')).statusCode).toBe(200);
    const upward: Victim = { ...world.victim, company: A, child: A, companyRes: A, childRes: A };
    const asChild = { ...world.a, company: world.a.childCompany };
    const list = buildProbes(asChild, upward, [world.a.child], world.replays).filter((probe) =>
      /company_id=B|B path|^B$|^B's child$/.test(probe.what),
    );
    expect(new Set(list.map((probe) => probe.route)).size).toBeGreaterThan(30);
    expect(await runProbes(list, world.a.childCompany)).toEqual([]);
  });

  it("B's data, read through B's own API, is unchanged by the whole matrix", async () => {
    expect(await victimView(ctx.app, world)).toEqual(viewBefore);
    expect(await databaseFingerprint(ctx.db, [world.victim.company, world.victim.child]), "B's rows in the database").toEqual(rowsBefore);
  });
});

describe('authentication and scopes on every named route', () => {
  /** One probe per registered method + path (the first that reaches it). */
  const perRoute = () => {
    const seen = new Map<string, Probe>();
    for (const probe of probes) {
      const entry = routeOf(ctx.app.routeCatalog, probe.method, probe.url);
      const id = entry ? `${entry.method} ${entry.url}` : '';
      if (entry && !seen.has(id)) seen.set(id, probe);
    }
    return [...seen.values()];
  };

  it('no token: 401 {error: "Unauthorized"} with the four X-RateLimit headers', async () => {
    const problems: string[] = [];
    for (const probe of perRoute()) {
      for (const auth of [undefined, { authorization: 'Bearer pk_not-a-real-token' }, { authorization: 'Basic Zm9vOmJhcg==' }]) {
        const res = await send(probe, auth);
        const label = `${probe.method} ${probe.url} with ${auth ? auth.authorization.split(' ')[0] : 'no'} credentials`;
        if (res.statusCode !== 401 || res.body !== JSON.stringify({ error: 'Unauthorized' }))
          problems.push(`${label}: ${res.statusCode} ${res.body}`);
        for (const header of [
          'x-ratelimit-limit-endpoint',
          'x-ratelimit-remaining-endpoint',
          'x-ratelimit-limit-global',
          'x-ratelimit-remaining-global',
        ]) {
          if (!/^\d+$/.test(String(res.headers[header] ?? ''))) problems.push(`${label}: header ${header} is ${res.headers[header]}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('a token scoped to an unrelated route: 403 {error: "This token is not allowed to access this endpoint."}', async () => {
    const problems: string[] = [];
    const before = await databaseFingerprint(ctx.db);
    for (const probe of perRoute()) {
      const other = probe.route === 'wallet.balance' ? world.scoped.usersIndexOnly : world.scoped.walletBalanceOnly;
      const res = await send(probe, other.auth);
      // docs/reference.md, "Authentication and scopes": refusals of the authentication layer are
      // {error} on every route, wallet too.
      const expected = { error: SCOPE_DENIED };
      if (res.statusCode !== 403 || res.body !== JSON.stringify(expected)) {
        problems.push(`${probe.method} ${probe.url}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await databaseFingerprint(ctx.db)).toEqual(before);
  });
});
