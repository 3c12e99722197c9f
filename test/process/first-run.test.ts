// What a new user does first: start the compiled server on an empty DATA_DIR with PUBLIC_URL
// unset, read the printed console address and credentials, and sign in with them in chromium at
// http://127.0.0.1:<port>/console, where the demo employees and last month's run are. And with
// SEED_DEMO=false, nothing is created on an empty database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CHROMIUM, sharedBrowser } from '../helpers/browser.js';
import { migratedDataDir } from '../helpers/database.js';
import { describeEmbedded } from '../helpers/embedded-only.js';
import { killAllAndRemove, startServerProcess } from './server-process.js';

const START_MS = 150_000;
const dirs: string[] = [];
const freshDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-first-run-'));
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  await killAllAndRemove(dirs);
});

/** The banner's values, or a failure that shows what was printed. */
function printed(output: string, pattern: RegExp): string {
  const match = pattern.exec(output);
  if (!match) throw new Error(`${pattern} not in the output:\n${output}`);
  return match[1];
}

describeEmbedded('the first run', () => {
  test.skipIf(!fs.existsSync(CHROMIUM))(
    'prints a console address and credentials that open the console on the demo data',
    async () => {
      // PUBLIC_URL blank is unset, whatever the test runner's environment holds.
      const server = await startServerProcess({ DATA_DIR: freshDataDir(), PUBLIC_URL: '' });
      await server.waitReady({ timeoutMs: START_MS });
      // The banner is printed once the server listens (src/server.ts): its bytes may reach this
      // process just after the first answer to /healthz.
      for (let i = 0; i < 50 && !server.output().includes('Next steps:'); i++) await new Promise((r) => setTimeout(r, 100));
      const output = server.output();
      const consoleUrl = printed(output, /Console: +(\S+)/);
      const email = printed(output, /super admin: +(\S+@\S+)/);
      const password = printed(output, /password \(shown once\): (\S+)/);
      const token = printed(output, /API token \(shown once\): (pk_\S+)/);
      // The banner names the address README names, and it is where the server listens.
      expect(consoleUrl).toBe(`http://127.0.0.1:${server.port}/console`);
      expect(output).toContain(`curl -H "Authorization: Bearer ${token}" http://127.0.0.1:${server.port}/api/users`);

      const users = await fetch(`${server.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await users.json()) as { totalResults: number }).totalResults).toBeGreaterThanOrEqual(25);

      // The worker's chromium (a launch costs ~2 s of CPU), in a context of this test's own.
      const context = await (await sharedBrowser()).newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(30_000);
        await page.goto(consoleUrl);
        expect(page.url()).toContain('/console/login');
        await page.getByLabel('E-mail address').fill(email);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(consoleUrl);

        await page.getByRole('link', { name: 'Employees', exact: true }).click();
        await page.waitForURL(/\/console\/employees$/);
        expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(25);
        expect(await page.locator('tbody').textContent()).toContain('Adaeze Okonkwo');

        await page.getByRole('link', { name: 'Payroll', exact: true }).click();
        await page.locator('tbody a').first().click();
        await page.waitForURL(/\/console\/payroll\/PR-/);
        expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(20);
        expect(await page.locator('tfoot td').first().textContent()).toBe('Run totals');
      } finally {
        await context.close();
      }
      server.child.kill('SIGTERM');
      expect(await server.waitExit(30_000)).toBe(0);
    },
    START_MS + 120_000,
  );

  test(
    'with SEED_DEMO=false creates nothing and prints no credentials',
    async () => {
      // The demo is seeded on an empty database (no company), migrated or not: a migrated one spares
      // this start the initdb and migrations the test above already makes (seconds of CPU each).
      const dataDir = freshDataDir();
      await migratedDataDir(dataDir);
      const server = await startServerProcess({
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        ADMIN_TOKEN: 'first-run-admin-token-0123456789',
      });
      await server.waitReady({ timeoutMs: START_MS });
      expect(server.output()).not.toMatch(/demo company|shown once/i);
      // The operator API finds no company 1: the database is still empty.
      const res = await fetch(`${server.baseUrl}/admin/companies/1`, {
        method: 'PATCH',
        headers: { authorization: 'Bearer first-run-admin-token-0123456789', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await server.waitExit(30_000)).toBe(0);
    },
    START_MS + 60_000,
  );
});
