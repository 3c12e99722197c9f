// The start-up path with real processes: what `npm start` does on a fresh DATA_DIR (PGlite), the
// DATA_DIR lock, graceful shutdown on SIGTERM, and migrating a fresh PostgreSQL database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { processStat } from '../../src/db/data-dir-lock.js';
import { migrationFiles } from '../../src/db/migrate.js';
import { describeEmbedded } from '../helpers/embedded-only.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../helpers/test-keys.js';
import { killAll, killAllAndRemove, type ServerProcess, startServerProcess, zombie } from './server-process.js';

// A cold start compiles the TypeScript and opens PGlite: seconds on an idle machine, much more on
// a busy CI box, so these tests get generous (but finite) limits.
const START_MS = 150_000;
const TOKEN_LINE = /API token \(shown once\): (pk_[A-Za-z0-9_-]+)/;

afterAll(killAll);

describeEmbedded('npm start on a fresh DATA_DIR (embedded database)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-start-'));
  let first: ServerProcess;
  let token: string;

  beforeAll(async () => {
    first = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await first.waitReady({ timeoutMs: START_MS });
  }, START_MS + 10_000);

  afterAll(async () => {
    await killAllAndRemove([dataDir]);
  });

  test('serves /healthz and /readyz, and prints the demo token once with the next steps', async () => {
    expect(await (await fetch(`${first.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${first.baseUrl}/readyz`)).json()).toEqual({ status: 'ready' });
    const output = first.output();
    const match = TOKEN_LINE.exec(output);
    expect(match).not.toBeNull();
    token = (match as RegExpExecArray)[1];
    expect(output.match(/API token \(shown once\)/g)).toHaveLength(1);
    expect(output).toContain(`curl -H "Authorization: Bearer ${token}"`);
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
  });

  test('the printed token works against /api/users', async () => {
    const response = await fetch(`${first.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit-global')).toBeTruthy();
    // The demo company's employees (src/seed.ts).
    const body = (await response.json()) as { Resources: unknown[]; totalResults: number };
    expect(body.totalResults).toBeGreaterThanOrEqual(25);
    expect(body.Resources).toHaveLength(body.totalResults);
    const wrong = await fetch(`${first.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
  });

  test('logs one JSON line per request, buffered but on stdout within about a second, without the token', async () => {
    const logLines = () =>
      first
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'));
    const completed = () =>
      logLines()
        .map((line) => JSON.parse(line))
        .filter((record) => record.req?.url === '/api/users');
    await expect.poll(() => completed().length, { timeout: 3_000, interval: 100 }).toBe(2);
    const [ok, refused] = completed();
    expect(ok).toMatchObject({ msg: 'request completed', route: 'users.index', req: { method: 'GET' }, res: { statusCode: 200 } });
    expect(typeof ok.companyId).toBe('number');
    expect(typeof ok.responseTime).toBe('number');
    expect(refused.res.statusCode).toBe(401);
    expect(first.output()).not.toContain('incoming request');
    expect(logLines().join('\n')).not.toContain(token);
  });

  test(
    'a second process on the same DATA_DIR refuses to start with a clear message',
    async () => {
      const second = await startServerProcess({ DATA_DIR: dataDir });
      const code = await second.waitExit(START_MS);
      expect(code).not.toBe(0);
      expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by process ${first.pid}`);
      // The first server is untouched.
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
    },
    START_MS + 10_000,
  );

  test('SIGTERM: stops accepting, lets the in-flight request finish, exits 0 and releases the lock', async () => {
    // A request whose body is still arriving is in flight for as long as we like.
    const socket = net.connect(first.port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    const body = '{"probe": "in flight"}';
    socket.write(
      `POST /in-flight-probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // No new connections, but the process waits for the request in flight.
    await expect(fetch(`${first.baseUrl}/healthz`)).rejects.toThrow();
    expect(first.child.exitCode).toBeNull();

    socket.write(body.slice(5));
    expect(await first.waitExit(20_000)).toBe(0);
    expect(response).toMatch(/^HTTP\/1\.1 404 /);
    expect(response).toContain('{"error":"Not found."}');
    // Its log line, still in the buffer when the process exited, was written on the way out.
    expect(first.output()).toMatch(/"url":"\/in-flight-probe".*"msg":"request completed"/);
    socket.destroy();
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  }, 40_000);

  test(
    'a restart right after kill -9 (the lock names a zombie) keeps the data and prints no token',
    async () => {
      const dead = await zombie();
      fs.writeFileSync(path.join(dataDir, 'server.lock'), JSON.stringify({ pid: dead, startTime: processStat(dead)?.startTime }));
      const again = await startServerProcess({ DATA_DIR: dataDir });
      await again.waitReady({ timeoutMs: START_MS });
      expect(again.output()).not.toMatch(/API token/);
      const response = await fetch(`${again.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      again.child.kill('SIGTERM');
      expect(await again.waitExit(20_000)).toBe(0);
    },
    START_MS + 30_000,
  );
});

const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('start-up on PostgreSQL (runs when DATABASE_URL is set)', () => {
  let admin: pg.Client;
  let name: string;
  let server: ServerProcess;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // Named after this test run, so the global teardown drops it even if this file crashes.
    name = `payroll_p_${inject('pgRun')}_${crypto.randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
  });

  afterAll(async () => {
    await killAll();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  test(
    'migrates a fresh database, serves /readyz, seeds nothing, and shuts down cleanly',
    async () => {
      const url = new URL(databaseUrl as string);
      url.pathname = `/${name}`;
      server = await startServerProcess({
        DATABASE_URL: url.toString(),
        PAYMENT_PROVIDER: 'sandbox',
        WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      });
      await server.waitReady({ path: '/readyz', timeoutMs: START_MS });

      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      try {
        const applied = await check.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
        expect(applied.rows.map((row) => row.name)).toEqual(migrationFiles());
        const companies = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM companies');
        expect(companies.rows[0].n).toBe(0); // SEED_DEMO defaults to false on PostgreSQL
      } finally {
        await check.end();
      }
      expect(server.output()).not.toMatch(/API token/);
      server.child.kill('SIGTERM');
      expect(await server.waitExit(20_000)).toBe(0);
    },
    START_MS + 30_000,
  );
});
