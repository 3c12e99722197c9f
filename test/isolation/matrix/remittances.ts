// Remittances and annual returns: company_id=B (and B's child) on every route is refused; A's own
// month, year and schedule downloads name none of B's employees.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

const MONTH = '2026-03';
const YEAR = '2026';

export function remittancesProbes(context: MatrixContext): void {
  const { v, add, scopes } = context;
  const urls = [
    ['remittances.index', `/api/remittances?month=${MONTH}`],
    ['remittances.download', `/api/remittances/paye.csv?month=${MONTH}&state=LA`],
    ['remittances.download', `/api/remittances/pension.xlsx?month=${MONTH}&pfa_code=LEADWAY`],
    ['remittances.download', `/api/remittances/nsitf.csv?month=${MONTH}`],
    ['annual-returns.index', `/api/annual-returns/${YEAR}?state=LA`],
    ['annual-returns.index', `/api/annual-returns/${YEAR}?state=LA&format=csv`],
    ['annual-returns.itf', `/api/annual-returns/${YEAR}/itf`],
  ] as const;
  for (const [route, url] of urls) {
    for (const [label, id] of scopes)
      add({ route, what: `${label}: ${url}`, method: 'GET', url: `${url}&company_id=${id}`.replace('itf&', 'itf?') });
  }
  add({
    route: 'remittances.index',
    what: "A's own month lists none of B's employees",
    method: 'GET',
    url: `/api/remittances?month=${MONTH}`,
    allow: [200],
    check: (body: Json) => expect(body.missing.every((entry: { user_id: number }) => entry.user_id !== v.userId)).toBe(true),
  });
}
