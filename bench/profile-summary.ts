// Summarizes a V8 .cpuprofile (from `BENCH_CPU_PROF=1 npm run bench`): self time by package or
// source file, the top functions, and our own functions by inclusive time.
// Usage: npx tsx bench/profile-summary.ts [server | query-server | fastify-server | file.cpuprofile]
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The main thread's profile of a process: the largest file (tsx's loader thread writes a small one). */
function mainProfile(label: string): string {
  const dir = path.join(repoRoot, 'bench', 'results', 'profiles', label);
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (!files[0]) throw new Error(`no .cpuprofile in ${dir}`);
  return files[0];
}

/** node_modules/<package>, a file of ours, a Node internal, or V8's own buckets. */
function bucketOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return url.split('/')[0] === 'node:internal' ? 'node:internal' : url;
  // The server runs compiled (dist/x.js, one file per src/x.ts): report it under its source name.
  const relative = url.replace(/^file:\/\//, '').replace(`${repoRoot}/`, '');
  return relative.replace(/^dist\/(.*)\.js$/, 'src/$1.ts');
}

const argument = process.argv[2] ?? 'server';
const file = argument.endsWith('.cpuprofile') ? argument : mainProfile(argument);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
for (const [index, id] of profile.samples.entries()) selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

const buckets = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const { callFrame } = byId.get(id) as ProfileNode;
  const bucket = bucketOf(callFrame.url, callFrame.functionName);
  buckets.set(bucket, (buckets.get(bucket) ?? 0) + micros);
  const name = `${callFrame.functionName || '(anonymous)'} ${bucket}:${callFrame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + micros);
}

// Inclusive time of our own functions (src/): what authentication, limits or a repo cost in all.
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const inclusive = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  if ((byId.get(id) as ProfileNode).callFrame.functionName === '(idle)') continue;
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
    const { callFrame } = byId.get(current) as ProfileNode;
    const bucket = bucketOf(callFrame.url, callFrame.functionName);
    if (!bucket.startsWith('src/')) continue;
    const name = `${callFrame.functionName || '(anonymous)'} ${bucket}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
  }
}

const busy = total - (buckets.get('(idle)') ?? 0);
const show = (title: string, entries: Map<string, number>, limit: number) => {
  console.log(`\n${title} (share of busy time ${(busy / 1e6).toFixed(1)} s; idle excluded)`);
  for (const [name, micros] of [...entries]
    .filter(([name]) => name !== '(idle)' && !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)) {
    console.log(`${((100 * micros) / busy).toFixed(1).padStart(6)}%  ${name}`);
  }
};
console.log(`${path.relative(process.cwd(), file)}: ${(total / 1e6).toFixed(1)} s sampled, ${((100 * busy) / total).toFixed(0)}% busy`);
show('Self time by package / file', buckets, 25);
show('Top functions by self time', functions, 30);
show('Our functions (src/) by inclusive time', inclusive, 20);
