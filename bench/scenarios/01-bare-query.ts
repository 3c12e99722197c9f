// The baseline the real endpoint is measured against: the same queries and serializer in bare
// Fastify, so that real/baseline is the cost of the platform (auth, tenancy, limits, logging).
import { loadProblems, runLoad } from '../lib/load.js';
import { freePort, startNodeServer } from '../lib/processes.js';
import { BASELINE_SCENARIO, runState } from '../lib/run-state.js';
import { PAGE_PATH, usersFixture } from '../lib/users-fixture.js';
import type { Scenario } from '../scenario.js';

const scenario: Scenario = {
  name: 'bare-query',
  order: 1,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    const server = await startNodeServer({
      script: 'bench/bare/query-server.ts',
      env: { DATABASE_URL: runState.databaseUrl, BENCH_COMPANY_ID: String(fixture.companyId) },
      port: await freePort(),
    });
    // Kept running for users-list's alternating rounds; the runner stops it at the end.
    runState.cleanups.push(async () => {
      server.peakRss.close();
      await server.stop();
    });
    // Same answer as the real server, or the comparison means nothing.
    const body = await (await fetch(`${server.baseUrl}${PAGE_PATH}`)).text();
    if (body !== fixture.pageBody) throw new Error('the bare query server answers differently from GET /api/users');
    const result = await runLoad({ url: `${server.baseUrl}${PAGE_PATH}`, serverPid: server.pid });
    const rss = server.peakRss.takeMb();
    ctx.report({
      scenario: BASELINE_SCENARIO,
      rate: result.requestsPerSecond,
      unit: 'req/s',
      p99Ms: result.p99Ms,
      serverCpuMsPerRequest: result.cpuMsPerRequest,
      note: loadProblems(result) ?? `list + count of 10,000 users; peak RSS ${rss} MB`,
    });
    runState.baseline = { url: `${server.baseUrl}${PAGE_PATH}`, pid: server.pid };
  },
};

export default scenario;
