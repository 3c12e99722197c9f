// Invoices, one invoice's decisions in the console (docs/companies-invoices.md): a manager's Approve
// or Reject, finance's Approve or Deny, Record a payment, each first a confirmation page, then the
// post that records it through the invoices service (I4, I5, I6) and redirects back to the invoice
// (post/redirect/get). invoicesRoutes registers these after the invoice's page.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { isOneOf } from '../platform/guards.js';
import { ACTIONS, allowed, confirmPage, type Invoice, invoiceNotFound, invoicePath } from './invoices.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const ActionParams = Type.Object({ id: Type.String({ maxLength: 40 }), action: Type.String({ maxLength: 10 }) });

/** The invoice, or undefined for another company's or an unknown id (the 404 page). */
export async function findInvoice(
  invoices: WebContext['services']['invoices']['invoices'],
  session: SessionRow,
  id: string,
): Promise<Invoice | undefined> {
  try {
    return (await invoices.show(session.companyId, id)).invoice;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return undefined;
    throw error;
  }
}

export async function invoiceDecisionRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { invoices } = ctx.services.invoices;

  app.get('/invoices/:id/:action', { schema: { hide: true, params: ActionParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { id, action } = request.params;
    const invoice = isOneOf(ACTIONS, action) ? await findInvoice(invoices, session, id) : undefined;
    if (!invoice || !isOneOf(ACTIONS, action)) return sendHtml(reply, invoiceNotFound(session), 404);
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
      const invoice = isOneOf(ACTIONS, action) ? await findInvoice(invoices, session, id) : undefined;
      if (!invoice || !isOneOf(ACTIONS, action)) return sendHtml(reply, invoiceNotFound(session), 404);
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
