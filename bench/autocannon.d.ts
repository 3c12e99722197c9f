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
  /** One entry of `requests`; `setupRequest` rewrites each request before it is sent. */
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** Milliseconds between samples; a run ends at the first sample after `duration` (default 1000). */
    sampleInt?: number;
    timeout?: number;
    /** Replaces `[<id>]` in the body with a fresh id on every request. */
    idReplacement?: boolean;
    requests?: Request[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
