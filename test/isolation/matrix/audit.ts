// The audit log (docs/audit.md): company_id=B (and B's child) is refused on the list and the
// export; A's own log and export hold A's events only.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function auditProbes(context: MatrixContext): void {
  const { A, add, scopes } = context;
  for (const [label, id] of scopes) {
    add({ route: 'audit-events.index', what: `${label}: list`, method: 'GET', url: `/api/audit-events?company_id=${id}` });
    add({
      route: 'audit-events.index',
      what: `${label}: filtered`,
      method: 'GET',
      url: `/api/audit-events?company_id=${id}&action=user.*`,
    });
    add({ route: 'audit-events.export', what: `${label}: export`, method: 'GET', url: `/api/audit-events/export?company_id=${id}` });
  }
  add({
    route: 'audit-events.index',
    what: "A's own log holds A's events only",
    method: 'GET',
    url: '/api/audit-events?limit=200',
    allow: [200],
    compare: false,
    check: (body: Json) => expect(body.data.every((event: { company_id: number }) => event.company_id === A)).toBe(true),
  });
  add({
    route: 'audit-events.export',
    what: "A's own export",
    method: 'GET',
    url: '/api/audit-events/export',
    allow: [200],
    compare: false,
  });
}
