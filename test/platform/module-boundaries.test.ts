// The design rules of docs/architecture.md ("Design rules", "The module contract"), checked on every
// file of src/, test/ and bench/: a feature is reached only through src/modules/<feature>/index.ts;
// platform/, the payroll engine and db/ import no feature and not the console; db/ imports nothing
// above it; features do not import the console or the app; feature modules import each other
// without cycles; src/ has no import cycle at all; SQL is written only in `*.repo.ts` files and
// db/; the console reaches the database only through services; bench/ uses public entries only;
// and feature and console files carry one of the role suffixes of "Design rules".
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Files allowed to reach into a feature, with why. bench/bare is the benchmark's baseline: the
 * users list's own repo query and serializer with nothing of the platform around them, so it must
 * call the repo itself (through the module's services it would time the service too).
 */
const ALLOWED_INTERNAL_IMPORTS = new Set(['bench/bare/query-server.ts']);

/**
 * Non-repo files of src/ allowed to hold SQL, with why. Empty: every statement, fragment and query
 * builder call lives in a `*.repo.ts` file or in src/db/ (the client, the migration runner, the
 * company tree, the schema mirror). Add a file here only with the reason it cannot have a repo.
 */
const ALLOWED_SQL_FILES = new Map<string, string>([]);

/**
 * The closed set of file roles of docs/architecture.md ("File roles"): every file of a feature
 * (src/modules/) and of the console (src/web/) is `index.ts` or `<name>.<role>.ts`, where `<name>`
 * may have a qualifier (`users.create.planner.ts`) and `<role>` is one of these.
 */
const FILE_ROLES = new Set([
  'routes',
  'schemas',
  'service',
  'repo',
  'planner',
  'rules',
  'serializer',
  'validation',
  'jobs',
  'events',
  'mail',
  'provider',
  'view',
  'data',
  'types',
  'test',
  'browser.test',
]);

/** Whether a feature or console file is `index.ts` or kebab-case `<name>[.<qualifier>].<role>.ts` with a role of FILE_ROLES. */
function hasRole(file: string): boolean {
  const base = path.posix.basename(file, '.ts');
  if (base === 'index') return true;
  const parts = base.split('.');
  const role = base.endsWith('.browser.test') ? 'browser.test' : parts[parts.length - 1];
  const nameParts = parts.slice(0, parts.length - role.split('.').length);
  return FILE_ROLES.has(role) && nameParts.length > 0 && nameParts.every((part) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(part));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'migrations') out.push(...sourceFiles(rel));
    } else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

// Static imports and re-exports (`import ... from`, `export ... from`, `import '...'`) and
// `import('...')` expressions, type-only ones included: a type dependency is a dependency too.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

interface Edge {
  from: string;
  to: string;
}

/** A file's code: comment lines are blanked (not removed, so line numbers hold): they may quote imports or SQL. */
const codeOf = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*(\/\/|\/\*|\*).*$/gm, '');

/** A relative specifier of `file`, resolved to a repository path (`.js` specifiers name `.ts` files). */
function resolveSpecifier(file: string, specifier: string): string {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
  if (/\.[cm]?[jt]s$/.test(target)) return target;
  return fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;
}

/** Relative imports of `file`, resolved to repository paths. */
function importsOf(file: string): Edge[] {
  const edges: Edge[] = [];
  for (const match of codeOf(file).matchAll(IMPORT)) {
    const specifier = match[1];
    if (specifier.startsWith('.')) edges.push({ from: file, to: resolveSpecifier(file, specifier) });
  }
  return edges;
}

/**
 * Signs of SQL in a file's code (design rule 5: "All SQL of a feature is in its repo file"). A
 * heuristic, tuned to how this code base writes SQL: Drizzle's `sql` tag and helpers, `queryRows`,
 * `.execute(` of a statement, string literals that open a statement (upper-case keywords, as every
 * statement here is written), and any value imported from drizzle-orm or the schema's tables (the
 * query builder: `db.select().from(users)` needs both). Type-only imports are not SQL.
 */
