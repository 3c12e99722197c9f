// What the audit log costs the write paths (docs/audit.md, "Cost"): U3 (20 clients creating users
// in one company) and a U8 import (10,000 rows; BENCH_SMOKE 1,000) with the log on, and with it
// off, in alternating rounds (the VM's speed drifts; bench/lib/paired.ts). "Off" is a rule on the
// bench's own scratch database that drops every audit INSERT (`DO INSTEAD NOTHING`), created for
// the round and dropped after it: the service has no switch to turn its log off. The figure is the
// median of the rounds' ratios on/off (target >= 0.85 for both).
import { sql } from 'drizzle-orm';
import { importCsv, timedBulkCreate } from '../lib/bulk-upload.js';
import { median } from '../lib/paired.js';
import type { BenchContext, Scenario } from '../scenario.js';
import { createBody } from './users-create.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS || (SMOKE ? 1 : 5));
const ROUND_SECONDS = Number(process.env.BENCH_DURATION_SECONDS) || 3;
const CLIENTS = 20;
const IMPORT_ROWS = SMOKE ? 1_000 : 10_000;

async function withoutAuditLog<T>(ctx: BenchContext, measure: () => Promise<T>): Promise<T> {
  await ctx.database.db.execute(sql.raw('CREATE RULE bench_audit_off AS ON INSERT TO audit_events DO INSTEAD NOTHING'));
  try {
    return await measure();
  } finally {
    await ctx.database.db.execute(sql.raw('DROP RULE bench_audit_off ON audit_events'));
  }
}

async function creates(ctx: BenchContext): Promise<number> {
  const company = await ctx.newCompany();
  const result = await ctx.load({
    path: '/api/users',
    method: 'POST',
    headers: { authorization: `Bearer ${company.token}` },
    body: createBody(company.domain),
    connections: CLIENTS,
    durationSeconds: ROUND_SECONDS,
    idReplacement: true,
  });
  if (result.errors || result.non2xx) throw new Error(`U3 under load: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return result.requestsPerSecond;
}

async function importRows(ctx: BenchContext, tag: string): Promise<number> {
  const company = await ctx.newCompany();
  return IMPORT_ROWS / (await timedBulkCreate(ctx, company.token, importCsv(company.domain, `${company.id}${tag}`, IMPORT_ROWS)));
}

type Side = 'on' | 'off';

/** Alternating rounds of `measure` with the log on and off; which side goes first alternates. */
async function pairedSides(ctx: BenchContext, measure: (tag: string) => Promise<number>) {
  const rates: Record<Side, number[]> = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Side[] = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    for (const side of order) {
      const tag = `${side}${round}`;
      rates[side].push(side === 'on' ? await measure(tag) : await withoutAuditLog(ctx, () => measure(tag)));
    }
  }
  return { rates, ratio: median(rates.on.map((on, i) => on / rates.off[i])) };
}

const scenario: Scenario = {
  name: 'audit-cost',
  order: 66,
  async run(ctx) {
    // Every U3 round before any import: U3 in a fresh company slows down as 10,000-row imports
    // pile up in other companies of the same database (docs/benchmarks.md), which would confound
    // the ratio if the two were interleaved.
    const u3 = await pairedSides(ctx, () => creates(ctx));
    const u8 = await pairedSides(ctx, (tag) => importRows(ctx, tag));
    const note = (on: number[], off: number[]) =>
      `on/off, median of ${ROUNDS} round(s) (target >= 0.85); by round ${on.map((value, i) => `${Math.round(value)}/${Math.round(off[i])}`).join(', ')}`;
    ctx.report({
      scenario: `U3 with the audit log / without, ${CLIENTS} clients, one company`,
      rate: Math.round(median(u3.rates.on)),
      unit: 'req/s',
      ratio: u3.ratio,
      note: note(u3.rates.on, u3.rates.off),
    });
    ctx.report({
      scenario: `U8 ${IMPORT_ROWS}-row import with the audit log / without`,
      rate: Math.round(median(u8.rates.on)),
      unit: 'rows/s',
      ratio: u8.ratio,
      note: note(u8.rates.on, u8.rates.off),
    });
  },
};

export default scenario;
