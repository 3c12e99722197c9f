// The audit log's read figure (docs/audit.md, "Cost"): one company with 1,000,000 events
// (BENCH_SMOKE: 20,000) and a second company with a tenth of that beside them (so the company
// filter is exercised), inserted in statements of 100,000 and sealed before reading (audit_seal()
// here and the server's own sealer), then the tables vacuumed and analysed as autovacuum leaves a
// table at rest. Then GET /api/audit-events through the running server, per filter: 200 pages of
// 50 one after another, following the cursor 9 pages deep and starting again, timed at the client
// (p99 over the 200). Target: p99 under 50 ms for every filter.
import { sql } from 'drizzle-orm';
import { sealAll } from '../lib/audit-seal.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const EVENTS = SMOKE ? 20_000 : 1_000_000;
const PAGES = SMOKE ? 20 : 200;
const ACTIONS = ['user.updated', 'user.created', 'payroll_run.approved', 'wallet.credited', 'token.issued'];
const FILTERS = [
  'action=user.updated',
  'action=user.*&actor_type=console_user',
  'target_type=user&target_id=42',
  'actor_type=token&actor_id=3',
  '',
  'from=2000-01-01&action=wallet.credited',
];

/** `count` events of `companyId` in batches of 100,000, actors and targets spread as a busy company's are. */
async function seed(ctx: BenchContext, companyId: number, count: number): Promise<void> {
  for (let done = 0; done < count; done += 100_000) {
    const n = Math.min(100_000, count - done);
    await ctx.database.db.execute(sql`
      INSERT INTO audit_events (company_id, actor_type, actor_id, action, target_type, target_id, changes)
      SELECT ${companyId}, CASE WHEN g % 3 = 0 THEN 'console_user' ELSE 'token' END, (g % 7)::text,
             (${`{${ACTIONS.join(',')}}`}::text[])[1 + g % 5], 'user', (g % 5000)::text,
             '{"base_salary": ["1.00", "2.00"]}'::jsonb
      FROM generate_series(1, ${n}) g`);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

async function pages(ctx: BenchContext, token: string, filter: string): Promise<number[]> {
  const times: number[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < PAGES; i++) {
    const query = [filter, 'limit=50', cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&');
    const started = performance.now();
    const res = await fetch(`${ctx.baseUrl}/api/audit-events?${query}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { next_cursor: string | null };
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`audit-events ${query}: ${res.status} ${JSON.stringify(body)}`);
    cursor = i % 10 === 9 ? null : body.next_cursor;
  }
  return times.sort((a, b) => a - b);
}

const scenario: Scenario = {
  name: 'audit-read',
  order: 67,
  async run(ctx) {
    const company = await ctx.newCompany();
    const neighbour = await ctx.newCompany();
    let started = performance.now();
    await seed(ctx, company.id, EVENTS);
    await seed(ctx, neighbour.id, EVENTS / 10);
    const seedMs = performance.now() - started;
    // Sealed before reading, as a live log is: by audit_seal() here and the server's own sealer job
    // (both take turns on the watermark), until no event of the two companies is left unsealed.
    started = performance.now();
    await sealAll(ctx.database.db, [company.id, neighbour.id]);
    const sealMs = performance.now() - started;
    await ctx.database.db.execute(sql`VACUUM (ANALYZE) audit_events`);
    await ctx.database.db.execute(sql`VACUUM (ANALYZE) audit_seals`);
    const seeded = (EVENTS + EVENTS / 10).toLocaleString('en');
    const setup = `${seeded} events seeded in ${(seedMs / 1000).toFixed(1)} s and sealed in ${(sealMs / 1000).toFixed(1)} s`;
    for (const [i, filter] of FILTERS.entries()) {
      const times = await pages(ctx, company.token, filter);
      const total = times.reduce((sum, ms) => sum + ms, 0);
      ctx.report({
        scenario: `audit events of 1 company, ${filter || 'no filter'}`,
        rate: (times.length * 1000) / total,
        unit: 'req/s',
        p99Ms: Number(percentile(times, 0.99).toFixed(2)),
        note: `${PAGES} pages of 50, one client, p50 ${percentile(times, 0.5).toFixed(2)} ms; target p99 < 50 ms${i === 0 ? `; ${setup}` : ''}`,
      });
    }
  },
};
export default scenario;
