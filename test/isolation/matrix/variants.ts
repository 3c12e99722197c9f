// Other spellings of B's ids and of company_id, and B's Idempotency-Keys reused by A.
import { expect } from 'vitest';
import { paystubItem } from '../../helpers/payroll.js';
import { generatedUsers, multipart, usersCsv } from '../../helpers/users.js';
import { ALL_ITEMS_FAILED, csvUpload, EVERY_ROW_FAILED, type Json, type MatrixContext } from '../probes.js';

export function variantProbes(context: MatrixContext): void {
  const { v, A, add, row, plan, claim, replays } = context;
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
      // Schema validation answers the users family's 422 (docs/reference.md, "Common rules" asks
      // 400 for a non-integer company_id; a repeated one fails the schema first). Either way
      // nothing of B is reached.
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

  // ---------- filters that try to widen a list past A's company ----------
  const onlyA = (rows: (body: Json) => { company_id: number }[]) => (body: Json) =>
    expect(rows(body).every((row) => row.company_id === A)).toBe(true);
  const paystubsOfA = onlyA((body) => body.data.data);
  const invoicesOfA = onlyA((body) => body.invoices);
  const widen = ["' OR '1'='1", '%', '%%', '*', "x' UNION SELECT NULL--", "unpaid' OR 1=1--"];
  for (const [index, text] of widen.entries()) {
    const q = encodeURIComponent(text);
    const allow = [200, 400, 404, 422];
    add({
      route: 'paystubs.index',
      what: `widening filter ${index + 1} on status`,
      method: 'GET',
      url: `/api/paystubs?status=${q}`,
      allow,
      check: paystubsOfA,
    });
    add({
      route: 'paystubs.index',
      what: `widening filter ${index + 1} on transaction_id`,
      method: 'GET',
      url: `/api/paystubs?transaction_id=${q}`,
      allow,
      check: paystubsOfA,
    });
    add({
      route: 'invoices.index',
      what: `widening filter ${index + 1} on transaction_id`,
      method: 'GET',
      url: `/api/invoices?transaction_id=${q}`,
      allow,
      check: invoicesOfA,
    });
    add({
      route: 'invoices.index',
      what: `widening filter ${index + 1} on status`,
      method: 'GET',
      url: `/api/invoices?status=${q}`,
      allow,
      check: invoicesOfA,
    });
    add({
      route: 'invoices.index',
      what: `widening sort ${index + 1}`,
      method: 'GET',
      url: `/api/invoices?sort=${q}&order=${q}`,
      allow,
      check: invoicesOfA,
    });
    add({
      route: 'invoices.show',
      what: `widening transaction id ${index + 1}`,
      method: 'GET',
      url: `/api/invoices/${q}`,
      allow: [400, 404, 422],
    });
    add({
      route: 'wallet.transaction-status',
      what: `widening reference ${index + 1}`,
      method: 'GET',
      url: `/api/wallet/transaction/status?transaction_reference=${q}`,
      allow: [400, 404],
    });
  }
  add({
    route: 'invoices.index',
    what: 'sort by company_id',
    method: 'GET',
    url: '/api/invoices?sort=company_id&per_page=100',
    allow: [200, 400, 422],
    check: invoicesOfA,
  });

  // ---------- B's Idempotency-Keys ---------- Keys belong to the company that sent them
  // (docs/reference.md, "Common rules"): A reusing B's key, with B's body or another, must get a
  // fresh answer of its own, never B's stored response and never a 409.
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
}
