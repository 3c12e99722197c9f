// Child processes for the bench: the real server, the bare baselines and the load worker each run
// in a process of their own, so that the load generator never steals the server's event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildDist } from '../../scripts/build.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port that was free a moment ago (the child binds it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * With BENCH_CPU_PROF set, node flags that write a V8 CPU profile of the process into
 * bench/results/profiles/<label>/ when it exits (summarize with bench/profile-summary.ts).
 */
export function profileArgs(label: string): string[] {
  if (!process.env.BENCH_CPU_PROF) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(repoRoot, 'bench', 'results', 'profiles', label)}`];
}

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  peakRss: PeakRss;
}

/**
 * Every measured process runs compiled JavaScript, as `npm start` does: the real server is
 * dist/server.js (scripts/build.mjs), a bare baseline is its own script bundled with the src/
 * modules it borrows (packages stay in node_modules). No TypeScript loader in any of them, so
 * their memory and CPU figures compare like with like.
 */
export async function compiled(script: string): Promise<string> {
  if (script === 'src/server.ts') return path.join(await buildDist(), 'server.js');
  const outfile = path.join(repoRoot, 'bench', 'results', 'build', `${path.basename(script, '.ts')}.js`);
  await build({
    entryPoints: [path.join(repoRoot, script)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Starts the compiled `script` (see `compiled`) with `env` on `port`, and waits until `readyPath`
 * answers 2xx. The script's own process, never a wrapper (npx, npm), so that its pid is the
 * server's and signals reach it.
 */
export async function startNodeServer(options: {
  script: string;
  env: Record<string, string | undefined>;
  port: number;
  readyPath?: string;
  nodeArgs?: string[];
  timeoutMs?: number;
}): Promise<NodeProcess> {
  const nodeArgs = options.nodeArgs ?? profileArgs(path.basename(options.script, '.ts'));
  const child = spawn(process.execPath, [...nodeArgs, await compiled(options.script)], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env, PORT: String(options.port), HOST: '127.0.0.1' } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server logs a line per request (LOG_LEVEL=info): read it all, as a log collector would,
  // but keep only the tail for error reports.
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk;
    if (output.length > 256 * 1024) output = output.slice(-64 * 1024);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let ready = false;
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  while (!ready && !dead && Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}${options.readyPath ?? '/healthz'}`);
      await response.arrayBuffer();
      ready = response.ok;
    } catch {}
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`${options.script} did not become ready on ${baseUrl}:\n${output}`);
  }
  const pid = child.pid as number;
  return {
    child,
    pid,
    baseUrl,
    output: () => output,
    peakRss: new PeakRss(pid),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The process's resident set now (VmRSS), in MB; 0 when /proc cannot tell. */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system, all threads) the process has used so far; Linux /proc only. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by each PostgreSQL backend serving `database` on this host, by pid: every
 * process whose title (`postgres: <user> <database> <client> <state>`) names it. The server's
 * shared processes (WAL writer, checkpointer) are not counted. Empty when /proc cannot tell.
 */
export function databaseBackendsCpu(database: string): Map<number, number> {
  const backends = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return backends;
  }
  for (const pid of pids) {
    try {
      const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.split(' ').includes(database)) continue;
      backends.set(Number(pid), cpuSeconds(Number(pid)) ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return backends;
}

/**
 * CPU seconds used so far by the PostgreSQL backends serving `database` (databaseBackendsCpu). A
 * backend that exits between two samples takes its time with it, so sample while the pool's
 * connections are open. 0 when /proc cannot tell.
 */
export function databaseCpuSeconds(database: string): number {
  let total = 0;
  for (const seconds of databaseBackendsCpu(database).values()) total += seconds;
  return total;
}

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Peak resident set size since the last `takeMb()`. Linux keeps the peak in VmHWM and resets it
 * when "5" is written to /proc/<pid>/clear_refs; where that is not allowed we poll VmRSS every
 * 50 ms instead (which can miss a spike shorter than that).
 */
export class PeakRss {
  private polled = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly resettable: boolean;

  constructor(private readonly pid: number) {
    this.resettable = this.reset();
    if (!this.resettable) {
      this.timer = setInterval(() => {
        this.polled = Math.max(this.polled, statusField(pid, 'VmRSS') ?? 0);
      }, 50);
      this.timer.unref();
    }
  }

  private reset(): boolean {
    try {
      fs.writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }

  takeMb(): number {
    if (this.resettable) {
      const peak = statusField(this.pid, 'VmHWM') ?? 0;
      this.reset();
      return Math.round(peak);
    }
    const peak = Math.max(this.polled, statusField(this.pid, 'VmRSS') ?? 0);
    this.polled = 0;
    return Math.round(peak);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/**
 * The server's peak RSS over a stretch of work: its high-water mark since `start()` (VmHWM, reset by
 * ctx.serverPeakRssMb) and VmRSS sampled every 100 ms meanwhile, the larger of the two. `stop()`
 * ends the sampling and returns it in MB; call it in a `finally` too, so the timer never outlives
 * the work.
 */
export async function serverPeakRss(ctx: { serverPid: number; serverPeakRssMb(): Promise<number> }): Promise<{ stop(): Promise<number> }> {
  await ctx.serverPeakRssMb();
  let sampled = 0;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, rssMb(ctx.serverPid));
  }, 100);
  let peak: Promise<number> | undefined;
  return {
    // Once: a second call (the `finally` after a successful read) returns the same figure.
    stop() {
      clearInterval(sampler);
      peak ??= ctx.serverPeakRssMb().then((mark) => Math.max(mark, Math.round(sampled)));
      return peak;
    },
  };
}
