// The module shape (docs/architecture.md, "Modules"), checked on every import of src/, test/ and
// bench/: a feature is reached only through src/modules/<feature>/index.ts; platform/, the payroll
// engine and db/ import no feature and not the console; features do not import the console or the
// app; feature modules import each other without cycles; and src/ has no import cycle at all.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Files allowed to reach into a feature, with why. bench/bare is the benchmark's baseline: the
 * users list's own repo query and serializer with nothing of the platform around them.
 */
const ALLOWED_INTERNAL_IMPORTS = new Set(['bench/bare/query-server.ts']);

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

/** Relative imports of `file`, resolved to repository paths (`.js` specifiers name `.ts` files). */
function importsOf(file: string): Edge[] {
  // Comment lines are blanked (not removed, so offsets stay line-true): they may quote imports.
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^\s*(\/\/|\/\*|\*).*$/gm, '');
  const edges: Edge[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1];
    if (!specifier.startsWith('.')) continue;
    let target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    if (!/\.[cm]?[jt]s$/.test(target)) target = fs.existsSync(path.join(ROOT, `${target}.ts`)) ? `${target}.ts` : `${target}/index.ts`;
    edges.push({ from: file, to: target });
  }
  return edges;
}

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
