// Payroll → New run, and the run's actions (approve, pay, retry, cancel), each a POST form with the
// session's CSRF secret calling the payroll-runs services. Success redirects to the run page with a
// notice (Post/Redirect/Get); so does a refusal (wrong state, short balance, maker-checker), with
// `?notice=<code>` (run-notices.view.ts); another company's run is the 404 page. This file holds
// New run; the run's actions are payroll-runs.actions.routes.ts, the form's markup
// payroll-runs.new.view.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { type Flash, page } from './layout.view.js';
import { payrollRunActionRoutes } from './payroll-runs.actions.routes.js';
import { CHOOSABLE, newRunBody, type RunForm } from './payroll-runs.new.view.js';
import { errorMessage, runPath } from './payroll-runs.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

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
  const { runs } = ctx.services.payrollRuns;

  async function newRunPage(session: SessionRow, form: RunForm, flash: Flash = {}, fields: Record<string, string[]> = {}) {
    const { users } = await ctx.services.users.search.search(session.companyId, { status: 'active', offset: 0, limit: CHOOSABLE });
    const body = newRunBody(session, form, users, fields);
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

  await payrollRunActionRoutes(root, ctx);
}
