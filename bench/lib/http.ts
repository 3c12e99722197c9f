// Plain HTTP calls of the batch scenarios (payroll-runs, year-events, remittances, growth): one JSON
// call whose answer is read field by field, and a GET repeated sequentially and timed, which is how
// the scenarios that time a single request's latency (not throughput under load) measure it.
import type { BenchContext } from '../scenario.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
export type Json = Record<string, any>;

/** One API request with the company's token; JSON body when `body` is given. */
export async function apiCall(
  ctx: BenchContext,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${ctx.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/**
 * `requests` sequential GETs of `url`, each read to its last byte; any answer but 200 stops the
 * bench. Returns every duration in ms, sorted, and the last body (to check what was measured).
 */
export async function timedGets(
  url: string,
  headers: Record<string, string>,
  requests: number,
): Promise<{ sorted: number[]; median: number; body: string }> {
  const sorted: number[] = [];
  let body = '';
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers, redirect: 'manual' });
    body = await res.text();
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
    sorted.push(performance.now() - started);
  }
  sorted.sort((a, b) => a - b);
  return { sorted, median: sorted[Math.floor(sorted.length / 2)], body };
}