const SQL_SIGNS: readonly (readonly [string, RegExp])[] = [
  ['sql`` template', /\bsql(?:<[^>`]*>)?`/],
  ['sql.raw/join', /\bsql\.(?:raw|join|empty|identifier|placeholder)\(/],
  ['queryRows(', /\bqueryRows\s*[<(]/],
  ['.execute( of a statement', /\.execute\(\s*(?:sql\b|['"`])/],
  [
    'SQL string literal',
    /['"`]\s*(?:SELECT\s[^'"`]*\bFROM\b|SELECT\s+\d|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|WITH\s+(?:RECURSIVE\s+)?\w+\s+AS\s*\()/,
  ],
];
const IMPORT_STATEMENT = /\bimport\s+(type\s+)?([\w*{}\s,$]+?)\s+from\s*['"]([^'"]+)['"]/g;

/** Where `text` (the code of `file`) shows SQL: `line N: what`, empty when it shows none. */
function sqlSigns(file: string, text: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const [what, pattern] of SQL_SIGNS) if (pattern.test(line)) found.push(`line ${index + 1}: ${what}`);
  });
  for (const match of text.matchAll(IMPORT_STATEMENT)) {
    const [, typeOnly, bindings, source] = match;
    if (typeOnly) continue;
    const values = bindings
      .replace(/[{}]/g, ',')
      .split(',')
      .map((binding) => binding.trim())
      .filter((binding) => binding && !binding.startsWith('type '));
    if (values.length === 0) continue;
    const target = source.startsWith('.') ? resolveSpecifier(file, source) : source;
    const where = `line ${lineOf(match.index)}`;
    if (/^drizzle-orm(\/|$)/.test(target)) found.push(`${where}: values imported from drizzle-orm`);
    else if (/(^|\/)src\/db\/schema\//.test(target)) found.push(`${where}: tables imported (the query builder)`);
    else if (/(^|\/)src\/db\/client\.ts$/.test(target) && values.some((value) => /^(sql|queryRows)\b/.test(value)))
      found.push(`${where}: sql or queryRows imported from db/client`);
  }
  return found;
}

/** Files of src/ that may hold SQL: repos, tests (they read and arrange the database) and db/ itself. */
const maySql = (file: string) =>
  file.endsWith('.repo.ts') || file.endsWith('.test.ts') || file.startsWith('src/db/') || ALLOWED_SQL_FILES.has(file);

const files = [...sourceFiles('src'), ...sourceFiles('test'), ...sourceFiles('bench')];
const edges = files.flatMap(importsOf);

const featureOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
/** The layers beneath every feature: the platform, the pure payroll engine, the database, config. */
const isLowerLayer = (file: string) => /^src\/(platform|tax-engine|db)\//.test(file) || file === 'src/config.ts';
const describeEdge = (edge: Edge) => `${edge.from} -> ${edge.to}`;

describe('module boundaries', () => {
  it('finds the imports it checks (the parser is not blind)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.some((edge) => edge.from === 'src/app.ts' && edge.to === 'src/modules/index.ts')).toBe(true);
    expect(edges.some((edge) => edge.to === 'src/modules/users/users.service.ts')).toBe(true);
  });

  it('every import resolves to a file', () => {
    expect(edges.filter((edge) => !fs.existsSync(path.join(ROOT, edge.to))).map(describeEdge)).toEqual([]);
  });

  it('a feature is imported from outside only through its index.ts', () => {
    const offending = edges.filter((edge) => {
      const feature = featureOf(edge.to);
      if (!feature || featureOf(edge.from) === feature || ALLOWED_INTERNAL_IMPORTS.has(edge.from)) return false;
      return edge.to !== `src/modules/${feature}/index.ts`;
    });
    expect(offending.map(describeEdge)).toEqual([]);
  });

  it('platform/, the payroll engine, db/ and config import no feature, no console and not the app', () => {
    const offending = edges.filter(
      (edge) =>
        isLowerLayer(edge.from) && (edge.to.startsWith('src/modules/') || edge.to.startsWith('src/web/') || edge.to === 'src/app.ts'),
    );
    expect(offending.map(describeEdge)).toEqual([]);
  });

  it('features import neither the console nor the app (the console is composed in app.ts)', () => {
    const offending = edges.filter(
      (edge) => edge.from.startsWith('src/modules/') && (edge.to.startsWith('src/web/') || edge.to === 'src/app.ts'),
    );
    expect(offending.map(describeEdge)).toEqual([]);
  });

  it('SQL is written only in *.repo.ts files and db/ (design rule 5)', () => {
    const offending = files
      .filter((file) => file.startsWith('src/') && !maySql(file))
      .flatMap((file) => sqlSigns(file, codeOf(file)).map((sign) => `${file} ${sign}`));
    expect(offending).toEqual([]);
    // The allow-list names only files that exist and still need it.
    expect([...ALLOWED_SQL_FILES.keys()].filter((file) => !files.includes(file) || sqlSigns(file, codeOf(file)).length === 0)).toEqual([]);
  });

  it('finds SQL where it is written (the SQL detector is not blind)', () => {
    const signs = (text: string) => sqlSigns('src/modules/x/x.service.ts', text);
    // Built, so that the import scanner above does not take these samples for this file's imports.
    const importOf = (bindings: string, source: string) => `import ${bindings} from '${source}';`;
    expect(signs('await db.execute(sql`SELECT 1`);')).toHaveLength(3);
    expect(signs('const part = sql<string>`coalesce(total, 0)`;')).toHaveLength(1);
    expect(signs('const cases = sql.join(parts, sep);')).toHaveLength(1);
    expect(signs('const rows = await queryRows<{ id: number }>(tx, statement);')).toHaveLength(1);
    expect(signs("await client.query('DELETE FROM jobs WHERE id = $1', [id]);")).toHaveLength(1);
    expect(signs('const text = `WITH m AS (SELECT id FROM outbox) UPDATE outbox SET sent_at = now()`;')).toHaveLength(1);
    expect(signs("const statement = 'INSERT INTO users (id) VALUES ($1)';")).toHaveLength(1);
    expect(signs("import { eq } from 'drizzle-orm';")).toEqual(['line 1: values imported from drizzle-orm']);
    expect(signs(importOf('{ users }', '../../db/schema/index.js'))).toEqual(['line 1: tables imported (the query builder)']);
    expect(signs(importOf('{ type Executor, queryRows }', '../../db/client.js'))).toHaveLength(1);
    // Not SQL: type-only imports, an HTTP method, English that starts with a keyword, the executor type.
    expect(signs(`import type { SQL } from 'drizzle-orm';\n${importOf('{ type Users }', '../../db/schema/index.js')}`)).toEqual([]);
    expect(signs("request('DELETE', `/admin/companies/1/token`);\nconst hint = 'Select a file from the list';")).toEqual([]);
    expect(signs(importOf('type { Db, Executor }', '../../db/client.js'))).toEqual([]);
    // And on the real code: the users repo is full of it, the users routes have none.
    expect(sqlSigns('src/modules/users/users.repo.ts', codeOf('src/modules/users/users.repo.ts')).length).toBeGreaterThan(3);
    expect(sqlSigns('src/modules/users/users.routes.ts', codeOf('src/modules/users/users.routes.ts'))).toEqual([]);
  });

  it('the console (web/) calls services: it imports nothing of db/ and has no repo (design rule 12)', () => {
    const source = (file: string) => file.startsWith('src/web/') && !file.endsWith('.test.ts');
    const offending = edges.filter((edge) => source(edge.from) && edge.to.startsWith('src/db/')).map(describeEdge);
    expect([...offending, ...files.filter((file) => source(file) && file.endsWith('.repo.ts'))]).toEqual([]);
  });

  it('db/ imports nothing above it (no platform/, modules/, web/, config or app)', () => {
    const offending = edges.filter((edge) => edge.from.startsWith('src/db/') && !edge.to.startsWith('src/db/'));
    expect(offending.map(describeEdge)).toEqual([]);
  });

  it('bench/ imports only public entries of src/', () => {
    const isPublic = (file: string) =>
      /^src\/modules\/[^/]+\/index\.ts$/.test(file) ||
      /^src\/(tax-engine|db)\//.test(file) ||
      file === 'src/app.ts' ||
      file === 'src/config.ts';
    const offending = edges.filter(
      (edge) =>
        edge.from.startsWith('bench/') &&
        edge.to.startsWith('src/') &&
        !isPublic(edge.to) &&
        !(ALLOWED_INTERNAL_IMPORTS.has(edge.from) && featureOf(edge.to) === 'users'),
    );
    expect(offending.map(describeEdge)).toEqual([]);
  });

  it('feature and console files carry a role of the closed set (design rule 13)', () => {
    const roled = files.filter((file) => /^src\/(modules|web)\//.test(file));
    expect(roled.filter((file) => !hasRole(file))).toEqual([]);
  });

  it('the role check refuses what it should', () => {
    expect(['src/web/index.ts', 'src/modules/users/users.create.planner.ts', 'src/web/console.browser.test.ts'].map(hasRole)).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      ['src/modules/x/x.helpers.ts', 'src/modules/x/nuban.ts', 'src/modules/x/Bad_Name.service.ts', 'src/modules/x/.repo.ts'].map(hasRole),
    ).toEqual([false, false, false, false]);
  });

  it('the graph of features has no cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of edges) {
      const from = featureOf(edge.from);
      const to = featureOf(edge.to);
      if (from && to && from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
    expect(findCycles(graph)).toEqual([]);
  });

  it('the cycle finder finds cycles', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual(['a -> b -> c -> a']);
  });

  // docs/operations.md, "Operator tasks": `--help`, usage errors and commands over HTTP start without
  // the app (~1.2 s of CPU to load); the commands on the database import it when they run.
  it("the CLI's entry loads neither the app's modules nor a database driver until a command needs them", () => {
    const loaded = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const [, typeOnly, , source] of codeOf(file).matchAll(IMPORT_STATEMENT)) {
        if (typeOnly) continue;
        if (source.startsWith('.')) visit(resolveSpecifier(file, source));
        else if (!source.startsWith('node:')) packages.add(source);
      }
    };
    visit('src/cli/main.ts');
    expect(loaded).toContain('src/cli/operator-client.ts');
    const heavy = [...loaded].filter((file) =>
      /^src\/(modules|web|platform\/(?!guards\.ts$))|^src\/(app|runtime|db\/client)\.ts$/.test(file),
    );
    expect(heavy).toEqual([]);
    // Only Node's own modules: every database driver, Fastify and the rest are packages.
    expect([...packages]).toEqual([]);
  });

  it('src/ has no import cycle between files (tests aside)', () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of edges)
      if (edge.from.startsWith('src/') && !edge.from.endsWith('.test.ts'))
        graph.set(edge.from, (graph.get(edge.from) ?? new Set()).add(edge.to));
    expect(findCycles(graph)).toEqual([]);
  });
});

/** Each cycle found by a depth-first search, as `a -> b -> a`. */
function findCycles(graph: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
