import type { PhysicalOptions } from './physical.js';

// What the runner knows about the current run that the baseline scenarios need beyond BenchContext.
export const BASELINE_SCENARIO = 'bare Fastify + Drizzle query (baseline)';

export const runState: {
  /** Connection string of this run's fresh database (the bare-query baseline connects to it). */
  databaseUrl: string;
  /** The Redis the servers share ('' when Redis is unreachable: memory rate limits). */
  redisUrl: string;
  /**
   * The bare-query baseline, left running after its own scenario so that users-list can alternate
   * rounds between it and the real server (machine noise then hits both sides of each ratio).
   */
  baseline?: { url: string; pid: number };
  /** The bare-Fastify ceiling, also left running for users-list's rounds; its single run's rate (other-lists' ratios). */
  ceiling?: { url: string; pid: number; requestsPerSecond?: number };
  /** The physical limit's statements (02-physical-limit), re-run in users-list's rounds. */
  physical?: PhysicalOptions;
  /** Run by the runner after the last scenario (stops the processes scenarios left running). */
  cleanups: (() => Promise<unknown>)[];
} = { databaseUrl: '', redisUrl: '', cleanups: [] };
