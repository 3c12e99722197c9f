// An employee's loans and salary advances in the console (docs/console.md, "Employees"; rules in
// docs/payroll.md, "Loans and salary advances"): the list with balances, a new loan or advance, and
// per active loan Skip a period, Settle and Write off. Every change is two steps (the form posts, a
// confirm page shows what will be recorded, its button posts again with confirm=yes), then
// post/redirect/get back to the list with a notice. All through the loans service, so the console
// accepts and refuses exactly what the API does, with the same messages.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

type Loan = Awaited<ReturnType<WebContext['services']['loans']['loans']['show']>>['loan'];

export const LOAN_NOTICES: Record<string, string> = {
  created: 'Recorded. Repayments start on the first regular run of the start month.',
  skipped: 'Period skipped: that month repays nothing and the loan runs a month longer.',
  settled: 'Loan settled: the balance is recorded as repaid early and the loan is paid off.',
  'written-off': 'Loan written off: the balance is forgiven.',
};

const ACTIONS = {
  skip: { label: 'Skip a period', done: 'skipped', verb: 'Skip' },
  settle: { label: 'Settle', done: 'settled', verb: 'Settle' },
  'write-off': { label: 'Write off', done: 'written-off', verb: 'Write off' },
} as const;
type Action = keyof typeof ACTIONS;

const KIND_LABEL: Record<string, string> = { loan: 'Loan', advance: 'Salary advance' };
const STATUS_BADGE: Record<string, Html> = {
  active: html`<span class="badge">Active</span>`,
  paid_off: html`<span class="badge ok">Paid off</span>`,
  written_off: html`<span class="badge off">Written off</span>`,
};

/** The employee page's links to their money pages (opening figures, loans). */
export function payEventsSection(userId: number): Html {
  return html`<section class="card" aria-labelledby="pay-events-heading">
  <h2 id="pay-events-heading">Loans and opening figures</h2>
  <p><a href="/console/employees/${userId}/loans">Loans and advances</a> · <a href="/console/employees/${userId}/year-to-date">Opening year-to-date figures</a></p>
</section>`;
}

/** A DomainError's messages as one line (field messages first); anything else is not ours to show. */
export function messagesOf(error: unknown): string {
  if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
  return (
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message
  );
}

const statusOf = (error: unknown) => (error instanceof DomainError && error.code === 'conflict' ? 409 : 422);

