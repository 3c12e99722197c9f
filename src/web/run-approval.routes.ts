// The link of an approval e-mail (docs/payroll-runs.md, "Approval"): /console/payroll/<run>/approval/<secret>.
// Behind sign-in like every console page (a signed-out visitor goes to the sign-in page and comes
// back here after it), it shows the run's page with the approve form carrying the link's secret,
// but only to the administrator the request named, while the link works (72 hours, and until a
// later request replaces it). Approving is still a click by that person on the page.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { html } from './html.view.js';
import { RunParams, runPageRenderer } from './payroll.routes.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const LINK_GONE = 'This approval link has expired or was replaced by a later request. An administrator can still approve the run below.';

export async function runApprovalRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { runs } = ctx.services.payrollRuns;
  const renderRun = runPageRenderer(ctx);

  app.get(
    '/payroll/:transactionId/approval/:token',
    {
      schema: { hide: true, params: Type.Object({ ...RunParams.properties, token: Type.String({ minLength: 1, maxLength: 100 }) }) },
      preHandler: requireSession(ctx),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { transactionId: id, token } = request.params;
      const target = await runs.approvalLinkFor(session.companyId, id, token);
      if (!target) return sendHtml(reply, await renderRun(session, id, 1, { error: LINK_GONE }), 410);
      if (target.userId !== session.userId) {
        const error = html`This approval link was sent to ${target.email}: only they can approve through it. Sign out and sign in as ${target.email}, then open the link again.`;
        return sendHtml(reply, await renderRun(session, id, 1, { error }), 403);
      }
      const notice = html`You were asked to approve this run. Check it, then approve it at <a href="#next-step">Approve</a> (as ${session.email}).`;
      return sendHtml(reply, await renderRun(session, id, 1, { notice }, token), 200);
    },
  );
}
