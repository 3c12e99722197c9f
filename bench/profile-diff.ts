// Compares two processes' V8 CPU profiles per request: which functions the real server spends more
// CPU on than the baseline. Self time per function, divided by the requests each process served.
// Usage: BENCH_CPU_PROF=1 BENCH_ONLY='bare-query|users-list' npm run bench, then
//        npx tsx bench/profile-diff.ts server <its requests> query-server <its requests>
// (requests = req/s × measured seconds). Start-up work is included in both profiles: compile and
// schema-building functions near the top are the server's start-up, not per-request cost.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/processes.js';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

function selfTimes(label: string): { byFunction: Map<string, number>; total: number } {
  const dir = path.join(repoRoot, 'bench', 'results', 'profiles', label);
  const [file] = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id);
    if (!frame || frame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[index] ?? 0;
    total += micros;
    // A package's functions by package; ours by name only (the baseline is a bundle, the server dist/).
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
    const where = pkg ?? (frame.url.startsWith('node:') ? frame.url : frame.url ? 'app' : '');
    const name = `${frame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  });
  return { byFunction, total };
}

const [labelA, requestsA, labelB, requestsB] = process.argv.slice(2);
if (!labelA || !labelB || !(Number(requestsA) > 0) || !(Number(requestsB) > 0)) {
  console.error('usage: npx tsx bench/profile-diff.ts <process> <requests> <baseline process> <requests>');
  process.exit(2);
}
const a = selfTimes(labelA);
const b = selfTimes(labelB);
const perA = (micros: number) => micros / Number(requestsA);
const perB = (micros: number) => micros / Number(requestsB);
console.log(`busy CPU per request: ${labelA} ${perA(a.total).toFixed(0)} µs, ${labelB} ${perB(b.total).toFixed(0)} µs`);
const names = new Set([...a.byFunction.keys(), ...b.byFunction.keys()]);
const rows = [...names].map((name) => {
  const x = perA(a.byFunction.get(name) ?? 0);
  const y = perB(b.byFunction.get(name) ?? 0);
  return { name, x, y, extra: x - y };
});
rows.sort((p, q) => q.extra - p.extra);
console.log(`${'extra µs'.padStart(9)} ${labelA.padStart(9)} ${labelB.padStart(9)}  function`);
for (const row of rows.slice(0, 30))
  console.log(`${row.extra.toFixed(1).padStart(9)} ${row.x.toFixed(1).padStart(9)} ${row.y.toFixed(1).padStart(9)}  ${row.name}`);
