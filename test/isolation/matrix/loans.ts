// Loans (docs/payroll.md, "Loans and salary advances"): B's loan id in the path and B's user's id in
// /api/users/{id}/loans, from A's own scope, A's child's and company_id=B; company_id=B (and B's
// child) on the lists and on creating a loan for A's own user; `user_id` of B's user on A's list
// lists nothing; the loans report of company_id=B (JSON and CSV) is refused like the lists.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function loansProbes(context: MatrixContext): void {
  const { a, v, add, scopes, userScopes } = context;
  const body = { kind: 'loan', principal: '1000', instalment: '100', start_period: '2026-05' };
  for (const [label, id] of scopes) {
    add({ route: 'loans.index', what: label, method: 'GET', url: `/api/loans?company_id=${id}` });
    add({ route: 'loans.report', what: label, method: 'GET', url: `/api/loans/report?company_id=${id}` });
    add({ route: 'loans.report', what: `CSV, ${label}`, method: 'GET', url: `/api/loans/report?format=csv&company_id=${id}` });
    add({ route: 'loans.user-index', what: `A's user, ${label}`, method: 'GET', url: `/api/users/${a.userId}/loans?company_id=${id}` });
    add({
      route: 'loans.store',
      what: `A's user, ${label}`,
      method: 'POST',
      url: `/api/users/${a.userId}/loans`,
      payload: { ...body, company_id: id },
    });
  }
  for (const [label, q] of userScopes) {
    add({ route: 'loans.user-index', what: `B's user, ${label}`, method: 'GET', url: `/api/users/${v.userId}/loans${q}` });
    add({ route: 'loans.store', what: `B's user, ${label}`, method: 'POST', url: `/api/users/${v.userId}/loans${q}`, payload: body });
    const base = `/api/loans/${v.loanId}`;
    add({ route: 'loans.show', what: `B's loan, ${label}`, method: 'GET', url: `${base}${q}` });
    add({ route: 'loans.skip', what: `B's loan, ${label}`, method: 'POST', url: `${base}/skip${q}`, payload: { period: '2026-06' } });
    add({ route: 'loans.settle', what: `B's loan, ${label}`, method: 'POST', url: `${base}/settle${q}` });
    add({ route: 'loans.write-off', what: `B's loan, ${label}`, method: 'POST', url: `${base}/write-off${q}` });
  }
  add({
    route: 'loans.index',
    what: "user_id of B's user lists nothing",
    method: 'GET',
    url: `/api/loans?user_id=${v.userId}`,
    allow: [200],
    check: (answer: Json) => expect(answer.data.data).toEqual([]),
  });
}
