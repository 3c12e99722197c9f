// A redis-server of the test's own (loopback, a free port, no persistence), so that a test can kill,
// freeze and restart Redis under a running app without touching the shared one other tests use
// (docs/operations.md, "Failures").
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { freePort } from './ports.js';

export interface PrivateRedis {
  url: string;
  /** SIGKILL: the connection drops and the port refuses connections. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the connection stays open but nothing is answered (a hung or unreachable host). */
  freeze(): void;
  thaw(): void;
  /** Starts a new, empty server on the same port. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why a private Redis cannot be started here, or undefined when it can. */
export function privateRedisUnavailable(): string | undefined {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'redis-server is not installed';
  }
}

/** Resolves once something accepts connections on the port and answers PING. */
async function answersPing(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setTimeout(500, () => socket.destroy());
      socket.on('error', () => resolve(false));
      socket.on('close', () => resolve(false));
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (data) => {
        resolve(data.toString().startsWith('+PONG'));
        socket.destroy();
      });
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`private redis-server on port ${port} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', os.tmpdir()],
      { stdio: 'ignore' },
    );
    await answersPing(port, 10_000);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    start,
    destroy: kill,
  };
}
