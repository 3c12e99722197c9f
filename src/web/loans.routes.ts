// An employee's loans and salary advances in the console (docs/console.md, "Employees"; rules in
// docs/payroll.md, "Loans and salary advances"): the list with balances, a new loan or advance, and
// per active loan Skip a period, Settle and Write off. Every change is two steps (the form posts, a
// confirm page shows what will be recorded, its button posts again with confirm=yes), then
// post/redirect/get back to the list with a notice. All through the loans service, so the console
// accepts and refuses exactly what the API does, with the same messages. This file holds the list
// and the new loan; an active loan's changes are loans.actions.routes.ts, the markup loans.view.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { parseRowId } from '../platform/input-safety.js';
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { page } from './layout.view.js';
import { type LoansPage, loanActionRoutes, messagesOf, statusOf } from './loans.actions.routes.js';
import { LoanForm, Params } from './loans.schemas.js';
import { KIND_LABEL, type Loan, type LoanTyped, loanConfirmPage, loansBody } from './loans.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export { messagesOf };

const Query = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });

export const LOAN_NOTICES: Record<string, string> = {
  created: 'Recorded. Repayments start on the first regular run of the start month.',
  skipped: 'Period skipped: that month repays nothing and the loan runs a month longer.',
  settled: 'Loan settled: the balance is recorded as repaid early and the loan is paid off.',
  'written-off': 'Loan written off: the balance is forgiven.',
};

/** The employee page's links to their money pages (opening figures, loans). */
export function payEventsSection(userId: number): Html {
  return html`<section class="card" aria-labelledby="pay-events-heading">
  <h2 id="pay-events-heading">Loans and opening figures</h2>
  <p><a href="/console/employees/${userId}/loans">Loans and advances</a> · <a href="/console/employees/${userId}/year-to-date">Opening year-to-date figures</a></p>
</section>`;
}

export async function loansConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { loans } = ctx.services.loans;
  const rowId = (raw: string) => parseRowId(raw) ?? 0;

  const listPage: LoansPage = async (session, userId, flash = {}, form = {}) => {
    const user = await users.show(session.companyId, userId);
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const { data } = await loans.listForUser(session.companyId, userId, { per_page: 100 }, {});
    const rows = data.data as Loan[];
    const body = loansBody(session, userId, name, rows, form);
    return page({ title: 'Loans and advances', session, section: 'employees', body, flash });
  };

  app.get(
    '/employees/:id/loans',
    { schema: { hide: true, params: Params, querystring: Query }, preHandler: guard },
    async (request, reply) => {
      const notice = request.query.done ? LOAN_NOTICES[request.query.done] : undefined;
      return sendHtml(reply, await listPage(sessionOf(request), rowId(request.params.id), notice ? { notice } : {}));
    },
  );

  app.post(
    '/employees/:id/loans',
    { schema: { hide: true, params: Params, body: LoanForm }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const userId = rowId(request.params.id);
      const { _csrf, confirm, ...form } = request.body;
      const fields: LoanTyped = Object.fromEntries(Object.entries(form).map(([field, value]) => [field, value?.trim() ?? '']));
      try {
        if (confirm !== 'yes') {
          const loan = await loans.check(session.companyId, userId, fields);
          const back = `/console/employees/${userId}/loans`;
          const facts: [string, string][] = [
            ['Kind', KIND_LABEL[loan.kind]],
            ['Principal', naira(koboToString(loan.principal))],
            ['Instalment per period', naira(koboToString(loan.instalment))],
            ['First month repaid', loan.startPeriod],
            ['Interest a year', `${fields.interest_rate_annual || '0'} %`],
          ];
          const hidden = Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, value ?? '']));
          return sendHtml(
            reply,
            loanConfirmPage(session, `Confirm the ${KIND_LABEL[loan.kind].toLowerCase()}`, facts, back, hidden, 'Record it', back),
          );
        }
        await loans.create(session.companyId, userId, fields);
      } catch (error) {
        return sendHtml(reply, await listPage(session, userId, { error: messagesOf(error) }, fields), statusOf(error));
      }
      return reply.redirect(`/console/employees/${userId}/loans?done=created`, 303);
    },
  );

  await loanActionRoutes(root, ctx, listPage);
}
