// The growth scenario (docs/benchmarks.md, "Growth"): for each size n of one fresh company
// (BENCH_GROWTH_SIZES, default 1,000 and 10,000 employees; CI's smoke run only the smallest, with
// fewer requests; 100,000 works when asked), the cost per item of what an employer does as it grows:
// U1's first and last page and U2, the console's Employees page, a run for all n, its approval and
// payment on the sandbox until every paystub is paid, P1 by that run and unfiltered, the console's
// run page, the run's payslips' ZIP, the month's remittances and its PAYE CSV, and an import of n
// more employees. Writes bench/results/growth.json ([{measure, n, per_item_ms}]) and its charts
// (bench/lib/growth-chart.ts). Run alone with BENCH_ONLY=growth.
// Not measured here: many tenants, Paystack at scale, a company's history growing over the months.
import fs from 'node:fs';
import path from 'node:path';
import { writeGrowthCharts } from '../lib/growth-chart.js';
import { consoleEmployees, consoleRun, paystubReads, remittanceReads, userReads } from '../lib/growth-reads.js';
import { type GrowthRow, growthWorld } from '../lib/growth-world.js';
import { approveAndPay, bulkImport, createRun, GROWTH_MONTH, payslipsZip } from '../lib/growth-writes.js';
import { repoRoot } from '../lib/processes.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const SIZES = (process.env.BENCH_GROWTH_SIZES || (SMOKE ? '1000' : '1000,10000'))
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const REQUESTS = SMOKE ? 5 : 50;
const HEAVY_REQUESTS = SMOKE ? 2 : 7;
/** The warm-up company: every path run once before the first measured size (not in smoke runs). */
const WARM_UP_EMPLOYEES = 50;
/**
 * ANALYZE paystubs between the run's creation and its approval, as autovacuum would given time. Off
 * by default: an approval right after creation meets the planner's stale statistics, and that is
 * the case an employer meets (the approval's overlap check is then quadratic in n: docs/benchmarks.md,
 * "Growth"). On, a size of 100,000 is measured in minutes rather than an hour.
 */
const ANALYZE_BEFORE_APPROVE = Boolean(process.env.BENCH_GROWTH_ANALYZE_BEFORE_APPROVE);

/**
 * Every measure on one company of n employees, in the order an employer meets them. The import
 * comes last because it doubles the company; the run's paystubs are vacuumed and analysed after
 * payment, as autovacuum would after a run's writes, before they are read.
 */
async function measureSize(ctx: BenchContext, n: number, rows: GrowthRow[], record: boolean): Promise<void> {
  const world = await growthWorld(ctx, n, { requests: REQUESTS, heavyRequests: HEAVY_REQUESTS, rows, record });
  await userReads(world);
  await consoleEmployees(world);
  const runId = await createRun(world);
  if (ANALYZE_BEFORE_APPROVE) await ctx.database.execScript('ANALYZE paystubs');
  await approveAndPay(world, runId);
  await ctx.database.execScript('VACUUM ANALYZE');
  await paystubReads(world, runId);
  await consoleRun(world, runId);
  await payslipsZip(world, runId);
  await remittanceReads(world, GROWTH_MONTH);
  await bulkImport(world);
}

const scenario: Scenario = {
  name: 'growth',
  order: 90,
  async run(ctx) {
    // The first size would otherwise pay for the server's first run, first ZIP and first import.
    if (ANALYZE_BEFORE_APPROVE) console.error('  growth: paystubs analysed before each approval (BENCH_GROWTH_ANALYZE_BEFORE_APPROVE)');
    if (!SMOKE) await measureSize(ctx, WARM_UP_EMPLOYEES, [], false);
    const rows: GrowthRow[] = [];
    for (const n of SIZES) await measureSize(ctx, n, rows, true);
    const file = path.join(repoRoot, 'bench', 'results', 'growth.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
    const charts = await writeGrowthCharts(rows, path.dirname(file));
    console.error(`  growth: ${rows.length} rows in ${path.relative(repoRoot, file)}, ${charts.length} charts (bench/results/growth.svg)`);
  },
};

export default scenario;
