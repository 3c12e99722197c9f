// Iterators over the API's two pagination families (the API reference's introduction, Pagination):
// the SCIM-style list of GET /api/users, and the Laravel paginator of runs, paystubs, wallet
// transactions and webhook endpoints and deliveries. Each fetches one page at a time, as it is read.
import { type PayrollClient, unwrap } from './client.js';
import type { components, paths } from './schema.js';

type GetOperation<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Json200<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type QueryOf<P extends keyof paths> = GetOperation<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type PathParamsOf<P extends keyof paths> = GetOperation<P> extends { parameters: { path: infer X } } ? X : never;

/** The GET paths that answer `{data: {current_page, last_page, data: [...]}}`. */
export type LaravelListPath = {
  [P in keyof paths]: Json200<GetOperation<P>> extends { data: { current_page: number; last_page: number; data: unknown[] } } ? P : never;
}[keyof paths];

/** One item of such a list. */
export type LaravelItem<P extends LaravelListPath> = Json200<GetOperation<P>> extends { data: { data: (infer I)[] } } ? I : never;

export interface LaravelListOptions<P extends LaravelListPath> {
  /** The list's filters (page is the iterator's). */
  query?: Omit<QueryOf<P>, 'page' | 'per_page'>;
  /** Path parameters, e.g. `{id}` of a webhook endpoint's deliveries. */
  path?: PathParamsOf<P>;
  /** Items per request (the API allows 1 to 100; default 100). */
  perPage?: number;
}

/**
 * Every item of a Laravel-paginated list, page after page until the last:
 * `for await (const run of paginate(client, '/api/payroll-runs', {query: {status: 'paid'}}))`.
 */
export async function* paginate<P extends LaravelListPath>(
  client: PayrollClient,
  path: P,
  options: LaravelListOptions<P> = {},
): AsyncGenerator<LaravelItem<P>, void, undefined> {
  const perPage = options.perPage ?? 100;
  for (let page = 1; ; page++) {
    // The path is one of the union above; openapi-fetch cannot follow a generic path's types.
    const answer = unwrap(
      await (client.GET as (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, {
        params: { query: { ...options.query, page, per_page: perPage }, path: options.path },
      }),
    ) as { data: { current_page: number; last_page: number; data: LaravelItem<P>[] } };
    yield* answer.data.data;
    if (answer.data.data.length === 0 || answer.data.current_page >= answer.data.last_page) return;
  }
}

export type User = components['schemas']['User'];
type UsersQuery = NonNullable<paths['/api/users']['get']['parameters']['query']>;

export interface UsersListOptions {
  /** The list's filters (paging is the iterator's). */
  query?: Omit<UsersQuery, 'startIndex' | 'count' | 'page' | 'per_page'>;
  /** Users per request (1 to 1000; default 100). */
  count?: number;
}

/**
 * Every user of GET /api/users (`{Resources, totalResults, startIndex, itemsPerPage}`), by
 * startIndex (from 1) and count, until totalResults are read.
 */
export async function* paginateUsers(client: PayrollClient, options: UsersListOptions = {}): AsyncGenerator<User, void, undefined> {
  const count = options.count ?? 100;
  for (let startIndex = 1; ; ) {
    const answer = unwrap(await client.GET('/api/users', { params: { query: { ...options.query, startIndex, count } } }));
    yield* answer.Resources;
    startIndex += answer.Resources.length;
    if (answer.Resources.length === 0 || startIndex > answer.totalResults) return;
  }
}
