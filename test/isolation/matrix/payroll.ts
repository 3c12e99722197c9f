// Paystubs (P1-P2) and payroll settings (S1-S10): B's users in items, B's run, B's contributions, B's settings.
import { expect } from 'vitest';
import { paystubItem } from '../../helpers/payroll.js';
import { ALL_ITEMS_FAILED, type Json, type MatrixContext } from '../probes.js';

export function payrollProbes(context: MatrixContext): void {
  const { a, v, aTree, A, AC, add, scopes, userScopes, plan } = context;
  // ---------- paystubs ----------
  for (const [label, id] of scopes) {
    add({ route: 'paystubs.index', what: label, method: 'GET', url: `/api/paystubs?company_id=${id}` });
    add({
      route: 'paystubs.store',
      what: label,
      method: 'POST',
      url: '/api/paystubs',
      payload: { company_id: id, paystubs: [paystubItem(v.userId)] },
    });
  }
  for (const q of ['', `&company_id=${AC}`]) {
    const listsNothing = (body: Json) => expect(body.data.total).toBe(0);
    add({
      route: 'paystubs.index',
      what: `filter by B's user${q && ", A's child"}`,
      method: 'GET',
      url: `/api/paystubs?user_id=${v.userId}${q}`,
      allow: [200, 404],
      check: listsNothing,
    });
    add({
      route: 'paystubs.index',
      what: `filter by B's run${q && ", A's child"}`,
      method: 'GET',
      url: `/api/paystubs?transaction_id=${v.runTx}${q}`,
      allow: [200, 404],
      check: listsNothing,
    });
  }
  add({
    route: 'paystubs.index',
    what: "plain list lists none of B's paystubs",
    method: 'GET',
    url: '/api/paystubs?per_page=100',
    allow: [200],
    check: (body) => expect(body.data.data.every((stub: { company_id: number }) => stub.company_id === A)).toBe(true),
  });
  for (const [label, extra] of [
    ['own scope', {}],
    ["A's child scope", { company_id: AC }],
  ] as const) {
    add({
      route: 'paystubs.store',
      what: `items naming B's user, ${label}`,
      method: 'POST',
      url: '/api/paystubs',
      payload: {
        ...extra,
        paystubs: [paystubItem(v.userId), paystubItem(v.userId, { pay_period_start: '2026-02-01', pay_period_end: '2026-02-28' })],
      },
      allow: [201],
      check: ALL_ITEMS_FAILED,
      volatile: ['transaction_id'],
    });
  }

  // ---------- payroll settings ----------
  const settingsCheck = (body: Json) => expect(body.data.every((row: { company_id: number }) => aTree.includes(row.company_id))).toBe(true);
  add({
    route: 'contribution-settings.index',
    what: "lists only A's tree",
    method: 'GET',
    url: '/api/contribution-settings',
    allow: [200],
    check: settingsCheck,
  });
  add({
    route: 'contribution-settings.index',
    what: 'company_id=B is not honoured',
    method: 'GET',
    url: `/api/contribution-settings?company_id=${v.company}`,
    allow: [200, 403, 404],
    check: settingsCheck,
  });
  for (const [label, id] of scopes) {
    add({ route: 'contribution-settings.show', what: label, method: 'GET', url: `/api/contribution-settings/${id}` });
    add({
      route: 'contribution-settings.update',
      what: label,
      method: 'PATCH',
      url: `/api/contribution-settings/${id}`,
      payload: { employee_pension_rate: '1', pension_enabled: 'false' },
    });
    add({ route: 'contributions.company', what: label, method: 'GET', url: `/api/contributions/${id}` });
    add({ route: 'custom-contributions.index', what: label, method: 'GET', url: `/api/custom-contributions/${id}` });
    add({
      route: 'custom-contributions.store',
      what: label,
      method: 'POST',
      url: `/api/custom-contributions/${id}`,
      payload: {
        name: 'Intruder plan',
        type: 'amount',
        apply_to: 'gross_pay',
        responsibility: 'employee',
        employee_value: 1,
        frequency: 'per_paystub',
      },
    });
  }
  for (const [label, q] of userScopes)
    add({ route: 'contributions.user', what: `B's user, ${label}`, method: 'GET', url: `/api/contributions/user/${v.userId}${q}` });
  for (const [label, company] of [
    ['own path', A],
    ["A's child path", AC],
    ['B path', v.company],
  ] as const) {
    const u = `/api/custom-contributions/${company}/${v.contributionId}`;
    add({ route: 'custom-contributions.show', what: `B's contribution, ${label}`, method: 'GET', url: u });
    add({
      route: 'custom-contributions.update',
      what: `B's contribution, ${label} (PUT)`,
      method: 'PUT',
      url: u,
      payload: { name: 'Hijacked', is_active: false },
    });
    add({
      route: 'custom-contributions.update',
      what: `B's contribution, ${label} (PATCH)`,
      method: 'PATCH',
      url: u,
      payload: { employee_value: 99 },
    });
    add({ route: 'custom-contributions.destroy', what: `B's contribution, ${label}`, method: 'DELETE', url: u });
  }
  add({
    route: 'custom-contributions.store',
    what: "targets B's user by company e-mail",
    method: 'POST',
    url: `/api/custom-contributions/${A}`,
    payload: { ...plan, users: [v.userEmail] },
    allow: [422],
  });
  add({
    route: 'custom-contributions.store',
    what: "targets B's user by personal e-mail",
    method: 'POST',
    url: `/api/custom-contributions/${A}`,
    payload: { ...plan, users: [v.personalEmail] },
    allow: [422],
  });
  add({
    route: 'custom-contributions.store',
    what: "A's child targets B's user",
    method: 'POST',
    url: `/api/custom-contributions/${AC}`,
    payload: { ...plan, users: [v.userEmail] },
    allow: [422],
  });
  for (const method of ['PUT', 'PATCH'] as const) {
    add({
      route: 'custom-contributions.update',
      what: `A's own contribution retargeted at B's user (${method})`,
      method,
      url: `/api/custom-contributions/${A}/${a.contributionId}`,
      payload: { users: [v.userEmail] },
      allow: [422],
    });
  }
}
