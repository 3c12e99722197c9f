// Invoices (docs/companies-invoices.md): the claims waiting for a decision or a payment, one
// invoice's page, and its decisions made in the console — a manager's Approve or Reject, finance's
// Approve or Deny, Record a payment — each through a confirmation page (post/redirect/get, no script
// needed) and the invoices service the API uses (I4, I5, I6), as the signed-in administrator.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { isOneOf } from '../platform/guards.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const ACTIONS = ['approve', 'reject', 'deny', 'pay'] as const;
type Action = (typeof ACTIONS)[number];
type Invoice = Awaited<ReturnType<WebContext['services']['invoices']['invoices']['show']>>['invoice'];

const APPROVAL_LABEL: Record<string, [string, string]> = {
  pending: ['warn', 'Waiting for manager'],
  manager_approved: ['info', 'Waiting for finance'],
  approved: ['ok', 'Approved'],
  rejected: ['bad', 'Rejected'],
  denied: ['bad', 'Denied'],
};
const PAYMENT_LABEL: Record<string, string> = { pending: 'Not paid', partially_paid: 'Partly paid', paid: 'Paid' };
const DONE: Record<Action, string> = {
  approve: 'Invoice approved.',
  reject: 'Invoice rejected.',
  deny: 'Invoice denied.',
  pay: 'Payment recorded.',
};
const Params = Type.Object({ id: Type.String({ maxLength: 40 }) });
const ActionParams = Type.Object({ id: Type.String({ maxLength: 40 }), action: Type.String({ maxLength: 10 }) });

const badge = ([cls, label]: [string, string]) => html`<span class="badge ${cls}">${label}</span>`;
const invoicePath = (invoice: { transaction_id: string }) => `/console/invoices/${encodeURIComponent(invoice.transaction_id)}`;

/** Which decisions the invoice's state allows now (the service re-checks every one). */
function allowed(invoice: Invoice): Action[] {
  if (invoice.approval_status === 'pending') return ['approve', 'reject'];
  if (invoice.approval_status === 'manager_approved') return ['approve', 'deny'];
  if (invoice.approval_status === 'approved' && invoice.status !== 'paid') return ['pay'];
  return [];
}

/** The stage an approval is made at: a manager's on a pending invoice, else finance's. */
const stageOf = (invoice: Invoice) => (invoice.approval_status === 'pending' ? 'manager' : 'finance');

const LABEL: Record<Action, (invoice: Invoice) => string> = {
  approve: (invoice) => (stageOf(invoice) === 'manager' ? 'Approve as manager' : 'Approve as finance'),
  reject: () => 'Reject',
  deny: () => 'Deny',
  pay: () => 'Record a payment',
};

function invoiceTable(rows: Invoice[], caption: string, amount: 'requested' | 'balance'): Html {
  return html`<div class="table-wrap"><table><caption>${caption}</caption>
<thead><tr><th scope="col">Invoice</th><th scope="col">Employee</th><th scope="col">Description</th><th scope="col">Service date</th><th scope="col" class="num">${amount === 'requested' ? 'Requested' : 'Balance'}</th><th scope="col" class="num">Total</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.map(
    (i) =>
      html`<tr><td><a href="${invoicePath(i)}" aria-label="Invoice ${i.transaction_id} of ${i.user_email}">${i.transaction_id}</a></td><td class="wrap">${i.user_email}</td><td>${i.description}<br><span class="muted">${i.category_name}${i.subcategory_name ? ` · ${i.subcategory_name}` : ''} · ${i.provider_name}</span></td><td class="nowrap">${i.service_date}</td><td class="num">${naira(amount === 'requested' ? i.amount_requested : i.balance)}</td><td class="num">${naira(i.total_amount)}</td><td>${badge(APPROVAL_LABEL[i.approval_status] ?? ['off', i.approval_status])}</td></tr>`,
  )}</tbody></table></div>`;
}

