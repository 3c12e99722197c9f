// Runs bench/bare/physical-limit.ts (compiled, in a process of its own) once and returns its
// figures in the load worker's shape: the statements of GET /api/users alone, from the driver.
import { spawn } from 'node:child_process';
import type { DetailedLoadResult } from './load.js';
import { compiled, profileArgs, repoRoot } from './processes.js';

export interface PhysicalOptions {
  databaseUrl: string;
  statements: { name: string; text: string; values: unknown[] }[];
  connections?: number;
}

function envSeconds(name: string): number | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
}

export async function runPhysicalLimit(
  options: PhysicalOptions & { durationSeconds?: number; warmupSeconds?: number },
): Promise<DetailedLoadResult> {
  const durationSeconds = envSeconds('BENCH_DURATION_SECONDS') ?? options.durationSeconds ?? 10;
  const warmupSeconds = envSeconds('BENCH_WARMUP_SECONDS') ?? options.warmupSeconds ?? 2;
  const script = await compiled('bench/bare/physical-limit.ts');
  const payload = JSON.stringify({ ...options, connections: options.connections ?? 10, durationSeconds, warmupSeconds });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...profileArgs('physical-limit'), script], {
      cwd: repoRoot,
      env: { ...process.env, BENCH_PHYSICAL_OPTIONS: payload },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + warmupSeconds + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(guard);
      const line = stdout.trim().split('\n').pop();
      if (code !== 0 || !line) return reject(new Error(`physical-limit exited with ${code}: ${stderr || stdout}`));
      resolve({ statusCodes: {}, ...(JSON.parse(line) as Omit<DetailedLoadResult, 'statusCodes'>) });
    });
  });
}
