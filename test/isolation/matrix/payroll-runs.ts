// Payroll runs and the wallet ledger: B's run id (B's P2 call is a run too) in the path, from A's own
// scope, A's child's and company_id=B; company_id=B on list and create; B's users in a run's body.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

const period = { pay_period_start: '2026-05-01', pay_period_end: '2026-05-31', payment_date: '2026-05-28' };

export function payrollRunsProbes(context: MatrixContext): void {
  const { v, A, AC, add, scopes } = context;
  for (const [label, id] of scopes) {
    add({ route: 'payroll-runs.index', what: label, method: 'GET', url: `/api/payroll-runs?company_id=${id}` });
    add({ route: 'payroll-runs.store', what: label, method: 'POST', url: '/api/payroll-runs', payload: { ...period, company_id: id } });
    add({ route: 'wallet.transactions', what: label, method: 'GET', url: `/api/wallet/transactions?company_id=${id}` });
  }
  add({
    route: 'payroll-runs.index',
    what: "plain list lists none of B's runs",
    method: 'GET',
    url: '/api/payroll-runs?per_page=100',
    allow: [200],
    check: (body: Json) => expect(body.data.data.every((run: { company_id: number }) => run.company_id === A)).toBe(true),
  });
  add({
    route: 'wallet.transactions',
    what: "plain list lists none of B's entries",
    method: 'GET',
    url: '/api/wallet/transactions?per_page=100',
    allow: [200],
    check: (body: Json) => expect(JSON.stringify(body)).not.toContain(v.walletRef),
  });
  for (const [label, q] of [
    ['own scope', ''],
    ["A's child scope", `?company_id=${AC}`],
    ['company_id=B', `?company_id=${v.company}`],
  ] as const) {
    const base = `/api/payroll-runs/${v.runTx}`;
    add({ route: 'payroll-runs.show', what: `B's run, ${label}`, method: 'GET', url: `${base}${q}` });
    add({
      route: 'payroll-runs.approve',
      what: `B's run, ${label}`,
      method: 'POST',
      url: `${base}/approve${q}`,
      payload: { approver_email: v.userEmail },
    });
    for (const action of ['pay', 'retry', 'cancel'] as const)
      add({ route: `payroll-runs.${action}`, what: `B's run, ${label}`, method: 'POST', url: `${base}/${action}${q}` });
  }
  // B's users named inside A's own run: skipped as unknown, nothing of B's written or echoed.
  for (const [label, extra] of [
    ['own scope', {}],
    ["A's child scope", { company_id: AC }],
  ] as const) {
    add({
      route: 'payroll-runs.store',
      what: `user_ids and items naming B's user, ${label}`,
      method: 'POST',
      url: '/api/payroll-runs',
      payload: { ...period, ...extra, user_ids: [v.userId], items: [{ user_id: v.userId, taxable_income: 1000 }] },
      allow: [422],
    });
    add({
      route: 'payroll-runs.store',
      what: `an off-cycle run naming B's user, ${label}`,
      method: 'POST',
      url: '/api/payroll-runs',
      payload: {
        ...extra,
        kind: 'off_cycle',
        reason: 'bonus',
        payment_date: '2026-03-20',
        users: [{ user_id: v.userId, items: [{ type: 'bonus', amount: 1000 }] }],
      },
      allow: [422],
    });
  }
}