const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
const Query = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });
const LoanForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  kind: Type.Optional(Type.String({ maxLength: 20 })),
  principal: Type.Optional(Type.String({ maxLength: 30 })),
  instalment: Type.Optional(Type.String({ maxLength: 30 })),
  start_period: Type.Optional(Type.String({ maxLength: 10 })),
  interest_rate_annual: Type.Optional(Type.String({ maxLength: 20 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
const ActionForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  period: Type.Optional(Type.String({ maxLength: 10 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
type Typed = { kind?: string; principal?: string; instalment?: string; start_period?: string; interest_rate_annual?: string };

function loanRow(session: SessionRow, loan: Loan): Html {
  const active = loan.status === 'active';
  return html`<tr>
  <td>#${loan.id}</td><td>${KIND_LABEL[loan.kind] ?? loan.kind}</td><td class="num">${naira(loan.principal)}</td>
  <td class="num">${naira(loan.balance)}</td><td class="num">${naira(loan.instalment)}</td><td>${loan.start_period}</td>
  <td>${loan.interest_rate_annual} %</td><td>${STATUS_BADGE[loan.status] ?? loan.status}</td><td>${loan.skipped_periods.join(', ') || '—'}</td>
  <td>${
    active
      ? html`<form method="post" action="/console/loans/${loan.id}/skip" class="inline">${csrfField(session.csrfToken)}
      <label for="skip-${loan.id}" class="hint">Month to skip</label><input id="skip-${loan.id}" name="period" type="month" required>
      <button type="submit" class="secondary">Skip a period</button></form>
    <form method="post" action="/console/loans/${loan.id}/settle" class="inline">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Settle</button></form>
    <form method="post" action="/console/loans/${loan.id}/write-off" class="inline">${csrfField(session.csrfToken)}<button type="submit" class="danger">Write off</button></form>`
      : loan.closed_balance !== null
        ? html`Closed at ${naira(loan.closed_balance)}`
        : ''
  }</td>
</tr>`;
}

export async function loansConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { loans } = ctx.services.loans;
  const rowId = (raw: string) => parseRowId(raw) ?? 0;

  async function listPage(session: SessionRow, userId: number, flash: Flash = {}, form: Typed = {}): Promise<Html> {
    const user = await users.show(session.companyId, userId);
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const { data } = await loans.listForUser(session.companyId, userId, { per_page: 100 }, {});
    const rows = data.data as Loan[];
    const body = html`<p><a href="/console/employees/${userId}/statutory">← ${name}</a></p>
<section class="card" aria-labelledby="loans-heading">
  <h2 id="loans-heading">Loans and advances of ${name}</h2>
  <p class="muted">Each regular run deducts the instalment (plus interest) after tax, at most the company's share of net pay; the balance falls when the paystub is paid.</p>
  ${
    rows.length === 0
      ? html`<p>No loans or advances.</p>`
      : html`<div class="table-wrap"><table>
    <thead><tr><th>Loan</th><th>Kind</th><th>Principal</th><th>Balance</th><th>Instalment</th><th>Starts</th><th>Interest a year</th><th>Status</th><th>Skipped</th><th>Actions</th></tr></thead>
    <tbody>${rows.map((loan) => loanRow(session, loan))}</tbody>
  </table></div>`
  }
</section>
<section class="card" aria-labelledby="new-loan-heading">
  <h2 id="new-loan-heading">New loan or advance</h2>
  <form method="post" action="/console/employees/${userId}/loans">
    ${csrfField(session.csrfToken)}
    <label for="kind">Kind <span class="hint">A salary advance: at most a month's wages, over at least 3 periods, no interest (Labour Act s.4)</span></label>
    <select id="kind" name="kind" required>
      <option value="loan"${form.kind === 'advance' ? '' : html` selected`}>Loan</option>
      <option value="advance"${form.kind === 'advance' ? html` selected` : ''}>Salary advance</option>
    </select>
    <label for="principal">Principal (₦)</label>
    <input id="principal" name="principal" type="text" inputmode="decimal" required value="${form.principal ?? ''}">
    <label for="instalment">Instalment per period (₦)</label>
    <input id="instalment" name="instalment" type="text" inputmode="decimal" required value="${form.instalment ?? ''}">
    <label for="start_period">First month repaid</label>
    <input id="start_period" name="start_period" type="month" required value="${form.start_period ?? ''}">
    <label for="interest_rate_annual">Interest, percent a year <span class="hint">Loans only; 0 for none</span></label>
    <input id="interest_rate_annual" name="interest_rate_annual" type="text" inputmode="decimal" value="${form.interest_rate_annual ?? '0'}">
    <button type="submit">Continue</button>
  </form>
</section>`;
    return page({ title: 'Loans and advances', session, section: 'employees', body, flash });
  }

  function confirmPage(
    session: SessionRow,
    title: string,
    facts: [string, string][],
    action: string,
    hidden: Record<string, string>,
    button: string,
    back: string,
  ) {
    const body = html`<section class="card" aria-labelledby="confirm-heading">
  <h2 id="confirm-heading">${title}</h2>
  <dl class="facts">${facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>
  <form method="post" action="${action}">
    ${csrfField(session.csrfToken)}
    ${Object.entries(hidden).map(([field, value]) => html`<input type="hidden" name="${field}" value="${value}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit">${button}</button>
    <a class="button secondary" href="${back}">Cancel</a>
  </form>
</section>`;
    return page({ title, session, section: 'employees', body });
  }

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
      const fields: Typed = Object.fromEntries(Object.entries(form).map(([field, value]) => [field, value?.trim() ?? '']));
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
            confirmPage(session, `Confirm the ${KIND_LABEL[loan.kind].toLowerCase()}`, facts, back, hidden, 'Record it', back),
          );
        }
        await loans.create(session.companyId, userId, fields);
      } catch (error) {
        return sendHtml(reply, await listPage(session, userId, { error: messagesOf(error) }, fields), statusOf(error));
      }
      return reply.redirect(`/console/employees/${userId}/loans?done=created`, 303);
    },
  );

  const act = (action: Action) =>
    app.post(
      `/loans/:id/${action}`,
      { schema: { hide: true, params: Params, body: ActionForm }, preHandler: guard },
      async (request, reply) => {
        const session = sessionOf(request);
        const { loan } = await loans.show(session.companyId, rowId(request.params.id));
        const back = `/console/employees/${loan.user_id}/loans`;
        const period = request.body.period?.trim() ?? '';
        try {
          if (request.body.confirm !== 'yes') {
            if (loan.status !== 'active') throw new DomainError('conflict', 'Only an active loan can be changed.');
            const facts: [string, string][] = [
              ['Loan', `#${loan.id}, ${KIND_LABEL[loan.kind]}`],
              ['Balance', naira(loan.balance)],
              ...(action === 'skip' ? ([['Month without a repayment', period || '—']] as [string, string][]) : []),
              ...(action === 'settle' ? ([['Recorded as repaid early', naira(loan.balance)]] as [string, string][]) : []),
              ...(action === 'write-off' ? ([['Forgiven', naira(loan.balance)]] as [string, string][]) : []),
            ];
            const title = `${ACTIONS[action].verb} loan #${loan.id}?`;
            return sendHtml(
              reply,
              confirmPage(
                session,
                title,
                facts,
                `/console/loans/${loan.id}/${action}`,
                action === 'skip' ? { period } : {},
                ACTIONS[action].label,
                back,
              ),
            );
          }
          if (action === 'skip') await loans.skip(session.companyId, loan.id, { period });
          else if (action === 'settle') await loans.settle(session.companyId, loan.id);
          else await loans.writeOff(session.companyId, loan.id);
        } catch (error) {
          return sendHtml(reply, await listPage(session, loan.user_id, { error: messagesOf(error) }), statusOf(error));
        }
        return reply.redirect(`${back}?done=${ACTIONS[action].done}`, 303);
      },
    );
  for (const action of Object.keys(ACTIONS) as Action[]) act(action);
}
