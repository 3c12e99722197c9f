// Many tenants (docs/benchmarks.md, "Many tenants"): 10,000 companies of 20 employees on
// one database. U1 for the only company first, then with every company present and each request
// sent as a company picked at random (the server caches a token up to 60 s: in the first load most
// callers are new to it, in the rounds after most are not; docs/decisions.md, "Authentication cache"),
// then alternating rounds of one company against random ones on the same full database, random
// ones among 100 only (many rows, few callers) and random ones with no last-use write due (the
// token lookup alone); then a monthly pay schedule per company, all due at once, and the time the
// real server's job loop takes to make every draft run. Writes bench/results/tenants.json. BENCH_SMOKE (CI): 200 companies.
// Run alone with BENCH_ONLY=tenants (in a full run the companies stay: it runs after the others).
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { pgArray } from '../../src/db/pg-array.js';
import { firstOpenPeriod, lagosDay } from '../../src/modules/pay-schedules/index.js';
import { loadProblems } from '../lib/load.js';
import { loadAverage, timed, writeResults } from '../lib/measure.js';
import { median } from '../lib/paired.js';
import { cpuSeconds, databaseCpuSeconds } from '../lib/processes.js';
import { runState } from '../lib/run-state.js';
import { seedDueSchedules, seedTenants, type Tenant } from '../lib/tenants-fixture.js';
import { PAGE_PATH } from '../lib/users-fixture.js';
import type { BenchContext, LoadResult, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const COMPANIES = Number(process.env.BENCH_TENANTS || (SMOKE ? 200 : 10_000));
const EMPLOYEES = 20;
const ROUNDS = Number(process.env.BENCH_TENANTS_ROUNDS || (SMOKE ? 1 : 3));
/** The goal (docs/benchmarks.md, "Many tenants"): U1 of a random company at 0.9 or more of the only company's rate. */
const GOAL = 0.9;
/** The callers of the "many rows, few callers" load. */
const FEW = 100;
const TABLES = 'companies, company_domains, user_types, roles, contribution_settings, api_tokens, users, user_counts';

const sample = (result: LoadResult & { p50Ms?: number; cpuMsPerRequest?: number }) => ({
  rps: Math.round(result.requestsPerSecond),
  p50_ms: result.p50Ms,
  p99_ms: result.p99Ms,
  server_cpu_ms: result.cpuMsPerRequest,
  database_cpu_ms: result.databaseCpuMsPerRequest,
  invalid: loadProblems(result),
  load: loadAverage(),
});

/** U1 as the companies of `tokens`, one picked at random per request. */
const listAs = (ctx: BenchContext, tokens: string[]) => ctx.load({ path: PAGE_PATH, bearerTokens: tokens });

async function expectPage(ctx: BenchContext, tenant: Tenant): Promise<void> {
  const response = await fetch(`${ctx.baseUrl}${PAGE_PATH}`, { headers: { authorization: `Bearer ${tenant.token}` } });
  const body = (await response.json()) as { Resources?: unknown[] };
  if (response.status !== 200 || body.Resources?.length !== EMPLOYEES)
    throw new Error(`GET ${PAGE_PATH} as company ${tenant.id}: ${response.status}, ${body.Resources?.length} users`);
}

/** Waits until every schedule from `firstScheduleId` on has its period recorded (a run, or a refusal). */
async function waitForPeriods(ctx: BenchContext, firstScheduleId: number, count: number): Promise<{ created: number; refused: number }> {
  const deadline = Date.now() + Math.max(120_000, count * 200);
  let reported = Date.now();
  for (;;) {
    const [row] = await queryRows<{ created: number; refused: number }>(
      ctx.database.db,
      sql`SELECT count(run_id)::int AS created, count(error)::int AS refused FROM pay_schedule_periods WHERE schedule_id >= ${firstScheduleId}`,
    );
    if (row.created + row.refused >= count) return row;
    if (Date.now() > deadline) throw new Error(`after ${(count * 0.2).toFixed(0)} s only ${row.created} of ${count} runs were made`);
    if (Date.now() - reported > 30_000) {
      console.error(`  ${row.created} of ${count} runs made (load ${loadAverage()})`);
      reported = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A monthly schedule per company, due now; the seconds the server's job loop takes to make every run, and a check of them. */
async function scheduledRuns(ctx: BenchContext, tenants: Tenant[]) {
  const { db } = ctx.database;
  const today = lagosDay(new Date());
  const rule = {
    frequency: 'monthly' as const,
    payDay: 'last_working_day',
    firstPeriodStart: `${today.slice(0, 7)}-01`,
    createDaysBefore: 0,
  };
  const period = firstOpenPeriod(rule, today, null);
  const ids = tenants.map((tenant) => tenant.id);
  const schedules = await seedDueSchedules(db, ids, period.start);
  const databaseName = new URL(runState.databaseUrl).pathname.slice(1);
  const cpuAtStart = { server: cpuSeconds(ctx.serverPid) ?? 0, database: databaseCpuSeconds(databaseName) };
  const loadAtStart = loadAverage();
  // The job's recurring rows come round once a minute: bring the next turn forward, as if that
  // minute had passed (what is measured is the making of the runs, not the wait for the turn).
  const { seconds, value: periods } = await timed(async () => {
    await db.execute(sql`UPDATE jobs SET run_at = now() WHERE kind = 'pay-schedules.due' AND done_at IS NULL AND failed_at IS NULL`);
    return waitForPeriods(ctx, schedules.firstId, schedules.count);
  });
  const cpu = {
    server: (cpuSeconds(ctx.serverPid) ?? 0) - cpuAtStart.server,
    database: databaseCpuSeconds(databaseName) - cpuAtStart.database,
  };
  // Exactly one run per company, of the period, with every employee on it.
  const [check] = await queryRows<{ companies_not_one: number; runs: number; paystubs: number; statuses: string }>(
    db,
    sql`WITH per AS (
          SELECT c.id, count(r.id)::int AS runs
          FROM unnest(${pgArray(ids)}::int[]) AS c(id)
          LEFT JOIN payroll_runs r ON r.company_id = c.id AND r.schedule_id IS NOT NULL
          GROUP BY c.id)
        SELECT (SELECT count(*)::int FROM per WHERE runs <> 1) AS companies_not_one,
               (SELECT sum(runs)::int FROM per) AS runs,
               (SELECT count(*)::int FROM paystubs WHERE company_id = ANY(${pgArray(ids)}::int[])) AS paystubs,
               (SELECT string_agg(DISTINCT status, ',') FROM payroll_runs WHERE company_id = ANY(${pgArray(ids)}::int[])) AS statuses`,
  );
  return {
    period,
    schedules: schedules.count,
    seconds,
    runs_per_second: periods.created / seconds,
    created: periods.created,
    refused: periods.refused,
    ...check,
    server_cpu_ms_per_run: (cpu.server * 1000) / Math.max(1, periods.created),
    database_cpu_ms_per_run: (cpu.database * 1000) / Math.max(1, periods.created),
    load_at_start: loadAtStart,
    load_at_end: loadAverage(),
  };
}

const scenario: Scenario = {
  name: 'tenants',
  order: 92,
  async run(ctx) {
    const { db } = ctx.database;
    /** One U1 load's row: its rate, p99, load problems, and (`of`) its share of another's rate. */
    const reportList = (scenario: string, result: Awaited<ReturnType<typeof listAs>>, of?: { rate: number; suffix?: string }) =>
      ctx.report({
        scenario,
        rate: result.requestsPerSecond,
        unit: 'req/s',
        p99Ms: result.p99Ms,
        note: [
          loadProblems(result),
          of && `${(result.requestsPerSecond / of.rate).toFixed(2)} of the only company${of.suffix ?? ''}`,
          `load ${loadAverage()}`,
        ]
          .filter(Boolean)
          .join('; '),
      });
    // The only company of this scenario, measured before the others exist.
    const [solo] = await seedTenants(db, { tag: 'solo', count: 1, employees: EMPLOYEES });
    await ctx.database.execScript(`VACUUM ANALYZE ${TABLES}`);
    await expectPage(ctx, solo);
    const alone = await listAs(ctx, [solo.token]);
    const aloneSample = sample(alone);
    reportList(`tenants: U1, the only company (${EMPLOYEES} users)`, alone);

    const seeding = await timed(() => seedTenants(db, { tag: 'tn', count: COMPANIES - 1, employees: EMPLOYEES }));
    await ctx.database.execScript(`VACUUM ANALYZE ${TABLES}`);
    const tenants = [solo, ...seeding.value];
    const tokens = tenants.map((tenant) => tenant.token);
    await expectPage(ctx, tenants[tenants.length - 1]);
    const spread = await listAs(ctx, tokens);
    const spreadSample = sample(spread);
    const ratio = spread.requestsPerSecond / alone.requestsPerSecond;
    reportList(`tenants: U1, a random one of ${COMPANIES.toLocaleString('en')} companies`, spread, {
      rate: alone.requestsPerSecond,
      suffix: ` (goal ${GOAL})`,
    });

    // The same comparison with the machine's drift taken out: one company and random companies
    // back to back on the same full database, round after round.
    const rounds: { one: ReturnType<typeof sample>; random: ReturnType<typeof sample>; ratio: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const one = await listAs(ctx, [solo.token]);
      const random = await listAs(ctx, tokens);
      rounds.push({ one: sample(one), random: sample(random), ratio: random.requestsPerSecond / one.requestsPerSecond });
    }
    const roundsRatio = median(rounds.map((round) => round.ratio));
    ctx.report({
      scenario: `tenants: U1 random / one company, ${COMPANIES.toLocaleString('en')} present (median of ${ROUNDS} rounds)`,
      rate: median(rounds.map((round) => round.random.rps)),
      unit: 'req/s',
      note: `${roundsRatio.toFixed(2)} (rounds ${rounds.map((round) => round.ratio.toFixed(2)).join(', ')}); load ${loadAverage()}`,
    });

    // Many rows or many callers? Random companies among the first FEW only, with every company
    // present: each token comes round many times a second.
    const few = await listAs(ctx, tokens.slice(0, FEW));
    const fewSample = sample(few);
    reportList(`tenants: U1, a random one of ${FEW} companies, ${COMPANIES.toLocaleString('en')} present`, few, {
      rate: alone.requestsPerSecond,
    });

    // Where the cost of many tenants goes: the same random load right after every token's last use
    // was written, so that authentication writes none in the next minute (before the last uses were
    // written off the request path, each such write was an UPDATE the request waited for; the
    // server now goes by its cached last use, and writes the uses due once a second whatever).
    await db.execute(sql`UPDATE api_tokens SET last_used_at = now() WHERE company_id = ANY(${pgArray(tenants.map((t) => t.id))}::int[])`);
    const untouched = await listAs(ctx, tokens);
    const untouchedSample = sample(untouched);
    reportList(`tenants: U1, a random one of ${COMPANIES.toLocaleString('en')}, no last-use writes`, untouched, {
      rate: alone.requestsPerSecond,
    });

    const runs = await scheduledRuns(ctx, tenants);
    const exact = runs.companies_not_one === 0 && runs.refused === 0;
    ctx.report({
      scenario: `tenants: pay schedules, ${COMPANIES.toLocaleString('en')} draft runs by the job loop`,
      rate: runs.runs_per_second,
      unit: 'runs/s',
      note: [
        exact ? undefined : `INVALID: ${runs.companies_not_one} companies without exactly one run, ${runs.refused} refused`,
        `${runs.seconds.toFixed(1)} s, ${runs.paystubs} paystubs, server CPU ${runs.server_cpu_ms_per_run.toFixed(1)} ms/run`,
        `load ${runs.load_at_start} → ${runs.load_at_end}`,
      ]
        .filter(Boolean)
        .join('; '),
    });

    writeResults('tenants', {
      at: new Date().toISOString(),
      companies: COMPANIES,
      employees_per_company: EMPLOYEES,
      seed_seconds: seeding.seconds,
      u1: {
        alone: aloneSample,
        random: spreadSample,
        ratio,
        goal: GOAL,
        rounds,
        rounds_ratio: roundsRatio,
        random_of_few: { companies: FEW, ...fewSample },
        random_without_last_use_writes: untouchedSample,
      },
      pay_schedules: runs,
    });
  },
};

export default scenario;
