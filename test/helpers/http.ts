// The one way tests send HTTP requests as someone: `as(ctx.app, acme).post('/api/users', body)`.
// It answers the raw `app.inject` response, so tests read `res.statusCode`, `res.json()`, `res.body`.
import type { App } from '../../src/app.js';

/** Whoever sends the request: a test company (its `auth` carries its bearer token), or any headers. */
export interface Caller {
  auth: Record<string, string>;
}

/** A caller without credentials. */
export const anonymous: Caller = { auth: {} };

export interface RequestOptions {
  /** Merged over the caller's headers (a header of the same name replaces the caller's). */
  headers?: Record<string, string>;
  /** The client address the app sees (rate limits, audit). */
  remoteAddress?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type InjectResponse = Awaited<ReturnType<App['inject']>>;

export interface HttpClient {
  get(url: string, options?: RequestOptions): Promise<InjectResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<InjectResponse>;
  put(url: string, body?: unknown, options?: RequestOptions): Promise<InjectResponse>;
  patch(url: string, body?: unknown, options?: RequestOptions): Promise<InjectResponse>;
  delete(url: string, body?: unknown, options?: RequestOptions): Promise<InjectResponse>;
  /** For tables of requests whose method varies. */
  request(method: Method, url: string, body?: unknown, options?: RequestOptions): Promise<InjectResponse>;
}

/**
 * Requests sent with `caller`'s headers; `defaults` apply to every request (per-request options
 * win). A body is sent as JSON when it is an object, as is when it is a string or buffer; an
 * `undefined` body sends none.
 */
export function as(app: App, caller: Caller, defaults: RequestOptions = {}): HttpClient {
  const send = (method: Method, url: string, body: unknown, options: RequestOptions = {}) => {
    const remoteAddress = options.remoteAddress ?? defaults.remoteAddress;
    return app.inject({
      method,
      url,
      headers: { ...caller.auth, ...defaults.headers, ...options.headers },
      ...(body === undefined ? {} : { payload: body as object }),
      ...(remoteAddress === undefined ? {} : { remoteAddress }),
    });
  };
  return {
    get: (url, options) => send('GET', url, undefined, options),
    post: (url, body, options) => send('POST', url, body, options),
    put: (url, body, options) => send('PUT', url, body, options),
    patch: (url, body, options) => send('PATCH', url, body, options),
    delete: (url, body, options) => send('DELETE', url, body, options),
    request: send,
  };
}