function facts(invoice: Invoice): Html {
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

export async function invoicesRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { invoices } = ctx.services.invoices;

  /** The invoice, or undefined for another company's or an unknown id (the 404 page). */
  async function find(session: SessionRow, id: string): Promise<Invoice | undefined> {
    try {
      return (await invoices.show(session.companyId, id)).invoice;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return undefined;
      throw error;
    }
  }
  const notFound = (session: SessionRow) =>
    page({
      title: 'Invoice not found',
      session,
      section: 'invoices',
      body: html`<p>There is no such invoice in this company. <a href="/console/invoices">Back to Invoices</a></p>`,
    });

  app.get('/invoices', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const [waiting, approved] = await Promise.all([
      invoices.awaitingApproval(session.companyId, 100),
      invoices.list(session.companyId, { approval_status: 'approved', sort: 'created_at', order: 'asc', per_page: 100 }),
    ]);
    const unpaid = approved.invoices.filter((invoice) => invoice.status !== 'paid');
    const body = html`<p class="muted">Benefit and expense claims. Open one to approve, reject, deny or record a payment.</p>
<h2>Awaiting a decision</h2>
${waiting.length === 0 ? html`<p>No invoices are awaiting approval.</p>` : invoiceTable(waiting, 'Waiting for a manager or finance, oldest first', 'requested')}
<h2>Approved, awaiting payment</h2>
${unpaid.length === 0 ? html`<p>No approved invoice is waiting for payment.</p>` : invoiceTable(unpaid, 'Approved by finance, not fully paid, oldest first', 'balance')}`;
    return sendHtml(reply, page({ title: 'Invoices', session, section: 'invoices', body }));
  });

  app.get(
    '/invoices/:id',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({
          done: Type.Optional(Type.String({ maxLength: 20 })),
          refused: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const invoice = await find(session, request.params.id);
      if (!invoice) return sendHtml(reply, notFound(session), 404);
      const { done, refused } = request.query;
      const flash: Flash = {
        notice: done && isOneOf(ACTIONS, done) ? DONE[done] : undefined,
        error:
          refused && isOneOf(ACTIONS, refused)
            ? 'Nothing was recorded: the invoice had changed before your decision arrived. Its current state is shown below.'
            : undefined,
      };
      const actions = allowed(invoice);
      const body = html`<section class="card">${facts(invoice)}</section>
${
  actions.length === 0
    ? html`<p class="muted">No decision is open on this invoice.</p>`
    : html`<div class="actions">${actions.map(
        (action) =>
          html`<a class="button${action === 'approve' || action === 'pay' ? '' : ' secondary'}" href="${invoicePath(invoice)}/${action}">${LABEL[action](invoice)}…</a> `,
      )}</div>`
}
<p><a href="/console/invoices">Back to Invoices</a></p>`;
      return sendHtml(reply, page({ title: `Invoice ${invoice.transaction_id}`, session, section: 'invoices', body, flash }));
    },
  );

  /** The confirmation page of one decision: what it does, an optional comment (or the amount), and Yes. */
  function confirmPage(session: SessionRow, invoice: Invoice, action: Action, form: { comment?: string; amount?: string; error?: string }) {
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

  app.get('/invoices/:id/:action', { schema: { hide: true, params: ActionParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { id, action } = request.params;
    const invoice = isOneOf(ACTIONS, action) ? await find(session, id) : undefined;
    if (!invoice || !isOneOf(ACTIONS, action)) return sendHtml(reply, notFound(session), 404);
    // A decision the invoice no longer allows: its page says where it stands.
    if (!allowed(invoice).includes(action)) return reply.redirect(invoicePath(invoice), 303);
    return sendHtml(reply, confirmPage(session, invoice, action, {}));
  });

  app.post(
    '/invoices/:id/:action',
    {
      schema: {
        hide: true,
        params: ActionParams,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 200 })),
          confirm: Type.Optional(Type.String({ maxLength: 10 })),
          stage: Type.Optional(Type.String({ maxLength: 10 })),
          comment: Type.Optional(Type.String({ maxLength: 1000 })),
          amount_paid: Type.Optional(Type.String({ maxLength: 40 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { id, action } = request.params;
      const invoice = isOneOf(ACTIONS, action) ? await find(session, id) : undefined;
      if (!invoice || !isOneOf(ACTIONS, action)) return sendHtml(reply, notFound(session), 404);
      const path = invoicePath(invoice);
      // Not confirmed (a form from elsewhere, an old page): ask first, nothing recorded.
      if (request.body.confirm !== 'yes') return reply.redirect(`${path}/${action}`, 303);
      const comment = request.body.comment?.trim() || undefined;
      // The stage the administrator saw: a manager's approval never turns into finance's because
      // someone else decided in between (the service then refuses it as already decided).
      const stage = request.body.stage === 'finance' ? 'finance' : 'manager';
      const amount = request.body.amount_paid?.trim() ?? '';
      try {
        if (action === 'pay') {
          // Thousands separators are dropped; anything else goes to the service as typed.
          await invoices.update(session.companyId, id, { amount_paid: amount.replace(/,/g, '') });
        } else if (action === 'reject' || (action === 'approve' && stage === 'manager')) {
          await invoices.managerDecide(session.companyId, id, { manager_email: session.email, decision: action, comment });
        } else {
          await invoices.financeDecide(session.companyId, id, { finance_approver_email: session.email, decision: action, comment });
        }
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'internal') throw error;
        if (error.code === 'conflict' || error.code === 'not_found') return reply.redirect(`${path}?refused=${action}`, 303);
        // A refusal of what was typed (an amount above the balance, the four-eyes rules): the form
        // again with the service's message and the values kept.
        const message =
          Object.values(error.fields ?? {})
            .flat()
            .join(' ') || error.message;
        return sendHtml(reply, confirmPage(session, invoice, action, { comment, amount, error: message }), 422);
      }
      request.log.info({ companyId: session.companyId, userId: session.userId, invoice: id, action }, 'console: invoice decision');
      return reply.redirect(`${path}?done=${action}`, 303);
    },
  );
}
