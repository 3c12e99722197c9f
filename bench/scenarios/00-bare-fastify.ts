// The ceiling: what Fastify alone does on this machine with the same 20-user JSON body.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProblems, runLoad } from '../lib/load.js';
import { freePort, startNodeServer } from '../lib/processes.js';
import { runState } from '../lib/run-state.js';
import { PAGE_PATH, usersFixture } from '../lib/users-fixture.js';
import type { Scenario } from '../scenario.js';

const scenario: Scenario = {
  name: 'bare-fastify',
  order: 0,
  async run(ctx) {
    const fixture = await usersFixture(ctx);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-payload-'));
    const payloadFile = path.join(dir, 'page.json');
    fs.writeFileSync(payloadFile, fixture.pageBody);
    const server = await startNodeServer({
      script: 'bench/bare/fastify-server.ts',
      env: { BENCH_PAYLOAD_FILE: payloadFile },
      port: await freePort(),
    });
    // Kept running for users-list's rounds (its ratio to the ceiling); the runner stops it at the end.
    runState.cleanups.push(async () => {
      server.peakRss.close();
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const result = await runLoad({ url: `${server.baseUrl}${PAGE_PATH}`, serverPid: server.pid });
    const rss = server.peakRss.takeMb();
    ctx.report({
      scenario: 'bare Fastify, same payload (ceiling)',
      rate: result.requestsPerSecond,
      unit: 'req/s',
      p99Ms: result.p99Ms,
      serverCpuMsPerRequest: result.cpuMsPerRequest,
      note: loadProblems(result) ?? `${fixture.pageBody.length} B body; peak RSS ${rss} MB`,
    });
    runState.ceiling = { url: `${server.baseUrl}${PAGE_PATH}`, pid: server.pid, requestsPerSecond: result.requestsPerSecond };
  },
};

export default scenario;
