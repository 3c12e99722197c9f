// Real server processes for the start-up, shutdown and multi-instance tests: `node server.js` of
// the compiled build (what `npm start` runs, without the npm wrapper process, so that the pid we
// signal is the server's), or `npm start` itself in a given checkout. Every process is bounded in
// time and killed by `killAll()`.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processStat } from '../../src/db/data-dir-lock.js';
import { freePort } from '../helpers/ports.js';
import { repoRoot, SERVER_NODE_ARGS, SERVER_SCRIPT } from '../helpers/server-build.js';

const spawned = new Set<ChildProcess>();

/** Settings a test process must not inherit from the test runner's environment. */
const INHERITED_SETTINGS = [
  'DATABASE_URL',
  'PAYMENT_PROVIDER',
  'WEBHOOK_SECRET_KEY',
  'REDIS_URL',
  'DATA_DIR',
  'PORT',
  'HOST',
  'SEED_DEMO',
  'ADMIN_TOKEN',
  'SMTP_URL',
  'LOG_LEVEL',
  'LOG_BUFFER_BYTES',
  'NODE_OPTIONS',
  'METRICS_TOKEN',
  'METRICS_PORT',
];

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Polls `path` until it answers 200, or throws with the process output. */
  waitReady(options?: { path?: string; timeoutMs?: number }): Promise<void>;
  /** Resolves with the exit code, or rejects if the process is still running after `timeoutMs`. */
  waitExit(timeoutMs: number): Promise<number | null>;
}

/**
 * JSON over HTTP to a started server: `{status, body}` (`{}` for an empty body). Redirects are
 * answered, not followed.
 */
export async function requestJson(baseUrl: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted structurally by each test
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

/** Polls `check` every 200 ms until it holds; past `timeoutMs`, fails with what the server printed. */
export async function until(server: ServerProcess, what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
}

/**
 * Starts the server with `env` on `port` (a free one by default). With `npmStartIn`, runs
 * `npm start` in that checkout instead, in a process group of its own so that killAll() reaches
 * npm's children too.
 */
export async function startServerProcess(env: Record<string, string>, port?: number, npmStartIn?: string): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete childEnv[name];
  for (const name of Object.keys(childEnv)) if (name.startsWith('RATE_LIMIT_') || name.startsWith('VITEST')) delete childEnv[name];
  const serverPort = port ?? (await freePort());
  const [command, args] = npmStartIn ? ['npm', ['start']] : [process.execPath, [...SERVER_NODE_ARGS, SERVER_SCRIPT]];
  // The compile cache `npm start` turns on (scripts/start.mjs), for the server started directly.
  if (!npmStartIn) childEnv.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'node-compile-cache');
  const child = spawn(command, args, {
    cwd: npmStartIn ?? repoRoot,
    env: { ...childEnv, HOST: '127.0.0.1', PORT: String(serverPort), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: npmStartIn !== undefined,
  });
  spawned.add(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      // npm's group may outlive npm: killAll() still kills it.
      if (!npmStartIn) spawned.delete(child);
      resolve(code);
    }),
  );
  const baseUrl = `http://127.0.0.1:${serverPort}`;
  return {
    child,
    pid: child.pid as number,
    port: serverPort,
    baseUrl,
    output: () => output,
    exited,
    async waitReady({ path: readyPath = '/healthz', timeoutMs = 120_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
        try {
          const response = await fetch(`${baseUrl}${readyPath}`);
          await response.arrayBuffer();
          if (response.status === 200) return;
        } catch {}
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`server not ready on ${baseUrl}${readyPath} after ${timeoutMs} ms:\n${output}`);
    },
    waitExit(timeoutMs) {
      return Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`process ${child.pid} still running after ${timeoutMs} ms:\n${output}`)), timeoutMs).unref(),
        ),
      ]);
    },
  };
}

/**
 * A zombie and its pid: a node process starts a child that exits at once, then blocks its own event
 * loop, so the exit is never collected (what a server killed with -9 looks like until its parent
 * reaps it).
 */
export async function zombie(): Promise<number> {
  const parent = spawn(
    process.execPath,
    [
      '-e',
      `const c = require('node:child_process').spawn('true'); console.log(c.pid); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  spawned.add(parent);
  const pid = await new Promise<number>((resolve) => parent.stdout?.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
  for (let i = 0; i < 100 && processStat(pid)?.state !== 'Z'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (processStat(pid)?.state !== 'Z') throw new Error(`process ${pid} did not become a zombie`);
  return pid;
}

/** SIGKILL for every process a test started and that is still running (afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...spawned].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.spawnargs[0] === 'npm') {
          // The whole group: npm, its shell and the server.
          try {
            process.kill(-(child.pid as number), 'SIGKILL');
          } catch {}
        }
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
  spawned.clear();
}

/**
 * Stops every server, then removes their data directories. In that order: a live server still writes
 * there (PGlite's files), and a describe's afterAll runs before the file's, so removing first failed
 * with ENOTEMPTY.
 */
export async function killAllAndRemove(dirs: readonly (string | undefined)[]): Promise<void> {
  await killAll();
  for (const dir of dirs) if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
