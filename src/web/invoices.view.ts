// The Invoices pages' markup (docs/companies-invoices.md): the tables of claims, one invoice's facts,
// the decisions its state allows with their labels, and the confirmation page of one decision.
// Pure: service answers in, markup out.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, page } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export const ACTIONS = ['approve', 'reject', 'deny', 'pay'] as const;
export type Action = (typeof ACTIONS)[number];
export type Invoice = Awaited<ReturnType<WebContext['services']['invoices']['invoices']['show']>>['invoice'];

const APPROVAL_LABEL: Record<string, [string, string]> = {
  pending: ['warn', 'Waiting for manager'],
  manager_approved: ['info', 'Waiting for finance'],
  approved: ['ok', 'Approved'],
  rejected: ['bad', 'Rejected'],
  denied: ['bad', 'Denied'],
};
const PAYMENT_LABEL: Record<string, string> = { pending: 'Not paid', partially_paid: 'Partly paid', paid: 'Paid' };

const badge = ([cls, label]: [string, string]) => html`<span class="badge ${cls}">${label}</span>`;
export const invoicePath = (invoice: { transaction_id: string }) => `/console/invoices/${encodeURIComponent(invoice.transaction_id)}`;

/** Which decisions the invoice's state allows now (the service re-checks every one). */
export function allowed(invoice: Invoice): Action[] {
  if (invoice.approval_status === 'pending') return ['approve', 'reject'];
  if (invoice.approval_status === 'manager_approved') return ['approve', 'deny'];
  if (invoice.approval_status === 'approved' && invoice.status !== 'paid') return ['pay'];
  return [];
}

/** The stage an approval is made at: a manager's on a pending invoice, else finance's. */
export const stageOf = (invoice: Invoice) => (invoice.approval_status === 'pending' ? 'manager' : 'finance');

export const LABEL: Record<Action, (invoice: Invoice) => string> = {
  approve: (invoice) => (stageOf(invoice) === 'manager' ? 'Approve as manager' : 'Approve as finance'),
  reject: () => 'Reject',
  deny: () => 'Deny',
  pay: () => 'Record a payment',
};

export function invoiceTable(rows: Invoice[], caption: string, amount: 'requested' | 'balance'): Html {
  return html`<div class="table-wrap"><table><caption>${caption}</caption>
<thead><tr><th scope="col">Invoice</th><th scope="col">Employee</th><th scope="col">Description</th><th scope="col">Service date</th><th scope="col" class="num">${amount === 'requested' ? 'Requested' : 'Balance'}</th><th scope="col" class="num">Total</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map(
    (i) =>
      html`<tr><td><a href="${invoicePath(i)}" aria-label="Invoice ${i.transaction_id} of ${i.user_email}">${i.transaction_id}</a></td><td class="wrap">${i.user_email}</td><td>${i.description}<br><span class="muted">${i.category_name}${i.subcategory_name ? ` · ${i.subcategory_name}` : ''} · ${i.provider_name}</span></td><td class="nowrap">${i.service_date}</td><td class="num">${naira(amount === 'requested' ? i.amount_requested : i.balance)}</td><td class="num">${naira(i.total_amount)}</td><td>${badge(APPROVAL_LABEL[i.approval_status] ?? ['off', i.approval_status])}</td></tr>`,
  )}</tbody></table></div>`;
}

