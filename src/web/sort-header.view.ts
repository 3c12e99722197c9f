// A sortable column's header (docs/console.md, "Sortable tables"): a link to the same list sorted
// by the column, keeping the list's other parameters (search, status), with `aria-sort` on the
// column the list is sorted by and an arrow beside its label. A second click turns the order.
import { type Html, html } from './html.view.js';

export type SortOrder = 'asc' | 'desc';

export interface ListSort<Key extends string> {
  /** undefined: the list's default order, which no header claims. */
  key: Key | undefined;
  order: SortOrder;
}

export function sortHeader<Key extends string>(header: {
  /** The list's address, `/console/employees`. */
  path: string;
  label: string;
  key: Key;
  sort: ListSort<Key>;
  /** The list's other parameters, kept by the link (empty ones are left out). */
  params: Record<string, string | undefined>;
  /** The order of a first click: ascending for names and numbers, newest first for dates. */
  first?: SortOrder;
}): Html {
  const { path, label, key, sort, params, first = 'asc' } = header;
  const active = sort.key === key;
  const next: SortOrder = active ? (sort.order === 'asc' ? 'desc' : 'asc') : first;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  search.set('sort', key);
  search.set('order', next);
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  const arrow = active ? (sort.order === 'asc' ? ' ↑' : ' ↓') : '';
  return html`<th scope="col" aria-sort="${ariaSort}"><a href="${path}?${search.toString()}" aria-label="Sort by ${label.toLowerCase()}, ${next === 'asc' ? 'ascending' : 'descending'}">${label}${arrow}</a></th>`;
}
