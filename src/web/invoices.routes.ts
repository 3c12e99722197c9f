// Invoices (docs/companies-invoices.md): the claims waiting for a decision or a payment, one
// invoice's page, and its decisions made in the console — a manager's Approve or Reject, finance's
// Approve or Deny, Record a payment — each through a confirmation page (post/redirect/get, no script
// needed) and the invoices service the API uses (I4, I5, I6), as the signed-in administrator.
// This file holds the list and the invoice's page; the decisions are invoices.decisions.routes.ts,
// the markup invoices.view.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { isOneOf } from '../platform/guards.js';
import { html } from './html.view.js';
import { findInvoice, invoiceDecisionRoutes } from './invoices.decisions.routes.js';
import { ACTIONS, type Action, invoiceBody, invoiceNotFound, invoiceTable } from './invoices.view.js';
import { type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const DONE: Record<Action, string> = {
  approve: 'Invoice approved.',
  reject: 'Invoice rejected.',
  deny: 'Invoice denied.',
  pay: 'Payment recorded.',
};
const Params = Type.Object({ id: Type.String({ maxLength: 40 }) });

export async function invoicesRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { invoices } = ctx.services.invoices;

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
      const invoice = await findInvoice(invoices, session, request.params.id);
      if (!invoice) return sendHtml(reply, invoiceNotFound(session), 404);
      const { done, refused } = request.query;
      const flash: Flash = {
        notice: done && isOneOf(ACTIONS, done) ? DONE[done] : undefined,
        error:
          refused && isOneOf(ACTIONS, refused)
            ? 'Nothing was recorded: the invoice had changed before your decision arrived. Its current state is shown below.'
            : undefined,
      };
      const body = invoiceBody(invoice);
      return sendHtml(reply, page({ title: `Invoice ${invoice.transaction_id}`, session, section: 'invoices', body, flash }));
    },
  );

  await invoiceDecisionRoutes(root, ctx);
}