export function facts(invoice: Invoice): Html {
  return html`<dl class="facts">
  <dt>Employee</dt><dd>${invoice.user_email}</dd>
  <dt>Description</dt><dd>${invoice.description}</dd>
  <dt>Category</dt><dd>${invoice.category_name}${invoice.subcategory_name ? ` · ${invoice.subcategory_name}` : ''}</dd>
  <dt>Provider</dt><dd>${invoice.provider_name}</dd>
  <dt>Service date</dt><dd>${invoice.service_date}</dd>
  <dt>Total</dt><dd>${naira(invoice.total_amount)}</dd>
  <dt>Requested</dt><dd>${naira(invoice.amount_requested)}</dd>
  <dt>Paid</dt><dd>${naira(invoice.amount_paid)} (balance ${naira(invoice.balance)})</dd>
  <dt>Approval</dt><dd>${badge(APPROVAL_LABEL[invoice.approval_status] ?? ['off', invoice.approval_status])}${
    invoice.approved_by_manager_email ? ` Manager: ${invoice.approved_by_manager_email}, ${when(invoice.manager_decided_at)}.` : ''
  }${invoice.finance_decided_at ? ` Finance: ${invoice.finance_approver_email ?? ''}, ${when(invoice.finance_decided_at)}.` : ''}</dd>
  <dt>Payment</dt><dd>${PAYMENT_LABEL[invoice.status] ?? invoice.status}</dd>
  ${invoice.manager_comment ? html`<dt>Manager's comment</dt><dd>${invoice.manager_comment}</dd>` : ''}
  ${invoice.finance_comment ? html`<dt>Finance's comment</dt><dd>${invoice.finance_comment}</dd>` : ''}
</dl>`;
}

/** One invoice's page: its facts, then a button per decision its state allows (each opens its confirmation). */
export function invoiceBody(invoice: Invoice): Html {
  const actions = allowed(invoice);
  return html`<section class="card">${facts(invoice)}</section>
${
  actions.length === 0
    ? html`<p class="muted">No decision is open on this invoice.</p>`
    : html`<div class="actions">${actions.map(
        (action) =>
          html`<a class="button${action === 'approve' || action === 'pay' ? '' : ' secondary'}" href="${invoicePath(invoice)}/${action}">${LABEL[action](invoice)}…</a> `,
      )}</div>`
}
<p><a href="/console/invoices">Back to Invoices</a></p>`;
}

/** The page of an unknown id or of another company's invoice (answered with 404). */
export const invoiceNotFound = (session: SessionRow) =>
  page({
    title: 'Invoice not found',
    session,
    section: 'invoices',
    body: html`<p>There is no such invoice in this company. <a href="/console/invoices">Back to Invoices</a></p>`,
  });

/** The confirmation page of one decision: what it does, an optional comment (or the amount), and Yes. */
export function confirmPage(
  session: SessionRow,
  invoice: Invoice,
  action: Action,
  form: { comment?: string; amount?: string; error?: string },
): Html {
  const what: Record<Action, string> = {
    approve:
      stageOf(invoice) === 'manager'
        ? 'You approve this claim as its manager; finance decides next.'
        : 'You approve this claim for finance; it can then be paid.',
    reject: 'You reject this claim as its manager. The employee is not paid for it; this cannot be undone.',
    deny: 'You deny this claim for finance. The employee is not paid for it; this cannot be undone.',
    pay: `Record a payment made to the employee outside the console (up to the balance of ${naira(invoice.balance)}).`,
  };
  const field =
    action === 'pay'
      ? html`<label for="amount_paid">Amount paid in naira <span class="hint">For example 50000 or 50,000.00</span></label>
    <input id="amount_paid" name="amount_paid" type="text" inputmode="decimal" required value="${form.amount ?? invoice.balance}">`
      : html`<label for="comment">Comment <span class="hint">Optional; kept on the invoice</span></label>
    <input id="comment" name="comment" type="text" class="wide" maxlength="1000" value="${form.comment ?? ''}">`;
  const body = html`<section class="card">${facts(invoice)}</section>
<section class="card"><p><strong>${what[action]}</strong></p>
  <form method="post" action="${invoicePath(invoice)}/${action}">${csrfField(session.csrfToken)}
    <input type="hidden" name="confirm" value="yes">
    <input type="hidden" name="stage" value="${stageOf(invoice)}">
    ${field}
    <button type="submit"${action === 'reject' || action === 'deny' ? html` class="danger"` : ''}>Yes, ${LABEL[action](invoice).toLowerCase()}</button>
    <a class="button secondary" href="${invoicePath(invoice)}">Cancel</a>
  </form></section>`;
  return page({
    title: `${LABEL[action](invoice)}: ${invoice.transaction_id}`,
    session,
    section: 'invoices',
    body,
    flash: { error: form.error },
  });
}
