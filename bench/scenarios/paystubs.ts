// P2 throughput: payroll runs of 1,000 paystubs each for a company of 10,000 users with three
// active custom contributions (one targeted by user type, one by user, one for everyone), on the
// real server. Every request is a new period, so every paystub is really computed and written.
// Requests are driven here (not by autocannon) because each needs its own body.
import { usersFixture } from '../lib/users-fixture.js';
import type { BenchContext, Scenario } from '../scenario.js';

const ITEMS = 1000;
const RUNS = Number(process.env.BENCH_PAYSTUB_RUNS ?? 30);
const CONCURRENCY = 2;

function isoDay(base: Date, days: number): string {
  return new Date(base.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

async function post(ctx: BenchContext, token: string, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const scenario: Scenario = {
  name: 'paystubs',
  order: 40,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    const { token, companyId, userIds } = fixture;
    const customs = [
      {
        name: 'Bench welfare',
        type: 'percentage',
        apply_to: 'gross_pay',
        responsibility: 'employee',
        employee_value: 2,
        frequency: 'per_paystub',
      },
      {
        name: 'Bench co-op',
        type: 'percentage',
        apply_to: 'net_pay',
        responsibility: 'both',
        employee_value: 5,
        employer_value: 1,
        frequency: 'per_paystub',
        user_types: ['Full-time', 'Contract'],
      },
      {
        name: 'Bench HMO',
        type: 'amount',
        apply_to: 'gross_pay',
        responsibility: 'employer',
        employer_value: 2500,
        frequency: 'per_paystub',
        users: Array.from({ length: 500 }, (_, i) => `first${i + 1}.last${i + 1}.${companyId}@personal.test`),
      },
    ];
    for (const body of customs) {
      const res = await post(ctx, token, `/api/custom-contributions/${companyId}`, body);
      if (res.status !== 201 && res.status !== 422) throw new Error(`custom contribution: ${res.status} ${JSON.stringify(res.json)}`);
    }

    // Weekly periods from 2030 on (nothing else writes there); run r pays users [r*1000 .. +1000) mod 10,000.
    const base = new Date(Date.UTC(2030, 0, 7));
    const body = (run: number) => ({
      paystubs: Array.from({ length: ITEMS }, (_, i) => ({
        id: String(userIds[(run * ITEMS + i) % userIds.length]),
        pay_period_start: isoDay(base, run * 7),
        pay_period_end: isoDay(base, run * 7 + 6),
        taxable_income: 150_000 + ((i * 7919) % 900_000) + (i % 100) / 100,
        reimbursements: i % 3 === 0 ? 1250.5 : 0,
        other_allowances: 20_000,
      })),
    });
    await ctx.serverPeakRssMb();
    const warm = await post(ctx, token, '/api/paystubs', body(RUNS));
    if (warm.status !== 201) throw new Error(`warm-up run: ${warm.status}`);

    const latencies: number[] = [];
    let created = 0;
    let failed = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < RUNS) {
          const run = next++;
          const t0 = performance.now();
          const res = await post(ctx, token, '/api/paystubs', body(run));
          latencies.push(performance.now() - t0);
          const json = res.json as { created_paystubs?: unknown[]; failed_paystubs?: unknown[] };
          if (res.status !== 201) failed += ITEMS;
          created += json.created_paystubs?.length ?? 0;
          failed += json.failed_paystubs?.length ?? 0;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))];
    ctx.report({
      scenario: `POST /api/paystubs (${ITEMS} items, 10,000 users, 3 custom contributions)`,
      rate: created / seconds,
      unit: 'paystubs/s',
      p99Ms: Math.round(p99),
      note: `${RUNS} runs, ${CONCURRENCY} in flight, ${failed} failed items, server peak RSS ${await ctx.serverPeakRssMb()} MB`,
    });
  },
};

export default scenario;
