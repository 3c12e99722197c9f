// A killed server leaves every bulk-imported row fully applied or absent (docs/users.md, "The users
// rules"): the real server runs as a child process, is SIGKILLed in the middle of a 10,000-row
// import, restarted, and the database is checked row by row.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../../../../test/helpers/database.js';
import { createCompany, type TestCompany } from '../../../../test/helpers/factories.js';
import { freePort } from '../../../../test/helpers/ports.js';
import { SERVER_NODE_ARGS, SERVER_SCRIPT } from '../../../../test/helpers/server-build.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../../../../test/helpers/test-keys.js';
import { generatedUsers, usersCsv } from '../../../../test/helpers/users.js';
import { type Database, openPglite, queryRows } from '../../../db/client.js';
import { CHUNK } from './users.bulk.service.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-crash-'));
let testDb: TestDatabase | undefined;
let server: ChildProcess | undefined;

afterAll(async () => {
  server?.kill('SIGKILL');
  await testDb?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    RATE_LIMIT_SENSITIVE: '1000',
    JOB_POLL_MS: '600000',
    // Both required with DATABASE_URL (src/config.ts); the import moves no money.
    PAYMENT_PROVIDER: 'sandbox',
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
  };
  if (testDb?.url) env.DATABASE_URL = testDb.url;
  else delete env.DATABASE_URL;
  // `node server.js` of the compiled build (not npm start, which forks a child): SIGKILL must hit the server itself.
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, SERVER_SCRIPT], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function withDatabase<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
  if (testDb) return fn(testDb.database.db);
  const database = await openPglite(dataDir);
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

it('keeps every row applied or absent when the server is killed mid-import', async () => {
  let company: TestCompany;
  if (process.env.DATABASE_URL) {
    testDb = await createTestDatabase();
    company = await createCompany(testDb.database.db);
  } else {
    // PGlite on disk (migrated from the run's image): seed it, close it, then hand the directory to the server.
    await migratedDataDir(dataDir);
    const database = await openPglite(dataDir);
    company = await createCompany(database.db);
    await database.close();
  }
  const base = `http://127.0.0.1:${await freePort()}`;
  const port = Number(new URL(base).port);
  server = await startServer(port);

  const csv = usersCsv(generatedUsers(10_000, company.domain));
  const form = () => {
    const data = new FormData();
    data.append('users_csv', new Blob([csv], { type: 'text/csv' }), 'users.csv');
    return data;
  };
  const upload = fetch(`${base}/api/users/bulk-create?notify=true`, { method: 'POST', headers: company.auth, body: form() }).then(
    (r) => r.status,
    () => 'killed' as const,
  );
  // Kill as soon as the first chunk is visible.
  let seen = 0;
  for (let i = 0; i < 3000 && seen === 0; i++) {
    const res = await fetch(`${base}/api/users?per_page=1`, { headers: company.auth }).catch(() => undefined);
    seen = res?.ok ? (await res.json()).totalResults : 0;
    if (seen === 0) await new Promise((r) => setTimeout(r, 20));
  }
  server.kill('SIGKILL');
  await new Promise((r) => server?.once('exit', r));
  expect(await upload).toBe('killed');

  // Restart on the same database: it must come up, and a second upload completes the import.
  server = await startServer(port);
  const checkRows = async () =>
    withDatabase(async (db) => {
      const users = await queryRows<{
        id: number;
        email: string;
        employee_id: string;
        personal_email: string;
        onboarding_token: string | null;
        mails: number;
        with_link: number;
      }>(
        db,
        // One pass over the outbox, joined (a subquery per user scanned it 10,000 times over).
        sql`SELECT u.id, u.email, u.employee_id, u.personal_email, u.onboarding_token,
              coalesce(m.mails, 0) AS mails, coalesce(l.with_link, 0) AS with_link
            FROM users u
            LEFT JOIN (SELECT o."to", count(*)::int AS mails FROM outbox o WHERE o.company_id = ${company.id} GROUP BY 1) m
              ON m."to" = u.personal_email
            LEFT JOIN (SELECT o."to", substring(o.text FROM '/onboarding/([A-Za-z0-9_-]+)') AS token, count(*)::int AS with_link
                       FROM outbox o GROUP BY 1, 2) l
              ON l."to" = u.personal_email AND l.token = u.onboarding_token
            WHERE u.company_id = ${company.id}`,
      );
      const [{ orphans }] = await queryRows<{ orphans: number }>(
        db,
        sql`SELECT count(*)::int AS orphans FROM outbox o
            WHERE o.company_id = ${company.id}
              AND o.id NOT IN (SELECT (jsonb_array_elements(j.payload->'outboxIds'))::bigint FROM jobs j WHERE j.kind = 'mail.deliver')`,
      );
      return { users, orphans };
    });

  if (!testDb) {
    // PGlite: only one process may open the directory; stop the server to look inside.
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  const afterCrash = await checkRows();
  const imported = afterCrash.users.length;
  expect(imported).toBeGreaterThan(0);
  expect(imported).toBeLessThan(10_000);
  // Whole chunks only: every row of a chunk commits with its e-mails and jobs, or none does.
  expect(imported % CHUNK).toBe(0);
  for (const user of afterCrash.users) {
    expect(user.email).toMatch(new RegExp(`@${company.domain}$`));
    expect(user.employee_id).toMatch(new RegExp(`^${company.code}-\\d{4,}$`));
    expect(user.onboarding_token?.length).toBeGreaterThanOrEqual(32);
    expect(user.mails).toBe(1);
    expect(user.with_link).toBe(1);
  }
  expect(afterCrash.orphans).toBe(0);

  if (!testDb) server = await startServer(port);
  const again = await fetch(`${base}/api/users/bulk-create?notify=true`, { method: 'POST', headers: company.auth, body: form() });
  expect(again.status).toBe(200);
  const body = await again.json();
  expect(body.summary).toBe('10000 of 10000 rows succeeded.');
  if (!testDb) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  const final = await checkRows();
  expect(final.users).toHaveLength(10_000);
  expect(new Set(final.users.map((u) => u.employee_id)).size).toBe(10_000);
  // Re-uploaded rows were re-invited with a fresh link: the current token is in exactly one e-mail.
  for (const user of final.users) expect(user.with_link).toBe(1);
  expect(final.orphans).toBe(0);
}, 600_000);
