// Pay schedules (docs/payroll-runs.md, "Pay schedules") and remittance filings and deadlines
// (docs/compliance.md, "Filings and deadlines"): B's schedule id in the path from A's own scope,
// A's child's and company_id=B; company_id=B (and B's child) on the lists, on creating a schedule,
// on recording a filing and on the calendar; A's own calendar shows none of B's schedules.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function paySchedulesProbes(context: MatrixContext): void {
  const { v, add, scopes, userScopes } = context;
  const schedule = { name: 'Intruder', frequency: 'monthly', pay_day: 'last_working_day', first_period_start: '2031-01-01' };
  const filing = { kind: 'nsitf', month: '2026-03', amount: '100.00', paid_on: '2026-04-10', receipt_reference: 'RCPT-X' };
  for (const [label, id] of scopes) {
    add({ route: 'pay-schedules.index', what: label, method: 'GET', url: `/api/pay-schedules?company_id=${id}` });
    add({ route: 'pay-schedules.store', what: label, method: 'POST', url: '/api/pay-schedules', payload: { ...schedule, company_id: id } });
    add({
      route: 'remittances.file',
      what: label,
      method: 'POST',
      url: '/api/remittances/filings',
      payload: { ...filing, company_id: id },
    });
    add({
      route: 'remittances.calendar',
      what: label,
      method: 'GET',
      url: `/api/remittances/calendar?from=2026-01-01&to=2026-06-30&company_id=${id}`,
    });
  }
  for (const [label, q] of userScopes) {
    const base = `/api/pay-schedules/${v.payScheduleId}`;
    add({ route: 'pay-schedules.show', what: `B's schedule, ${label}`, method: 'GET', url: `${base}${q}` });
    add({ route: 'pay-schedules.update', what: `B's schedule, ${label}`, method: 'PATCH', url: `${base}${q}`, payload: { active: false } });
    add({ route: 'pay-schedules.destroy', what: `B's schedule, ${label}`, method: 'DELETE', url: `${base}${q}` });
  }
  add({
    route: 'remittances.calendar',
    what: "A's own calendar names none of B's deadlines",
    method: 'GET',
    url: '/api/remittances/calendar?from=2026-01-01&to=2026-12-31',
    allow: [200],
    check: (body: Json) => expect(body.data).toEqual([]),
  });
}
