// Alternating rounds between the real server and the bare-query baseline. On a shared machine the
// cost of a system call drifts by 2x over minutes (docs/benchmarks.md), so one baseline run followed
// by one real run compares two different machines. Each round here runs the baseline, then the real
// server, back to back; the ratio of a round sees the same machine on both sides, and the median
// of the rounds is the figure to report.
import { type DetailedLoadResult, runLoad } from './load.js';

export interface PairedResult {
  rounds: { baseline: DetailedLoadResult; real: DetailedLoadResult; ratio: number; cpuRatio?: number }[];
  ratio: number;
  cpuRatio?: number;
  realRequestsPerSecond: number;
  realCpuMsPerRequest?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export async function pairedRounds(options: {
  baseline: { url: string; pid: number };
  real: { url: string; pid: number; headers: Record<string, string> };
  rounds: number;
  durationSeconds: number;
}): Promise<PairedResult> {
  const rounds: PairedResult['rounds'] = [];
  for (let round = 0; round < options.rounds; round++) {
    const baseline = await runLoad({
      url: options.baseline.url,
      serverPid: options.baseline.pid,
      durationSeconds: options.durationSeconds,
      warmupSeconds: 1,
    });
    const real = await runLoad({
      url: options.real.url,
      serverPid: options.real.pid,
      headers: options.real.headers,
      durationSeconds: options.durationSeconds,
      warmupSeconds: 1,
    });
    const cpuRatio = baseline.cpuMsPerRequest && real.cpuMsPerRequest ? baseline.cpuMsPerRequest / real.cpuMsPerRequest : undefined;
    rounds.push({ baseline, real, ratio: real.requestsPerSecond / baseline.requestsPerSecond, cpuRatio });
  }
  const cpuRatios = rounds.flatMap((round) => (round.cpuRatio === undefined ? [] : [round.cpuRatio]));
  const cpuMs = rounds.flatMap((round) => (round.real.cpuMsPerRequest === undefined ? [] : [round.real.cpuMsPerRequest]));
  return {
    rounds,
    ratio: median(rounds.map((round) => round.ratio)),
    cpuRatio: cpuRatios.length ? median(cpuRatios) : undefined,
    realRequestsPerSecond: median(rounds.map((round) => round.real.requestsPerSecond)),
    realCpuMsPerRequest: cpuMs.length ? median(cpuMs) : undefined,
  };
}
