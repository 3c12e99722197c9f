// One load per list under U1's load (bench/lib/load.ts defaults), each reported with its rate against
// the bare-Fastify ceiling of the same run (00-bare-fastify, when BENCH_ONLY kept it): the shared
// loop of the list scenarios (12-other-lists, 13-control-lists). Each path is asked once first, so
// that a page that does not answer 200 fails the scenario instead of being measured. BENCH_LISTS (a
// regular expression) keeps only the lists whose label matches: one list measured again, alone.
import type { BenchContext } from '../scenario.js';
import { loadProblems } from './load.js';
import { runState } from './run-state.js';

export type ListRequest = [label: string, path: string, headers: Record<string, string>];

export async function loadLists(ctx: BenchContext, requests: ListRequest[]): Promise<void> {
  const ceiling = runState.ceiling?.requestsPerSecond;
  const only = process.env.BENCH_LISTS ? new RegExp(process.env.BENCH_LISTS) : undefined;
  for (const [label, path, headers] of requests) {
    if (only && !only.test(label)) continue;
    const first = await fetch(`${ctx.baseUrl}${path}`, { headers });
    const body = await first.text();
    if (first.status !== 200) throw new Error(`${path}: ${first.status} ${body.slice(0, 300)}`);
    const result = await ctx.load({ path, headers });
    const vsCeiling = ceiling ? `; ${(result.requestsPerSecond / ceiling).toFixed(2)} of the ceiling (${ceiling.toFixed(0)} req/s)` : '';
    ctx.report({
      scenario: label,
      rate: result.requestsPerSecond,
      unit: 'req/s',
      p99Ms: result.p99Ms,
      note: loadProblems(result) ?? `${body.length} B body${vsCeiling}`,
    });
  }
}
