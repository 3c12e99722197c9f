// Alternating rounds between the real server and its references. On a shared machine the cost of a
// system call drifts by 2x over minutes (docs/benchmarks.md), so one baseline run followed by one
// real run compares two different machines. Each round here runs the references (the bare-Fastify
// ceiling and the physical limit, when given, then the baseline), then the real server, back to
// back; the ratios of a round see the same machine on every side, and the median of the rounds is
// the figure to report.
import { type DetailedLoadResult, runLoad } from './load.js';
import { type PhysicalOptions, runPhysicalLimit } from './physical.js';

export interface PairedRound {
  baseline: DetailedLoadResult;
  real: DetailedLoadResult;
  ceiling?: DetailedLoadResult;
  physical?: DetailedLoadResult;
  ratio: number;
  cpuRatio?: number;
  /** real / ceiling and real / physical limit of this round. */
  ceilingRatio?: number;
  physicalRatio?: number;
}

export interface PairedResult {
  rounds: PairedRound[];
  ratio: number;
  cpuRatio?: number;
  ceilingRatio?: number;
  physicalRatio?: number;
  realRequestsPerSecond: number;
  realCpuMsPerRequest?: number;
  realP99Ms: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const medianOf = (values: (number | undefined)[]) => {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length ? median(present) : undefined;
};

export async function pairedRounds(options: {
  baseline: { url: string; pid: number };
  real: { url: string; pid: number; headers: Record<string, string> };
  ceiling?: { url: string; pid: number };
  physical?: PhysicalOptions;
  rounds: number;
  durationSeconds: number;
}): Promise<PairedResult> {
  const rounds: PairedRound[] = [];
  const timing = { durationSeconds: options.durationSeconds, warmupSeconds: 1 };
  for (let round = 0; round < options.rounds; round++) {
    const ceiling = options.ceiling ? await runLoad({ url: options.ceiling.url, serverPid: options.ceiling.pid, ...timing }) : undefined;
    const physical = options.physical ? await runPhysicalLimit({ ...options.physical, ...timing }) : undefined;
    const baseline = await runLoad({ url: options.baseline.url, serverPid: options.baseline.pid, ...timing });
    const real = await runLoad({ url: options.real.url, serverPid: options.real.pid, headers: options.real.headers, ...timing });
    const cpuRatio = baseline.cpuMsPerRequest && real.cpuMsPerRequest ? baseline.cpuMsPerRequest / real.cpuMsPerRequest : undefined;
    rounds.push({
      baseline,
      real,
      ceiling,
      physical,
      ratio: real.requestsPerSecond / baseline.requestsPerSecond,
      cpuRatio,
      ceilingRatio: ceiling ? real.requestsPerSecond / ceiling.requestsPerSecond : undefined,
      physicalRatio: physical ? real.requestsPerSecond / physical.requestsPerSecond : undefined,
    });
  }
  return {
    rounds,
    ratio: median(rounds.map((round) => round.ratio)),
    cpuRatio: medianOf(rounds.map((round) => round.cpuRatio)),
    ceilingRatio: medianOf(rounds.map((round) => round.ceilingRatio)),
    physicalRatio: medianOf(rounds.map((round) => round.physicalRatio)),
    realRequestsPerSecond: median(rounds.map((round) => round.real.requestsPerSecond)),
    realCpuMsPerRequest: medianOf(rounds.map((round) => round.real.cpuMsPerRequest)),
    realP99Ms: median(rounds.map((round) => round.real.p99Ms)),
  };
}
