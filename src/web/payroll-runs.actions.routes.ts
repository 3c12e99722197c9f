// A payroll run's actions in the console (docs/console.md, "Payroll"): approve, pay, retry, cancel,
// each a POST form with the session's CSRF secret calling the payroll-runs services. Success
// redirects to the run page with a notice (Post/Redirect/Get); so does a refusal (wrong state, short
// balance, maker-checker), with `?notice=<code>` (run-notices.view.ts); another company's run is the
// 404 page. payrollRunRoutes registers these after New run.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError, notFound } from '../platform/errors.js';
import { RUN_NOT_FOUND_PAGE, RunParams, runPageRenderer } from './payroll.routes.js';
import { errorMessage, runPath } from './payroll-runs.view.js';
import { runRefusalCode } from './run-notices.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export async function payrollRunActionRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { runs, funding } = ctx.services.payrollRuns;
  const renderRun = runPageRenderer(ctx);

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
