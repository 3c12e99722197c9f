// What the tenants and history scenarios share to time one operation and keep the raw figures:
// repeated timings summarised as median and p99, the host's load beside every figure (the host is
// shared, so a figure means little without it), and the JSON file of a scenario's raw figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './paired.js';
import { repoRoot } from './processes.js';

export interface Timing {
  /** Milliseconds. */
  median: number;
  p99: number;
  samples: number;
}

/** Median and p99 of timings in milliseconds. */
export function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)], samples: sorted.length };
}

/** `fn` run `n` times one after the other, each timed on its own. */
export async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

/** Seconds `fn` took, and what it answered. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - started) / 1000, value };
}

/** The 1-, 5- and 15-minute load averages, as /proc/loadavg gives them. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

export const formatMs = (timing: Timing) => `median ${timing.median.toFixed(2)} ms, p99 ${timing.p99.toFixed(2)} ms of ${timing.samples}`;

/** Writes bench/results/<name>.json (gitignored, like latest.json). */
export function writeResults(name: string, data: unknown): string {
  const file = path.join(repoRoot, 'bench', 'results', `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
