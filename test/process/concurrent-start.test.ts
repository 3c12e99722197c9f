// Several `npm start` from one checkout started a fraction of a second apart (two instances on one
// machine, a supervisor restarting one while another runs): each must serve. They used to share one
// dist/ that every start deleted and rebuilt, so a server still loading it died with
// ERR_MODULE_NOT_FOUND. The checkout is a fresh copy (sources, scripts, package.json), so that no
// build of its sources exists yet and every start races to make one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migratedDataDir } from '../helpers/database.js';
import { describeEmbedded } from '../helpers/embedded-only.js';
import { repoRoot } from '../helpers/server-build.js';
import { killAllAndRemove, type ServerProcess, startServerProcess } from './server-process.js';

const START_MS = 150_000;
const INSTANCES = 3;

describeEmbedded('several npm start from one checkout, started moments apart', () => {
  // Inside the repository, so that the copy's builds resolve the repository's node_modules.
  // `.test-data` does not exist in a clean clone, so it is made here rather than assumed.
  let checkout = '';
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(() => {
    // Made here, not when the suite is collected, so that a skipped run leaves nothing behind.
    const testData = path.join(repoRoot, '.test-data');
    fs.mkdirSync(testData, { recursive: true });
    checkout = fs.mkdtempSync(path.join(testData, 'checkout-'));
    for (const entry of ['src', 'scripts', 'package.json'])
      fs.cpSync(path.join(repoRoot, entry), path.join(checkout, entry), { recursive: true });
  });

  afterAll(async () => {
    await killAllAndRemove([checkout, ...dataDirs]);
  });

  test(
    `${INSTANCES} instances, each with its own DATA_DIR and port, all serve; the build is made once and never touched again`,
    async () => {
      // Each DATA_DIR already migrated (the database is not what this file tests), prepared before
      // the starts so that they stay moments apart.
      const fresh = async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-concurrent-'));
        dataDirs.push(dataDir);
        await migratedDataDir(dataDir);
        return dataDir;
      };
      const instanceDirs = [];
      for (let i = 0; i < INSTANCES; i++) instanceDirs.push(await fresh());
      for (const dataDir of instanceDirs) {
        servers.push(await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: 'false' }, undefined, checkout));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      await Promise.all(servers.map((server) => server.waitReady({ timeoutMs: START_MS })));
      for (const server of servers) {
        expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
        expect(server.output()).not.toContain('ERR_MODULE_NOT_FOUND');
      }
      // One build, no temporary directory left behind.
      const builds = path.join(checkout, 'dist', 'builds');
      expect(fs.readdirSync(builds)).toHaveLength(1);
      const [build] = fs.readdirSync(builds);
      const serverFile = path.join(builds, build, 'server.js');
      const before = fs.statSync(serverFile);

      // One more start of the same sources while the others run: it reuses the build as it is.
      const late = await startServerProcess({ DATA_DIR: await fresh(), SEED_DEMO: 'false' }, undefined, checkout);
      await late.waitReady({ timeoutMs: START_MS });
      expect(fs.readdirSync(builds)).toEqual([build]);
      expect(fs.statSync(serverFile).ino).toBe(before.ino);
      expect(fs.statSync(serverFile).mtimeMs).toBe(before.mtimeMs);
      for (const server of servers) expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    },
    START_MS * 2,
  );
});
