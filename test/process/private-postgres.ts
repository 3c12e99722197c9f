// A PostgreSQL cluster of the test's own (initdb in a temporary directory, loopback, a free port), so
// that a test can stop and start the server under a running payroll server without touching the
// shared cluster other tests use. As root the cluster runs as the `postgres` user (initdb refuses
// root); otherwise as the current user.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/ports.js';

export interface PrivatePostgres {
  /** Connection string of database `name` on this cluster. */
  url(name: string): string;
  /** A fast shutdown: every backend gets 57P01 admin_shutdown, then the port refuses connections. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (immediately) and removes its directory. */
  destroy(): void;
}

/** The directory of PostgreSQL's server programs, or undefined when none is installed. */
function binDir(): string | undefined {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {}
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
}

/** Why a private cluster cannot be made here, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  if (!binDir()) return 'initdb was not found (install the PostgreSQL server package to run this test)';
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root without a postgres user to run initdb as';
    }
  }
  return undefined;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir() as string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payroll-private-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args], { stdio: 'pipe', timeout: 120_000 })
      : execFileSync(path.join(bin, program), args, { stdio: 'pipe', timeout: 120_000 });
  // Stop and start do not block this process: the load a test runs meanwhile keeps going.
  const runAsync = async (program: string, args: string[]) => {
    const [command, all] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]]
      : [path.join(bin, program), args];
    await promisify(execFile)(command, all, { timeout: 120_000 });
  };
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = () => runAsync('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  await start();
  return {
    url: (name) => `postgres://postgres@127.0.0.1:${port}/${name}`,
    stop: () => runAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {}
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
