// Companies (C1-C6), invoices (I1-I7) and wallet (W1, W2, balance): B and B's child, B's invoice, B's reference and redirect host.
import { expect } from 'vitest';
import type { Json, MatrixContext } from '../probes.js';

export function companiesInvoicesWalletProbes(context: MatrixContext): void {
  const { a, v, aTree, A, AC, add, scopes, userScopes, claim } = context;
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
    // Switching B's runs to token approval (a token then approves alone) is refused like any C4.
    add({
      route: 'companies.update',
      what: `${label}: run_approval token`,
      method: 'PUT',
      url: `/api/companies/${id}`,
      payload: { run_approval: 'token' },
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
  // Domains and super-admin e-mails are unique across all companies by design
  // (docs/companies-invoices.md, "The companies and invoices rules"), so these 422s are documented;
  // they must still write nothing and echo nothing of B.
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
}
