// Settings → Approval of payroll runs (docs/payroll-runs.md, "Approval"): a signed-in administrator
// chooses whether the company's API token can approve runs by itself (`token`) or only asks an
// administrator, who approves here (`person`, the default). The token can never choose this for
// its own company: only this page, the parent company (C2/C4) and the operator can.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { CompanyProfile } from '../modules/companies/index.js';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const CHOICES: [value: 'person' | 'token', label: string, hint: string][] = [
  [
    'person',
    'An administrator approves in this console (recommended)',
    'POST /api/payroll-runs/{id}/approve with the API token only asks the named administrator: they get an e-mail with a link to the run and approve it here, signed in as themselves.',
  ],
  [
    'token',
    'The API token approves',
    'For platforms that run their own maker-checker before calling us: the token’s approve approves at once, and the run records that the platform vouched for the approver.',
  ],
];

export function runApprovalSection(session: SessionRow, profile: CompanyProfile): Html {
  const current = profile.company.runApproval;
  return html`<section class="card" aria-labelledby="run-approval-heading">
  <h2 id="run-approval-heading">Approval of payroll runs</h2>
  <p class="muted">Whoever approves, it is an administrator other than the run’s creator. Only administrators can change this here; the API token cannot.</p>
  <form method="post" action="/console/settings/run-approval">
    ${csrfField(session.csrfToken)}
    <fieldset><legend>Who approves payroll runs</legend><div class="checks">${CHOICES.map(
      ([value, label, hint]) =>
        html`<label for="run_approval-${value}"><input type="radio" id="run_approval-${value}" name="run_approval" value="${value}"${current === value ? html` checked` : ''}> ${label} <span class="hint">${hint}</span></label>`,
    )}</div></fieldset>
    <button type="submit">Save approval setting</button>
  </form>
</section>`;
}

export async function runApprovalSettingsRoutes(
  root: FastifyInstance,
  ctx: WebContext,
  render: (session: SessionRow, flash?: Flash) => Promise<Html>,
): Promise<void> {
  const app = typed(root);
  app.post(
    '/settings/run-approval',
    {
      schema: {
        hide: true,
        body: Type.Object({
          _csrf: Type.Optional(Type.String({ maxLength: 200 })),
          run_approval: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
      preHandler: requireSession(ctx),
    },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await ctx.services.companies.runApproval.set(session.companyId, request.body.run_approval);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code === 'internal') throw error;
        return sendHtml(reply, await render(session, { error: error.message }), DOMAIN_STATUS[error.code]);
      }
      return reply.redirect('/console/settings?done=run-approval', 303);
    },
  );
}
