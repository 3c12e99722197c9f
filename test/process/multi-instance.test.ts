// Two real server processes on one PostgreSQL database and one Redis: the global rate limit is
// shared, and a queued job runs on exactly one of them (real mail.deliver jobs against a real
// SMTP server, so a job run twice would be an e-mail delivered twice).
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { type Database, openPostgres, queryRows } from '../../src/db/client.js';
import { migrationFiles } from '../../src/db/migrate.js';
import { setupCompany } from '../../src/modules/companies/index.js';
import { issueToken } from '../../src/platform/auth/tokens.js';
import { createMailer } from '../../src/platform/mail/outbox.js';
import { freePort } from '../helpers/ports.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { killAll, type ServerProcess, startServerProcess } from './server-process.js';

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const START_MS = 150_000;
const MESSAGES = 150;

describe.skipIf(!databaseUrl || !redisUrl)('two instances on one PostgreSQL and one Redis (needs DATABASE_URL and REDIS_URL)', () => {
  let admin: pg.Client;
  let name: string;
  let database: Database;
  let smtp: SMTPServer;
  const delivered: string[] = [];
  let a: ServerProcess;
  let b: ServerProcess;
  let companyId: number;
  let auth: { authorization: string };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    name = `payroll_p_${inject('pgRun')}_${crypto.randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;

    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk) => {
          raw += chunk;
        });
        stream.on('end', () => {
          delivered.push(/^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '(no subject)');
          callback();
        });
      },
    });
    const smtpPort = await freePort();
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

    // Both start at once on an empty database: the migration advisory lock lets only one migrate.
    const env = {
      DATABASE_URL: url.toString(),
      PAYMENT_PROVIDER: 'sandbox',
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      REDIS_URL: redisUrl as string,
      RATE_LIMIT_STANDARD: '10',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      JOB_POLL_MS: '25',
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    await Promise.all([a.waitReady({ path: '/readyz', timeoutMs: START_MS }), b.waitReady({ path: '/readyz', timeoutMs: START_MS })]);

    database = await openPostgres(url.toString(), 2);
    // Rate-limit keys carry company and token ids; ids of a fresh database would repeat between
    // runs sharing one Redis within a window, so this run's ids start somewhere random.
    const start = 1_000_000 + crypto.randomInt(1_000_000_000);
    await database.execScript(`ALTER SEQUENCE companies_id_seq RESTART WITH ${start}`);
    await database.execScript(`ALTER SEQUENCE api_tokens_id_seq RESTART WITH ${start}`);
    const company = await database.db.transaction(async (tx) => {
      const created = await setupCompany(tx, { name: 'Two Instances Ltd', domain: `two${start}.test`, plan: 'standard' });
      return { id: created.id, token: (await issueToken(tx, created.id)).token };
    });
    companyId = company.id;
    auth = { authorization: `Bearer ${company.token}` };
  }, START_MS + 30_000);

  afterAll(async () => {
    await killAll();
    await database?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (name) {
      // pg's pool.end() resolves before its sockets are closed; a forced drop would then kill a
      // closing connection and crash the file with an unhandled 'error'. Wait until they are gone.
      for (let i = 0; i < 50; i++) {
        const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
    await admin?.end();
  });

  test('both started at once on the empty database, and the migrations ran once', async () => {
    expect(a.pid).not.toBe(b.pid);
    const applied = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations ORDER BY name`);
    expect(applied.map((row) => row.name)).toEqual(migrationFiles());
  });

  test('share the global rate limit: 10 requests across both succeed, the 11th is 429 on either', async () => {
    for (let i = 0; i < 10; i++) {
      const server = i % 2 === 0 ? a : b;
      const response = await fetch(`${server.baseUrl}/api/users`, { headers: auth });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit-global')).toBe('10');
      expect(response.headers.get('x-ratelimit-remaining-global')).toBe(String(9 - i));
    }
    for (const server of [a, b]) {
      const refused = await fetch(`${server.baseUrl}/api/users`, { headers: auth });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: 'Too many requests.' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('x-ratelimit-remaining-global')).toBe('0');
    }
  });

  test(`deliver ${MESSAGES} queued e-mails exactly once each, with both instances working the queue`, async () => {
    const mailer = createMailer();
    const subjects = Array.from({ length: MESSAGES }, (_, i) => `Payslip ready ${i + 1}`);
    await database.db.transaction(async (tx) => {
      for (const subject of subjects)
        await mailer.send(tx, { companyId, to: 'employee@example.test', subject, text: 'Your payslip is ready.' });
    });

    const deadline = Date.now() + 90_000;
    let sent = 0;
    while (Date.now() < deadline) {
      [{ n: sent }] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NOT NULL`);
      if (sent === MESSAGES) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sent).toBe(MESSAGES);
    // Anything delivered twice would arrive shortly after; give it the time to.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(delivered).toHaveLength(MESSAGES);
    expect([...delivered].sort()).toEqual([...subjects].sort());
    // Every job done at its first attempt, and both instances took a share of them.
    const [jobs] = await queryRows<{ total: number; done: number; max_attempts: number; workers: number }>(
      database.db,
      sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE done_at IS NOT NULL)::int AS done,
                 max(attempts)::int AS max_attempts, count(DISTINCT locked_by)::int AS workers
          FROM jobs WHERE kind = 'mail.deliver'`,
    );
    expect(jobs).toEqual({ total: MESSAGES, done: MESSAGES, max_attempts: 1, workers: 2 });
  }, 120_000);
});
