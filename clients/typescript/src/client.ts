// The client: openapi-fetch over the generated types, with the token's bearer header, an
// Idempotency-Key on every POST, and 429 answers retried after their Retry-After
// (the API reference's introduction: Idempotency, Rate limits).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type PayrollClient = Client<paths>;

export interface RetryOptions {
  /** Retries after the first answer (default 3). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is answered as it is (default 60 s). */
  maxDelayMs?: number;
  /** Statuses retried when they carry Retry-After (default [429]). */
  statuses?: number[];
  /** How to wait (tests pass a recorder); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export interface PayrollClientOptions {
  /** The deployment's address, e.g. http://127.0.0.1:3000 (no /api). */
  baseUrl: string;
  /** The company's API token (`pk_…`), or the operator's ADMIN_TOKEN for /admin routes. */
  token: string;
  /** Retry rate-limited answers after Retry-After (default on); false sends every request once. */
  retry?: RetryOptions | false;
  /**
   * Give every POST without an Idempotency-Key a fresh one (default true), so the retries above can
   * never apply a change twice. To retry across processes, pass your own key with
   * `withIdempotencyKey(key)` and keep it with the work it belongs to.
   */
  idempotencyKeys?: boolean;
  /** The fetch underneath (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * The server keeps answers by key for POST only (src/platform/idempotency.ts); a PUT, PATCH or DELETE
 * refused with 429 was refused before its handler ran, so sending it again is safe without a key.
 */
const KEYED_METHODS = new Set(['POST']);
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A fresh Idempotency-Key (a random UUID). */
export function idempotencyKey(): string {
  return crypto.randomUUID();
}

/** Request options that send `key` as the Idempotency-Key: `client.POST(path, {body, ...withIdempotencyKey(key)})`. */
export function withIdempotencyKey(key: string = idempotencyKey()): { headers: Record<string, string> } {
  return { headers: { [IDEMPOTENCY_HEADER]: key } };
}

/** Middleware that gives a POST without an Idempotency-Key a fresh one. */
export const idempotencyKeyMiddleware: Middleware = {
  onRequest({ request }) {
    if (KEYED_METHODS.has(request.method) && !request.headers.has(IDEMPOTENCY_HEADER)) {
      request.headers.set(IDEMPOTENCY_HEADER, idempotencyKey());
    }
    return request;
  },
};

/** Retry-After in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A fetch that sends the same request again after Retry-After when the answer is a 429. Not
 * retried: an answer without Retry-After, one asking for longer than maxDelayMs, and a stored
 * answer replayed for an Idempotency-Key (`Idempotent-Replayed: true`: waiting cannot change it).
 */
export function retryingFetch(inner: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const statuses = new Set(options.statuses ?? [429]);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request: Request): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      // Each attempt sends a copy: a body can be read only once.
      const response = await inner(attempt < maxRetries ? request.clone() : request);
      if (attempt >= maxRetries || !statuses.has(response.status) || response.headers.get('idempotent-replayed') === 'true')
        return response;
      const delay = retryAfterMs(response);
      if (delay === undefined || delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

/** The typed client of one company's token (or the operator's): `client.GET('/api/users', …)`. */
export function createPayrollClient(options: PayrollClientOptions): PayrollClient {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: options.retry === false ? base : retryingFetch(base, options.retry),
  });
  if (options.idempotencyKeys !== false) client.use(idempotencyKeyMiddleware);
  return client;
}

/** A refused request: its status and the body the API answered (see Errors in the API reference). */
export class PayrollApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly response: Response,
  ) {
    super(`${response.url ? `${new URL(response.url).pathname}: ` : ''}${status} ${JSON.stringify(body)}`);
    this.name = 'PayrollApiError';
  }
}

/** The data of a successful answer; throws PayrollApiError for any other. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw new PayrollApiError(result.response.status, result.error, result.response);
  return result.data as T;
}
