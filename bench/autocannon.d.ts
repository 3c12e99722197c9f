// autocannon ships no types; the bench uses this much of its programmatic API.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number | string }>;
  }
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    /** Replaces `[<id>]` in the body with a fresh id on every request. */
    idReplacement?: boolean;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
