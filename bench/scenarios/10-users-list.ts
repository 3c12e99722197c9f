// The real server (separate process, authenticated, tenancy, rate-limited, logging at warn) on the
// baseline's data: U1 first page and U2 of one user, in a company of 10,000 users.
import { loadProblems } from '../lib/load.js';
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
  },
};

export default scenario;
