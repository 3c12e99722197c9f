// Real server processes for the start-up, shutdown and multi-instance tests: `node server.js` of
// the compiled build (what `npm start` runs, without the npm wrapper process, so that the pid we
// signal is the server's). Every process is bounded in time and killed by `killAll()`.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { repoRoot, SERVER_SCRIPT } from '../helpers/server-build.js';

const spawned = new Set<ChildProcess>();

/** Settings a test process must not inherit from the test runner's environment. */
const INHERITED_SETTINGS = [
  'DATABASE_URL',
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
];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

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

export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete childEnv[name];
  for (const name of Object.keys(childEnv)) if (name.startsWith('RATE_LIMIT_') || name.startsWith('VITEST')) delete childEnv[name];
  const serverPort = port ?? (await freePort());
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    cwd: repoRoot,
    env: { ...childEnv, HOST: '127.0.0.1', PORT: String(serverPort), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
      spawned.delete(child);
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

/** SIGKILL for every process a test started and that is still running (afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...spawned].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
  spawned.clear();
}
