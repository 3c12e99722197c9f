// Laravel's LengthAwarePaginator (docs/payroll.md, "The payroll rules", P1): the envelope every
// paged list returns, with page links that keep the request's other query parameters.

export interface PageRequest {
  publicUrl: string;
  /** The list's path, e.g. `/api/payroll-runs`. */
  path: string;
  /** The request's query as received; every parameter but `page` is kept in the links. */
  rawQuery: Record<string, unknown>;
  page: number;
  perPage: number;
}

export const pageOffset = (page: number, perPage: number) => (page - 1) * perPage;
/** The last page of `total` items, `perPage` a page: 1 when there are none. */
export const lastPageOf = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

export function laravelPage<T>(request: PageRequest, total: number, data: T[]) {
  const { page, perPage } = request;
  const offset = pageOffset(page, perPage);
  const path = `${request.publicUrl.replace(/\/$/, '')}${request.path}`;
  const kept = new URLSearchParams();
  for (const [name, value] of Object.entries(request.rawQuery)) {
    if (name !== 'page' && value !== undefined && value !== null) kept.append(name, String(value));
  }
  const url = (n: number) => {
    const params = new URLSearchParams(kept);
    params.set('page', String(n));
    return `${path}?${params.toString()}`;
  };
  const lastPage = lastPageOf(total, perPage);
  return {
    current_page: page,
    data,
    first_page_url: url(1),
    from: data.length > 0 ? offset + 1 : null,
    last_page: lastPage,
    last_page_url: url(lastPage),
    next_page_url: page < lastPage ? url(page + 1) : null,
    path,
    per_page: perPage,
    prev_page_url: page > 1 ? url(page - 1) : null,
    to: data.length > 0 ? offset + data.length : null,
    total,
  };
}

/**
 * laravelPage's document as JSON text, its items already JSON texts (P1's paystubs written by the
 * database: paystubs.service.ts): the same keys in the same order as the object, each value as
 * JSON.stringify writes it, so the same bytes the route's serializer writes for the object.
 */
export function laravelPageJson(request: PageRequest, total: number, items: readonly string[]): string {
  const page = laravelPage(request, total, items as string[]);
  const fields = Object.entries(page).map(([key, value]) => `"${key}":${key === 'data' ? `[${items.join(',')}]` : JSON.stringify(value)}`);
  return `{${fields.join(',')}}`;
}
