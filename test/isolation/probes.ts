// The isolation matrix: for every named /api route, the requests company A can make that name
// company B's resources (ids in the path, company_id in query/body/form, B's user ids and e-mails
// inside bodies and CSV files). Built from a Victim so the same list can be sent for the ghost.
import { expect } from 'vitest';
import { paystubItem } from '../helpers/payroll.js';
import { generatedUsers, multipart, usersCsv } from '../helpers/users.js';
import type { Attacker, Victim } from './world.js';

/** A parsed response body; the checks below assert its shape themselves. */
// biome-ignore lint/suspicious/noExplicitAny: bodies are asserted structurally by each check
export type Json = any;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Probe {
  /** The route name this request must reach (checked against the registered catalog). */
  route: string;
  what: string;
  method: Method;
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
  /** Allowed statuses; default 403/404. Anything else (2xx, 500) fails. */
  allow?: number[];
  /** Extra assertions on the parsed body (e.g. "every item failed", "nothing of B listed"). */
  check?: (body: Json) => void;
  /** Body keys that differ on every call (P2's run id): dropped before comparing with the ghost. */
  volatile?: string[];
  /** False where the ghost request would legitimately differ (global uniqueness, decisions §7). */
  compare?: boolean;
  /** Tables A's own request may legitimately write (its own Idempotency-Key row); B's rows there must not change. */
  mayWrite?: string[];
  /** A documented leak: the probe is expected to fail until the feature is fixed (it.fails). */
  knownBug?: string;
}

const ALL_ITEMS_FAILED = (body: Json) => {
  expect(body.created_paystubs).toEqual([]);
  expect(body.failed_paystubs.length).toBeGreaterThan(0);
};
const EVERY_ROW_FAILED = (field: string) => (body: Json) => {
  expect(body.status).toBe('failed');
  expect(body.successes).toEqual([]);
  expect(body.failures.length).toBeGreaterThan(0);
  for (const failure of body.failures) expect(Object.keys(failure.errors)).toContain(field);
};

