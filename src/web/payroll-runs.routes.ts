// Payroll → New run, and the run's actions (approve, pay, retry, cancel), each a POST form with the
// session's CSRF secret calling the payroll-runs services. Success redirects to the run page with a
// notice (Post/Redirect/Get); so does a refusal (wrong state, short balance, maker-checker), with
// `?notice=<code>` (run-notices.view.ts); another company's run is the 404 page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError, notFound } from '../platform/errors.js';
import { naira } from '../tax-engine/money.js';
import { html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { RUN_NOT_FOUND_PAGE, RunParams, runPageRenderer } from './payroll.routes.js';
import { errorMessage, runPath } from './payroll-runs.view.js';
import { runRefusalCode } from './run-notices.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The employees offered for a chosen subset (a larger subset is made through the API). */
const CHOOSABLE = 500;

interface RunForm {
  pay_period_start?: string;
  pay_period_end?: string;
  payment_date?: string;
  include?: string;
  user_ids?: string | string[];
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** This month, paid on its last day: what a monthly payroll most often is. */
function defaults(): RunForm {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { pay_period_start: isoDay(first), pay_period_end: isoDay(last), payment_date: isoDay(last), include: 'all' };
}

export async function payrollRunRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { runs, funding } = ctx.services.payrollRuns;
  const renderRun = runPageRenderer(ctx);

  async function newRunPage(session: SessionRow, form: RunForm, flash: Flash = {}, fields: Record<string, string[]> = {}) {
    const { users } = await ctx.services.users.search.search(session.companyId, { status: 'active', offset: 0, limit: CHOOSABLE });
    const chosen = new Set([form.user_ids ?? []].flat());
    const dateField = (name: 'pay_period_start' | 'pay_period_end' | 'payment_date', label: string, hint: string) =>
      html`<label for="${name}">${label} <span class="hint">${hint}</span></label>
<input id="${name}" name="${name}" type="date" required value="${form[name] ?? ''}"${fields[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${fields[name] ? html`<p class="field-error" id="${name}-error">${fields[name].join(' ')}</p>` : ''}`;
    const body = html`<p><a href="/console/payroll">← All payroll runs</a></p>
<p>The run is computed from each employee's base salary and allowances per pay period, by the same engine as POST /api/paystubs. It starts as a draft: you see its totals and who was skipped before anything is paid.</p>
<form method="post" action="/console/payroll/new">
${csrfField(session.csrfToken)}
${dateField('pay_period_start', 'Pay period start', 'First day paid')}
${dateField('pay_period_end', 'Pay period end', 'Last day paid; employees who start inside the period are paid pro rata')}
${dateField('payment_date', 'Payment date', 'When employees should receive the money')}
<fieldset><legend>Who is included</legend>
<div class="checks">
<label for="include-all"><input id="include-all" type="radio" name="include" value="all"${form.include !== 'chosen' ? html` checked` : ''}> All eligible employees</label>
<label for="include-chosen"><input id="include-chosen" type="radio" name="include" value="chosen"${form.include === 'chosen' ? html` checked` : ''}> Only the employees ticked below</label>
</div></fieldset>
<fieldset><legend>Employees (active, ${users.length}${users.length === CHOOSABLE ? ' shown; use the API for others' : ''})</legend>
${fields.user_ids ? html`<p class="field-error" id="user_ids-error">${fields.user_ids.join(' ')}</p>` : ''}
<div class="checks">${users.map(
      (user) =>
        html`<label for="user-${user.id}"><input id="user-${user.id}" type="checkbox" name="user_ids" value="${user.id}"${chosen.has(String(user.id)) ? html` checked` : ''}> ${user.first_name} ${user.last_name} <span class="muted">${naira(user.base_salary)}</span></label>`,
    )}</div></fieldset>
<button type="submit">Create draft run</button>
</form>`;
    return page({ title: 'New payroll run', session, section: 'payroll', body, flash });
  }

  app.get('/payroll/new', { schema: { hide: true }, preHandler: guard }, async (request, reply) =>
    sendHtml(reply, await newRunPage(sessionOf(request), defaults())),
  );

  app.post(
    '/payroll/new',
    {
      schema: {
        hide: true,
        body: Type.Object({
          _csrf: Type.Optional(Type.String()),
          pay_period_start: Type.Optional(Type.String({ maxLength: 20 })),
          pay_period_end: Type.Optional(Type.String({ maxLength: 20 })),
          payment_date: Type.Optional(Type.String({ maxLength: 20 })),
          include: Type.Optional(Type.String({ maxLength: 10 })),
          user_ids: Type.Optional(
            Type.Union([Type.String({ maxLength: 12 }), Type.Array(Type.String({ maxLength: 12 }), { maxItems: 10_000 })]),
          ),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const form = request.body;
      const ids = [form.user_ids ?? []].flat();
      const refuse = async (fields: Record<string, string[]>) =>
        sendHtml(reply, await newRunPage(session, form, { error: 'The run was not created: check the fields marked below.' }, fields), 422);
      if (form.include === 'chosen' && ids.length === 0)
        return refuse({ user_ids: ['Tick at least one employee, or include all eligible employees.'] });
      if (ids.some((id) => !/^\d{1,9}$/.test(id))) return refuse({ user_ids: ['Choose employees from the list.'] });
      try {
        const { run } = await runs.create(
          session.companyId,
          {
            pay_period_start: form.pay_period_start ?? '',
            pay_period_end: form.pay_period_end ?? '',
            payment_date: form.payment_date ?? '',
            user_ids: form.include === 'chosen' ? ids.map(Number) : undefined,
          },
          { userId: session.userId, email: session.email },
        );
        return reply.redirect(`${runPath(run.id)}?done=created`, 303);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'internal') throw error;
        const fields = error.fields ?? {};
        const message = fields.user_ids && Object.keys(fields).length === 1 ? fields.user_ids.join(' ') : undefined;
        return sendHtml(
          reply,
          await newRunPage(session, form, { error: message ?? errorMessage(error) }, fields),
          DOMAIN_STATUS[error.code],
        );
      }
    },
  );

  // A refusal with a code of run-notices.view.ts is a 303 to the run page, which names it
  // (Post/Redirect/Get: reloading the page does not post again); another one (overlapping
  // paystubs, whose pairs only the refusal carries) is the run page at the service's status.
  async function refused(error: unknown, session: SessionRow, id: string, reply: FastifyReply) {
    if (!(error instanceof DomainError) || error.code === 'internal') throw error;
    if (error.code === 'not_found') throw notFound(RUN_NOT_FOUND_PAGE);
    const code = runRefusalCode(error);
    if (code) return reply.redirect(`${runPath(id)}?notice=${code}`, 303);
    return sendHtml(reply, await renderRun(session, id, 1, { error: errorMessage(error) }), DOMAIN_STATUS[error.code]);
  }

  type Act = (companyId: number, id: string, session: SessionRow) => Promise<unknown>;
  const action = (path: string, done: string, act: Act) =>
    app.post(
      `/payroll/:transactionId/${path}`,
      { schema: { hide: true, params: RunParams, body: Type.Object({ _csrf: Type.Optional(Type.String()) }) }, preHandler: guard },
      async (request, reply) => {
        const session = sessionOf(request);
        const id = request.params.transactionId;
        try {
          await act(session.companyId, id, session);
          return reply.redirect(`${runPath(id)}?done=${done}`, 303);
        } catch (error) {
          return refused(error, session, id, reply);
        }
      },
    );
  // Maker-checker: the signed-in administrator approves, as themselves only (never a colleague named
  // on the form), and not a run they created. The hidden approval_token is the secret of the e-mailed
  // link the page was opened from (run-approval.routes.ts): the run then records `email_link`.
  app.post(
    '/payroll/:transactionId/approve',
    {
      schema: {
        hide: true,
        params: RunParams,
        body: Type.Object({
          _csrf: Type.Optional(Type.String()),
          approval_token: Type.Optional(Type.String({ maxLength: 100 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = request.params.transactionId;
      try {
        await runs.approveAsPerson(session.companyId, id, { userId: session.userId }, request.body.approval_token || undefined);
        return reply.redirect(`${runPath(id)}?done=approved`, 303);
      } catch (error) {
        return refused(error, session, id, reply);
      }
    },
  );
  action('pay', 'paying', (companyId, id) => funding.pay(companyId, id));
  action('retry', 'retrying', (companyId, id) => funding.retry(companyId, id));
  action('cancel', 'cancelled', (companyId, id) => runs.cancel(companyId, id));
}
