// U3 (POST /api/users) under concurrency, and what creates cost the reads (docs/benchmarks.md,
// "Employee creation"). Employee numbers must not queue one company's creates behind each other.
// 1. 20 clients creating users in one company as fast as they can (target >= 500 creates/s); the
//    company's employee numbers are then checked: one per user, no repeats.
// 2. A 90/10 read/create mix of clients in alternating rounds (as bench/lib/paired.ts; the VM's
//    speed drifts): 18 clients reading GET /api/users?per_page=20 (U1, the shared fixture) alone,
//    then the same 18 while 2 more clients create users in another company as fast as they can. The
//    figure is the median of the rounds' ratios of the reads' rate with creates to without
//    (target >= 0.80).
// The creates' row also gives the CPU per create of the database's PostgreSQL backends and of the
// load generator (all three share the machine's cores; docs/benchmarks-history.md, "Employee creation").
// BENCH_SMOKE (CI): one round; BENCH_DURATION_SECONDS shortens every load.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import { loadProblems, runLoad } from '../lib/load.js';
import { PAGE_PATH, usersFixture } from '../lib/users-fixture.js';
import type { BenchContext, Scenario } from '../scenario.js';

const SMOKE = Boolean(process.env.BENCH_SMOKE);
const ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS || (SMOKE ? 1 : 5));
const ROUND_SECONDS = 3;
const CREATE_CLIENTS = 20;
const READ_CLIENTS = 18;
const MIXED_CREATE_CLIENTS = 2;

/** A valid U3 body; autocannon puts a fresh id in place of `[<id>]` (unique personal and company e-mails). */
export const createBody = (domain: string) =>
  JSON.stringify({
    first_name: 'Load',
    last_name: 'T[<id>]',
    personal_email: 'load.[<id>]@personal.test',
    domain_name: domain,
    user_types: 'Full-time',
    start_date: '2024-01-15',
  });

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(2)} ms`);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Every user of the company has an employee number and no number is used twice. */
async function checkNumbers(ctx: BenchContext, companyId: number): Promise<string | undefined> {
  const [row] = await queryRows<{ users: number; numbers: number }>(
    ctx.database.db,
    sql`SELECT count(*)::int AS users, count(DISTINCT employee_id)::int AS numbers FROM users WHERE company_id = ${companyId}`,
  );
  return row.users === row.numbers ? undefined : `INVALID: ${row.users} users, ${row.numbers} distinct employee numbers`;
}

const scenario: Scenario = {
  name: 'users-create',
  order: 65,
  async run(ctx) {
    // 1. Concurrent creates in one company.
    const company = await ctx.newCompany();
    const creates = await ctx.load({
      path: '/api/users',
      method: 'POST',
      headers: { authorization: `Bearer ${company.token}` },
      body: createBody(company.domain),
      connections: CREATE_CLIENTS,
      idReplacement: true,
    });
    ctx.report({
      scenario: `POST /api/users (U3), ${CREATE_CLIENTS} clients, one company`,
      rate: creates.requestsPerSecond,
      unit: 'req/s',
      p99Ms: creates.p99Ms,
      note:
        loadProblems(creates) ??
        (await checkNumbers(ctx, company.id)) ??
        `creates/s (target >= 500); employee numbers distinct; CPU per create: PostgreSQL backends ${ms(creates.databaseCpuMsPerRequest)}, load generator ${ms(creates.clientCpuMsPerRequest)} (server: CPU column)`,
    });

    // 2. Reads alone, then reads with a tenth of the clients creating, in alternating rounds.
    const fixture = await usersFixture(ctx);
    const readUrl = `${ctx.baseUrl}${PAGE_PATH}`;
    const readHeaders = { authorization: `Bearer ${fixture.token}` };
    const writer = await ctx.newCompany();
    const rounds: { without: number; with: number; creates: number; readP99: number; createP99: number; problem?: string }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await runLoad({
        url: readUrl,
        headers: readHeaders,
        connections: READ_CLIENTS,
        durationSeconds: ROUND_SECONDS,
        warmupSeconds: 1,
      });
      const [reads, writes] = await Promise.all([
        runLoad({ url: readUrl, headers: readHeaders, connections: READ_CLIENTS, durationSeconds: ROUND_SECONDS, warmupSeconds: 1 }),
        runLoad({
          url: `${ctx.baseUrl}/api/users`,
          method: 'POST',
          headers: { authorization: `Bearer ${writer.token}` },
          body: createBody(writer.domain),
          connections: MIXED_CREATE_CLIENTS,
          idReplacement: true,
          durationSeconds: ROUND_SECONDS,
          warmupSeconds: 1,
        }),
      ]);
      rounds.push({
        without: alone.requestsPerSecond,
        with: reads.requestsPerSecond,
        creates: writes.requestsPerSecond,
        readP99: reads.p99Ms,
        createP99: writes.p99Ms,
        problem: loadProblems(alone) ?? loadProblems(reads) ?? loadProblems(writes),
      });
    }
    const ratio = median(rounds.map((r) => r.with / r.without));
    ctx.report({
      scenario: `GET ${PAGE_PATH} (${READ_CLIENTS} clients) with ${MIXED_CREATE_CLIENTS} clients creating (U3), ${rounds.length} rounds alternating with none`,
      rate: median(rounds.map((r) => r.with)),
      unit: 'req/s',
      ratio,
      p99Ms: median(rounds.map((r) => r.readP99)),
      note:
        rounds.find((r) => r.problem)?.problem ??
        (await checkNumbers(ctx, writer.id)) ??
        `vs baseline = reads with/without creates, median (target >= 0.80); by round ${rounds
          .map(
            (r) =>
              `${(r.with / r.without).toFixed(2)} (${r.without.toFixed(0)}->${r.with.toFixed(0)} req/s, ${r.creates.toFixed(0)} creates/s, create p99 ${r.createP99} ms)`,
          )
          .join(', ')}`,
    });
  },
};

export default scenario;