function csvUpload(csv: string, fields: Record<string, string> = {}) {
  const { payload, headers } = multipart(fields, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
  return { payload, headers };
}

/** Every probe of the matrix for one victim (B, or the ghost). */
export function buildProbes(a: Attacker, v: Victim, aTree: number[], replays: Record<string, { url: string; body: object }>): Probe[] {
  const A = a.company.id;
  const AC = a.child;
  const p: Probe[] = [];
  const add = (probe: Probe) => p.push(probe);
  const scopes = [
    ['company_id=B', v.company],
    ["company_id=B's child", v.child],
  ] as const;

  // ---------- users ----------
  for (const [label, id] of scopes) {
    add({ route: 'users.index', what: label, method: 'GET', url: `/api/users?company_id=${id}` });
    add({ route: 'users.import-template', what: label, method: 'GET', url: `/api/users/import-template?company_id=${id}` });
    add({ route: 'users.update-template', what: label, method: 'GET', url: `/api/users/update-template?company_id=${id}` });
    add({
      route: 'users.store',
      what: `${label} in the body`,
      method: 'POST',
      url: '/api/users',
      payload: {
        company_id: id,
        first_name: 'Mallory',
        last_name: 'Intruder',
        personal_email: 'mallory.intruder@evil.test',
        domain_name: v.domain,
        user_types: 'Full-time',
        start_date: '2024-01-01',
      },
    });
    add({
      route: 'users.bulk-create',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/users/bulk-create?company_id=${id}`,
      ...csvUpload(usersCsv(generatedUsers(1, v.domain))),
    });
    add({
      route: 'users.bulk-update',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/users/bulk-update?company_id=${id}`,
      ...csvUpload(usersCsv([{ email: v.userEmail, title: 'Hijacked' }], { update: true })),
    });
  }
  add({
    route: 'users.index',
    what: "plain list lists none of B's users",
    method: 'GET',
    url: '/api/users?per_page=1000',
    allow: [200],
    check: (body) => expect(body.Resources.every((user: { company_id: number }) => user.company_id === A)).toBe(true),
  });
  add({
    route: 'users.bulk-create',
    what: 'company_id=B as a form field',
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv(generatedUsers(1, v.domain)), { company_id: String(v.company) }),
  });
  add({
    route: 'users.bulk-update',
    what: 'company_id=B as a form field',
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(usersCsv([{ email: v.userEmail, title: 'Hijacked' }], { update: true }), { company_id: String(v.company) }),
  });
  const [row] = generatedUsers(1, a.domain);
  add({
    route: 'users.bulk-create',
    what: "a row on B's e-mail domain",
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv([{ ...row, domain: v.domain }])),
    allow: [200],
    check: EVERY_ROW_FAILED('domain'),
  });
  add({
    route: 'users.bulk-create',
    what: "a row whose manager is B's user",
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv([{ ...row, manager: v.userEmail }])),
    allow: [200],
    check: EVERY_ROW_FAILED('manager'),
  });
  add({
    route: 'users.bulk-update',
    what: "rows naming B's user by company and personal e-mail",
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(
      usersCsv(
        [
          { email: v.userEmail, title: 'Hijacked' },
          { email: v.personalEmail, title: 'Hijacked' },
        ],
        { update: true },
      ),
    ),
    allow: [200],
    check: EVERY_ROW_FAILED('email'),
  });
  add({
    route: 'users.bulk-update',
    what: "A's own user given B's user as manager",
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(usersCsv([{ email: a.userEmail, manager: v.userEmail }], { update: true })),
    allow: [200],
    check: EVERY_ROW_FAILED('manager'),
  });
  add({
    route: 'users.store',
    what: "B's e-mail domain",
    method: 'POST',
    url: '/api/users',
    payload: {
      first_name: 'Mallory',
      last_name: 'Intruder',
      personal_email: 'mallory.intruder@evil.test',
      domain_name: v.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
    },
    allow: [400],
  });
  add({
    route: 'users.store',
    what: "B's user as manager",
    method: 'POST',
    url: '/api/users',
    payload: {
      first_name: 'Mallory',
      last_name: 'Intruder',
      personal_email: 'mallory.intruder@evil.test',
      domain_name: a.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      manager_email: v.userEmail,
    },
    allow: [400],
  });
  const userScopes = [
    ['own scope', ''],
    ["A's child scope", `?company_id=${AC}`],
    ['company_id=B', `?company_id=${v.company}`],
  ] as const;
  for (const [label, q] of userScopes) {
    const u = `/api/users/${v.userId}`;
    add({ route: 'users.show', what: `B's user, ${label}`, method: 'GET', url: `${u}${q}` });
    add({ route: 'users.update', what: `B's user, ${label}`, method: 'PUT', url: `${u}${q}`, payload: { title: 'Hijacked' } });
    add({ route: 'users.deactivate', what: `B's user, ${label}`, method: 'PATCH', url: `${u}/deactivate${q}` });
    add({ route: 'users.activate', what: `B's user, ${label}`, method: 'PATCH', url: `${u}/activate${q}`, payload: { notify: true } });
    add({ route: 'users.destroy', what: `B's user, ${label}`, method: 'DELETE', url: `${u}${q}` });
    add({
      route: 'users.suspend',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `${u}/suspend${q}`,
      payload: { suspension_duration_type: 'indefinite', clear_roles: true },
    });
    add({
      route: 'users.unsuspend',
      what: `B's user, ${label}`,
      method: 'POST',
      url: `${u}/unsuspend${q}`,
      payload: { unsuspend_option: 'immediately' },
    });
  }
  add({
    route: 'users.update',
    what: "B's user, company_id=B in the JSON body",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    payload: { company_id: v.company, title: 'Hijacked' },
  });
  add({
    route: 'users.update',
    what: "B's user, multipart with company_id=B as a form field",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    ...multipart({ company_id: String(v.company), title: 'Hijacked' }),
  });
  add({
    route: 'users.update',
    what: "B's user, multipart in A's own scope",
    method: 'PUT',
    url: `/api/users/${v.userId}`,
    ...multipart({ title: 'Hijacked' }),
  });
  add({
    route: 'users.update',
    what: "A's own user given B's user as manager",
    method: 'PUT',
    url: `/api/users/${a.userId}`,
    payload: { manager_email: v.userEmail },
    allow: [400, 404, 422],
  });
  add({
    route: 'users.update',
    what: "A's own user moved to B's e-mail domain",
    method: 'PUT',
    url: `/api/users/${a.userId}`,
    payload: { domain_name: v.domain },
    allow: [400, 404, 422],
  });

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
  const plan = {
    name: 'Intruder plan',
    type: 'amount',
    apply_to: 'gross_pay',
    responsibility: 'employee',
    employee_value: 1,
    frequency: 'per_paystub',
  };
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

  // ---------- companies ----------
  const companyList = (body: Json) =>
    expect(body.data.every((company: { created_by: number }) => aTree.includes(company.created_by))).toBe(true);
  add({
    route: 'companies.index',
    what: "lists none of B's children",
    method: 'GET',
    url: '/api/companies?per_page=100',
    allow: [200],
    check: companyList,
  });
  add({ route: 'companies.index', what: 'company_id=B', method: 'GET', url: `/api/companies?company_id=${v.company}` });
  add({ route: 'companies.index', what: "company_id=B's child", method: 'GET', url: `/api/companies?company_id=${v.child}` });
  for (const [label, id] of [
    ['B', v.companyRes],
    ["B's child", v.childRes],
  ] as const) {
    add({ route: 'companies.show', what: label, method: 'GET', url: `/api/companies/${id}` });
    add({
      route: 'companies.update',
      what: label,
      method: 'PUT',
      url: `/api/companies/${id}`,
      payload: { name: 'Hijacked Ltd', address: 'Nowhere' },
    });
    add({ route: 'companies.deactivate', what: label, method: 'PATCH', url: `/api/companies/${id}/deactivate` });
    add({ route: 'companies.activate', what: label, method: 'PATCH', url: `/api/companies/${id}/activate` });
  }
  const child = {
    name: 'Intruder Child',
    first_name: 'Mallory',
    last_name: 'Intruder',
    personal_email: 'mallory.child@evil.test',
    title: 'Boss',
    domain_name: 'intruder-child.test',
    email_template: 'Hello',
    payment_frequency: 'monthly',
  };
  // Domains and super-admin e-mails are unique across all companies by design (decisions §7), so
  // these 422s are documented; they must still write nothing and echo nothing of B.
  add({
    route: 'companies.store',
    what: "B's domain as the new child's domain",
    method: 'POST',
    url: '/api/companies',
    payload: { ...child, domain_name: v.domain },
    allow: [422],
    compare: false,
  });
  add({
    route: 'companies.store',
    what: "company_id=B with B's user's personal e-mail",
    method: 'POST',
    url: '/api/companies',
    payload: { ...child, company_id: v.company, personal_email: v.personalEmail },
    allow: [403, 404, 422],
    compare: false,
  });

  // ---------- invoices ----------
  for (const [label, id] of scopes) {
    add({ route: 'invoices.index', what: label, method: 'GET', url: `/api/invoices?company_id=${id}` });
    add({
      route: 'invoices.store',
      what: label,
      method: 'POST',
      url: '/api/invoices',
      payload: {
        company_id: id,
        user_email: v.userEmail,
        description: 'x',
        service_date: '2026-01-01',
        provider_name: 'x',
        total_amount: '10',
        amount_requested: '10',
        category_name: 'Health',
      },
    });
  }
  const invoiceList = (body: Json) => expect(body.invoices).toEqual([]);
  add({
    route: 'invoices.index',
    what: "filter by B's transaction id",
    method: 'GET',
    url: `/api/invoices?transaction_id=${v.invoiceTx}`,
    allow: [200, 404],
    check: invoiceList,
  });
  add({
    route: 'invoices.index',
    what: "filter by B's transaction id, A's child",
    method: 'GET',
    url: `/api/invoices?transaction_id=${v.invoiceTx}&company_id=${AC}`,
    allow: [200, 404],
    check: invoiceList,
  });
  add({
    route: 'invoices.index',
    what: "plain list lists none of B's invoices",
    method: 'GET',
    url: '/api/invoices?per_page=100',
    allow: [200],
    check: (body) => expect(body.invoices.every((invoice: { company_id: number }) => invoice.company_id === A)).toBe(true),
  });
  const claim = {
    description: 'x',
    service_date: '2026-01-01',
    provider_name: 'x',
    total_amount: '10',
    amount_requested: '10',
    category_name: 'Health',
  };
  add({
    route: 'invoices.store',
    what: "B's user's company e-mail",
    method: 'POST',
    url: '/api/invoices',
    payload: { ...claim, user_email: v.userEmail },
    allow: [422],
  });
  add({
    route: 'invoices.store',
    what: "B's user's personal e-mail",
    method: 'POST',
    url: '/api/invoices',
    payload: { ...claim, user_email: v.personalEmail },
    allow: [422],
  });
  add({
    route: 'invoices.store',
    what: "B's user from A's child",
    method: 'POST',
    url: '/api/invoices',
    payload: { ...claim, company_id: AC, user_email: v.userEmail },
    allow: [422],
  });
  for (const [label, q] of userScopes) {
    const u = `/api/invoices/${v.invoiceTx}`;
    add({ route: 'invoices.show', what: `B's invoice, ${label}`, method: 'GET', url: `${u}${q}` });
    add({
      route: 'invoices.update',
      what: `B's invoice details, ${label}`,
      method: 'PUT',
      url: `${u}${q}`,
      payload: { description: 'Hijacked' },
    });
    add({ route: 'invoices.update', what: `B's invoice payment, ${label}`, method: 'PUT', url: `${u}${q}`, payload: { amount_paid: '1' } });
    add({
      route: 'invoices.approve',
      what: `B's invoice, ${label}`,
      method: 'PUT',
      url: `${u}/approve${q}`,
      payload: { manager_email: 'boss@evil.test', decision: 'approve' },
    });
    add({
      route: 'invoices.finance-approve',
      what: `B's invoice, ${label}`,
      method: 'PUT',
      url: `${u}/finance-approve${q}`,
      payload: { finance_approver_email: 'cfo@evil.test', decision: 'approve' },
    });
    add({ route: 'invoices.destroy', what: `B's invoice, ${label}`, method: 'DELETE', url: `${u}/destroy${q}` });
  }
  add({
    route: 'invoices.approve',
    what: "B's invoice, company_id=B in the body",
    method: 'PUT',
    url: `/api/invoices/${v.invoiceTx}/approve`,
    payload: { company_id: v.company, manager_email: 'boss@evil.test', decision: 'reject' },
  });

  // ---------- wallet ----------
  const topUp = { amount: 500, customer_email: 'payer@evil.test', redirect_url: `https://${a.redirectHost}/done` };
  for (const [label, id] of scopes) {
    add({ route: 'wallet.top-up', what: label, method: 'POST', url: '/api/wallet/top-up', payload: { ...topUp, company_id: id } });
    add({
      route: 'wallet.top-up',
      what: `${label} in the query`,
      method: 'POST',
      url: `/api/wallet/top-up?company_id=${id}`,
      payload: topUp,
    });
    add({ route: 'wallet.balance', what: label, method: 'GET', url: `/api/wallet/balance?company_id=${id}` });
  }
  add({
    route: 'wallet.top-up',
    what: 'redirect to a host only B authorized',
    method: 'POST',
    url: '/api/wallet/top-up',
    payload: { ...topUp, redirect_url: `https://${v.redirectHost}/done` },
    allow: [400],
  });
  for (const path of ['/api/wallet/transaction/status', '/api/wallet/check-transaction-status']) {
    for (const [label, q] of userScopes) {
      add({
        route: 'wallet.transaction-status',
        what: `B's reference, ${label} (${path})`,
        method: 'GET',
        url: `${path}?transaction_reference=${v.walletRef}${q.replace('?', '&')}`,
      });
    }
    add({
      route: 'wallet.transaction-status',
      what: `B's reference, company_id=B's child (${path})`,
      method: 'GET',
      url: `${path}?transaction_reference=${v.walletRef}&company_id=${v.child}`,
    });
  }

  // ---------- variants: other spellings of B's ids and of company_id ----------
  const upper = v.userEmail.toUpperCase();
  add({
    route: 'users.index',
    what: 'company_id=B in a GET JSON body',
    method: 'GET',
    url: '/api/users',
    payload: { company_id: v.company },
    allow: [200, 403],
    check: (body) => expect(body.Resources.every((user: { company_id: number }) => user.company_id === A)).toBe(true),
  });
  add({
    route: 'users.show',
    what: "B's user, company_id=B in a GET JSON body",
    method: 'GET',
    url: `/api/users/${v.userId}`,
    payload: { company_id: v.company },
  });
  for (const [first, second] of [
    [A, v.company],
    [v.company, A],
  ]) {
    const q = `company_id=${first}&company_id=${second}`;
    add({
      route: 'users.index',
      what: `company_id twice (${first === A ? 'A then B' : 'B then A'})`,
      method: 'GET',
      url: `/api/users?${q}`,
      // Schema validation answers the users family's 422 (decisions §2 asks 400 for a non-integer
      // company_id; a repeated one fails the schema first). Either way nothing of B is reached.
      allow: [400, 403, 404, 422],
    });
    add({
      route: 'invoices.index',
      what: `company_id twice (${first === A ? 'A then B' : 'B then A'})`,
      method: 'GET',
      url: `/api/invoices?${q}`,
      allow: [400, 403, 404, 422],
    });
    add({
      route: 'wallet.balance',
      what: `company_id twice (${first === A ? 'A then B' : 'B then A'})`,
      method: 'GET',
      url: `/api/wallet/balance?${q}`,
      allow: [400, 403, 404],
    });
    add({
      route: 'paystubs.index',
      what: `company_id twice (${first === A ? 'A then B' : 'B then A'})`,
      method: 'GET',
      url: `/api/paystubs?${q}`,
      allow: [400, 403, 404],
    });
  }
  for (const [label, raw] of [
    ['with spaces', ` ${v.company} `],
    ['with a leading zero', `0${v.company}`],
    ['as a decimal', `${v.company}.0`],
  ] as const) {
    add({
      route: 'users.index',
      what: `company_id=B ${label}`,
      method: 'GET',
      url: `/api/users?company_id=${encodeURIComponent(raw)}`,
      allow: [400, 403],
    });
    add({
      route: 'users.store',
      what: `company_id=B ${label} in the body`,
      method: 'POST',
      url: '/api/users',
      payload: {
        company_id: raw,
        first_name: 'Mallory',
        last_name: 'Intruder',
        personal_email: 'mallory.intruder@evil.test',
        domain_name: v.domain,
        user_types: 'Full-time',
        start_date: '2024-01-01',
      },
      allow: [400, 403],
    });
  }
  add({
    route: 'invoices.store',
    what: 'company_id=B as a float in the body',
    method: 'POST',
    url: '/api/invoices',
    payload: { ...claim, company_id: v.company + 0.0, user_email: v.userEmail },
    allow: [400, 403, 422],
  });
  add({
    route: 'users.update',
    what: "B's user, multipart with company_id=A in the query and B in the form",
    method: 'PUT',
    url: `/api/users/${v.userId}?company_id=${A}`,
    ...multipart({ company_id: String(v.company), title: 'Hijacked' }),
    allow: [400, 403, 404],
  });
  add({
    route: 'users.bulk-update',
    what: 'company_id=A in the query and B in the form',
    method: 'POST',
    url: `/api/users/bulk-update?company_id=${A}`,
    ...csvUpload(usersCsv([{ email: v.userEmail, title: 'Hijacked' }], { update: true }), { company_id: String(v.company) }),
    allow: [400, 403],
  });
  add({
    route: 'users.bulk-create',
    what: 'company_id=A in the query and B in the form',
    method: 'POST',
    url: `/api/users/bulk-create?company_id=${A}`,
    ...csvUpload(usersCsv(generatedUsers(1, v.domain)), { company_id: String(v.company) }),
    allow: [400, 403],
  });
  add({
    route: 'invoices.store',
    what: 'company_id=A in the query and B in the body',
    method: 'POST',
    url: `/api/invoices?company_id=${A}`,
    payload: { ...claim, company_id: v.company, user_email: v.userEmail },
    allow: [400, 403],
  });
  add({
    route: 'users.bulk-update',
    what: "B's user's e-mail in upper case",
    method: 'POST',
    url: '/api/users/bulk-update',
    ...csvUpload(usersCsv([{ email: upper, title: 'Hijacked' }], { update: true })),
    allow: [200],
    check: EVERY_ROW_FAILED('email'),
  });
  add({
    route: 'users.bulk-create',
    what: "a row whose manager is B's user's personal e-mail",
    method: 'POST',
    url: '/api/users/bulk-create',
    ...csvUpload(usersCsv([{ ...row, manager: v.personalEmail }])),
    allow: [200],
    check: EVERY_ROW_FAILED('manager'),
  });
  add({
    route: 'custom-contributions.store',
    what: "targets B's user in upper case",
    method: 'POST',
    url: `/api/custom-contributions/${A}`,
    payload: { ...plan, users: [upper] },
    allow: [422],
  });
  add({
    route: 'invoices.store',
    what: "B's user's e-mail in upper case",
    method: 'POST',
    url: '/api/invoices',
    payload: { ...claim, user_email: upper },
    allow: [422],
  });
  add({ route: 'invoices.show', what: "B's invoice in lower case", method: 'GET', url: `/api/invoices/${v.invoiceTx.toLowerCase()}` });
  add({
    route: 'wallet.transaction-status',
    what: "B's reference in lower case",
    method: 'GET',
    url: `/api/wallet/transaction/status?transaction_reference=${v.walletRef.toLowerCase()}`,
  });
  add({
    route: 'wallet.transaction-status',
    what: "B's reference with spaces",
    method: 'GET',
    url: `/api/wallet/transaction/status?transaction_reference=${encodeURIComponent(` ${v.walletRef} `)}`,
  });
  add({
    route: 'paystubs.store',
    what: "B's user id spelled as a number, with spaces and with a leading zero",
    method: 'POST',
    url: '/api/paystubs',
    payload: {
      paystubs: [
        { ...paystubItem(v.userId), id: v.userId },
        { ...paystubItem(v.userId), id: ` ${v.userId} ` },
        { ...paystubItem(v.userId), id: `0${v.userId}` },
      ],
    },
    allow: [201],
    check: ALL_ITEMS_FAILED,
    volatile: ['transaction_id'],
  });
  add({ route: 'contributions.user', what: "B's user id with a leading zero", method: 'GET', url: `/api/contributions/user/0${v.userId}` });
  add({
    route: 'custom-contributions.show',
    what: "B's contribution id with a leading zero",
    method: 'GET',
    url: `/api/custom-contributions/${A}/0${v.contributionId}`,
  });
  add({
    route: 'users.show',
    what: "B's user id with a leading zero",
    method: 'GET',
    url: `/api/users/0${v.userId}`,
    allow: [400, 403, 404],
  });

  // ---------- B's Idempotency-Keys ----------
  // Keys belong to the company that sent them (decisions §2): A reusing B's key, with B's body or
  // another, must get a fresh answer of its own, never B's stored response and never a 409.
  const replayAllow: Record<string, [number[], number[], object]> = {
    'custom-contributions.store': [
      [403],
      [422],
      {
        name: 'Intruder plan',
        type: 'amount',
        apply_to: 'gross_pay',
        responsibility: 'employee',
        employee_value: 1,
        frequency: 'per_paystub',
        users: ['nobody@nowhere.test'],
      },
    ],
    'paystubs.store': [[201], [201], { paystubs: [{ id: 'intruder' }] }],
    'invoices.store': [[422], [422], {}],
    'wallet.top-up': [[400], [400], {}],
    'companies.store': [[422], [422], { name: 'Intruder' }],
  };
  for (const [route, { url, body }] of Object.entries(replays)) {
    const [same, other, otherBody] = replayAllow[route];
    const extra = route === 'paystubs.store' ? { check: ALL_ITEMS_FAILED, volatile: ['transaction_id'] } : {};
    const mayWrite = ['idempotency_keys'];
    const headers = { 'idempotency-key': `${v.idemKey}-${route}` };
    add({
      route,
      what: "B's Idempotency-Key with B's exact request",
      method: 'POST',
      url,
      payload: body,
      headers,
      allow: same,
      mayWrite,
      ...extra,
    });
    if (route === 'custom-contributions.store') {
      const onA = { 'idempotency-key': `${v.idemKey}-${route}-own-path` };
      add({
        route,
        what: "B's body on A's own path",
        method: 'POST',
        url: `/api/custom-contributions/${A}`,
        payload: body,
        headers: onA,
        allow: [422],
        mayWrite,
      });
    }
    // B stored a failure under `-second`; A's different request with that key must run as A's own.
    const own = route === 'custom-contributions.store' ? `/api/custom-contributions/${A}` : url;
    const second = { 'idempotency-key': `${v.idemKey}-${route}-second` };
    add({
      route,
      what: "B's second Idempotency-Key with another body",
      method: 'POST',
      url: own,
      payload: otherBody,
      headers: second,
      allow: other,
      mayWrite,
      ...extra,
    });
  }
  return p;
}
