// The same U1 page on the embedded database (PGlite, the default without DATABASE_URL): a second
// server process on its own DATA_DIR, seeded beforehand by this runner (PGlite allows one process
// at a time, so the data is written, the database closed, then the server started on it). Memory
// rate limits (no Redis, as an embedded install runs), logging at info like the main server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { issueToken, setupCompany } from '../../src/modules/companies/index.js';
import { loadProblems, runLoad } from '../lib/load.js';
import { freePort, startNodeServer } from '../lib/processes.js';
import { UNLIMITED_RATES } from '../lib/server-env.js';
import { FIXTURE_USERS, PAGE_PATH, seedUsers } from '../lib/users-fixture.js';
import type { Scenario } from '../scenario.js';

const scenario: Scenario = {
  name: 'users-list-pglite',
  order: 11,
  async run(ctx) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
    try {
      const database = await openPglite(dataDir);
      let token: string;
      try {
        await migrate(database);
        const domain = `pglite-${crypto.randomBytes(3).toString('hex')}.test`;
        const company = await database.db.transaction((tx) => setupCompany(tx, { name: 'Bench PGlite', domain, plan: 'enterprise' }));
        token = (await issueToken(database.db, company.id, ['all'])).token;
        await seedUsers(database.db, company.id);
        await database.execScript('VACUUM ANALYZE');
      } finally {
        await database.close();
      }
      const server = await startNodeServer({
        script: 'src/server.ts',
        port: await freePort(),
        timeoutMs: 150_000,
        env: {
          DATABASE_URL: '',
          REDIS_URL: '',
          DATA_DIR: dataDir,
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
          SEED_DEMO: 'false',
          ...UNLIMITED_RATES,
        },
      });
      try {
        const result = await runLoad({
          url: `${server.baseUrl}${PAGE_PATH}`,
          headers: { authorization: `Bearer ${token}` },
          serverPid: server.pid,
        });
        ctx.report({
          scenario: `GET ${PAGE_PATH} (${FIXTURE_USERS.toLocaleString('en')} users) on PGlite`,
          rate: result.requestsPerSecond,
          unit: 'req/s',
          p99Ms: result.p99Ms,
          serverCpuMsPerRequest: result.cpuMsPerRequest,
          note: loadProblems(result) ?? `embedded database, memory rate limits; server peak RSS ${server.peakRss.takeMb()} MB`,
        });
      } finally {
        server.peakRss.close();
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default scenario;
