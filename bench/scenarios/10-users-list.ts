// The real server (separate process, authenticated, tenancy, rate-limited, logging one line per
// request at info) on the baseline's data: U1 first page and U2 of one user, in a company of 10,000
// users. Then alternating rounds of the baseline and U1 (bench/lib/paired.ts): the list's ratio.
import { loadProblems } from '../lib/load.js';
import { pairedRounds } from '../lib/paired.js';
import { runState } from '../lib/run-state.js';
import { FIXTURE_USERS, PAGE_PATH, usersFixture } from '../lib/users-fixture.js';
import type { Scenario } from '../scenario.js';

const scenario: Scenario = {
  name: 'users-list',
  order: 10,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    const headers = { authorization: `Bearer ${fixture.token}` };
    await ctx.serverPeakRssMb(); // start the peak from here, not from seeding

    const list = await ctx.load({ path: PAGE_PATH, headers });
    ctx.report({
      scenario: `GET ${PAGE_PATH} (${FIXTURE_USERS.toLocaleString('en')} users)`,
      rate: list.requestsPerSecond,
      unit: 'req/s',
      p99Ms: list.p99Ms,
      note: loadProblems(list) ?? `server peak RSS ${await ctx.serverPeakRssMb()} MB`,
    });

    const id = fixture.userIds[Math.floor(fixture.userIds.length / 2)];
    const show = await ctx.load({ path: `/api/users/${id}`, headers });
    ctx.report({
      scenario: 'GET /api/users/{id}',
      rate: show.requestsPerSecond,
      unit: 'req/s',
      p99Ms: show.p99Ms,
      note: loadProblems(show) ?? `server peak RSS ${await ctx.serverPeakRssMb()} MB`,
    });

    if (!runState.baseline) return; // BENCH_ONLY left the baseline out
    const paired = await pairedRounds({
      baseline: runState.baseline,
      real: { url: `${ctx.baseUrl}${PAGE_PATH}`, pid: ctx.serverPid, headers },
      ceiling: runState.ceiling,
      physical: runState.physical,
      rounds: Number(process.env.BENCH_PAIRED_ROUNDS || 9),
      durationSeconds: 3,
    });
    const problems = paired.rounds.map((round) => loadProblems(round.baseline) ?? loadProblems(round.real)).find(Boolean);
    const byRound = (pick: (round: (typeof paired.rounds)[number]) => number | undefined) =>
      paired.rounds.map((round) => pick(round)?.toFixed(2) ?? '-').join(', ');
    const rate = (result?: { requestsPerSecond: number }) => (result ? result.requestsPerSecond.toFixed(0) : '-');
    ctx.report({
      scenario: `GET ${PAGE_PATH}, ${paired.rounds.length} rounds alternating with the baseline`,
      rate: paired.realRequestsPerSecond,
      unit: 'req/s',
      p99Ms: paired.realP99Ms,
      serverCpuMsPerRequest: paired.realCpuMsPerRequest,
      ratio: paired.ratio,
      cpuRatio: paired.cpuRatio,
      note:
        problems ??
        `median of the rounds; ratio by round ${paired.rounds.map((round) => round.ratio.toFixed(2)).join(', ')} (baseline ${paired.rounds
          .map((round) => round.baseline.requestsPerSecond.toFixed(0))
          .join(', ')} req/s)`,
    });
    // The read path's goals (docs/benchmarks.md, "Reads"): the list against the ceiling and the physical limit, same rounds.
    for (const [name, ratio, pick, side] of [
      ['bare-Fastify ceiling', paired.ceilingRatio, (round) => round.ceilingRatio, (round) => round.ceiling],
      ['physical limit', paired.physicalRatio, (round) => round.physicalRatio, (round) => round.physical],
    ] as const satisfies readonly (readonly [
      string,
      number | undefined,
      (round: (typeof paired.rounds)[number]) => number | undefined,
      (round: (typeof paired.rounds)[number]) => { requestsPerSecond: number } | undefined,
    ])[]) {
      if (ratio === undefined) continue;
      ctx.report({
        scenario: `GET ${PAGE_PATH} vs the ${name}, same rounds`,
        rate: paired.realRequestsPerSecond,
        unit: 'req/s',
        ratio,
        note: `median of real / ${name} by round: ${byRound(pick)} (${name} ${paired.rounds.map((round) => rate(side(round))).join(', ')} req/s)`,
      });
    }
  },
};

export default scenario;
