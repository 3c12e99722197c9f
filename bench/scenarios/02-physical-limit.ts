// The physical limit: GET /api/users' statements (now one: the page carrying the total) run by the bare
// driver with named prepared statements at the same concurrency (10), nothing else. The statements' SQL
// is taken from the users repo through the baseline (GET /statements of bench/bare/query-server.ts), so
// it is exactly what the server sends.
import { runPhysicalLimit } from '../lib/physical.js';
import { runState } from '../lib/run-state.js';
import { usersFixture } from '../lib/users-fixture.js';
import type { Scenario } from '../scenario.js';

export const PHYSICAL_SCENARIO = 'PostgreSQL alone: the list statement, bare driver (physical limit)';

const scenario: Scenario = {
  name: 'physical-limit',
  order: 2,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    if (!runState.baseline) throw new Error('the physical limit takes its SQL from the bare-query baseline (BENCH_ONLY must include bare)');
    const statements = (await (await fetch(`${new URL(runState.baseline.url).origin}/statements`)).json()) as Record<
      string,
      { text: string; params: string[] }
    >;
    const values: Record<string, unknown> = {
      companyId: fixture.companyId,
      offset: 0,
      limit: 20,
      id: fixture.userIds[0],
      mayGrant: true,
      // The Lagos day that is_active is computed against (docs/users.md, "Leavers").
      // The Lagos day (UTC+1, no DST), as the server's statement takes it (users.exit.repo.ts).
      today: new Date(Date.now() + 3_600_000).toISOString().slice(0, 10),
    };
    const options = {
      databaseUrl: runState.databaseUrl,
      statements: Object.entries(statements).map(([name, statement]) => ({
        name: `physical_${name}`,
        text: statement.text,
        values: statement.params.map((param) => values[param]),
      })),
    };
    const result = await runPhysicalLimit(options);
    ctx.report({
      scenario: PHYSICAL_SCENARIO,
      rate: result.requestsPerSecond,
      unit: 'req/s',
      p99Ms: result.p99Ms,
      serverCpuMsPerRequest: result.cpuMsPerRequest,
      note: 'U1 statement sets/s; CPU is the driver process only (PostgreSQL shares the cores)',
    });
    runState.physical = options;
  },
};

export default scenario;
