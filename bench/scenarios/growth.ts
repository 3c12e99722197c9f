// The growth scenario (docs/benchmarks.md, "Growth"), first part: U1's first and last page at each size of one company
// (BENCH_GROWTH_SIZES, default 1,000 and 10,000 users; CI's smoke run only the smallest), each as
// the median of sequential requests, and their cost per item (a page's 20 users). Writes
// bench/results/growth.json: [{measure, n, per_item_ms}]. Run alone with BENCH_ONLY=growth.
// Not yet measured here: P1, run creation, paying, payslips, remittances, bulk import, the console's
// pages, many tenants, and the charts (docs/benchmarks.md, "Growth").
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../lib/processes.js';
import { seedUsersSql } from '../lib/scale-fixture.js';
import type { Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const SIZES = (process.env.BENCH_GROWTH_SIZES || (SMOKE ? '1000' : '1000,10000')).split(',').map(Number);
const PER_PAGE = 20;
const REQUESTS = SMOKE ? 5 : 50;

interface GrowthRow {
  measure: string;
  n: number;
  per_item_ms: number;
}

async function medianMs(url: string, token: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body.slice(0, 200)}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const scenario: Scenario = {
  name: 'growth',
  order: 90,
  async run(ctx) {
    const rows: GrowthRow[] = [];
    for (const n of SIZES) {
      const company = await ctx.newCompany();
      await seedUsersSql(ctx.database.db, company.id, n);
      await ctx.database.execScript('VACUUM ANALYZE users');
      for (const [measure, page] of [
        ['U1 first page', 1],
        ['U1 last page', Math.ceil(n / PER_PAGE)],
      ] as const) {
        const ms = await medianMs(`${ctx.baseUrl}/api/users?per_page=${PER_PAGE}&page=${page}`, company.token);
        rows.push({ measure, n, per_item_ms: ms / PER_PAGE });
        ctx.report({
          scenario: `growth: ${measure}, ${n.toLocaleString('en')} users`,
          rate: 1000 / ms,
          unit: 'req/s',
          note: `sequential, median ${ms.toFixed(2)} ms`,
        });
      }
    }
    const file = path.join(repoRoot, 'bench', 'results', 'growth.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  },
};

export default scenario;
