// Administrators (docs/console.md, "Administrators"): who may use the console, inviting one by
// e-mail (a user with the console role and an onboarding link; the invitation goes through the
// outbox, and where no SMTP server is configured the link is shown to the inviter, who hands it
// over), changing the role, and removing it (never the last super admin). The rules live in the
// users module's admins service; this is the page. Post/redirect/get with a notice. This file holds
// the list and the invitation; changing the role and removing are administrators.changes.routes.ts,
// the markup administrators.view.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { lagosDate } from '../platform/format.js';
import { type AdministratorsPage, actorOf, administratorChangeRoutes, messageOf, refused } from './administrators.changes.routes.js';
import { administratorsTable, inviteForm, onboardingLinkCard, ROLE_LABELS } from './administrators.view.js';
import { html } from './html.view.js';
import { page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const NOTICES: Record<string, string> = {
  invited: 'Invitation sent.',
  role: 'Role changed.',
  removed: 'Administrator removed: they keep their employee record but can no longer sign in to the console.',
};

export async function administratorsRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { admins } = ctx.services.users;

  const listPage: AdministratorsPage = async (session, flash = {}, typedIn = {}, extra = html``) => {
    const rows = await admins.list(session.companyId);
    const body = html`${extra}${administratorsTable(session, rows, lagosDate())}${inviteForm(session, typedIn)}`;
    return page({ title: 'Administrators', session, section: 'administrators', body, flash });
  };

  app.get(
    '/administrators',
    { schema: { hide: true, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) }, preHandler: guard },
    async (request, reply) => {
      const done = request.query.done;
      return sendHtml(reply, await listPage(sessionOf(request), done && NOTICES[done] ? { notice: NOTICES[done] } : {}));
    },
  );

  const InviteBody = Type.Object({
    _csrf: Type.Optional(Type.String({ maxLength: 200 })),
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    personal_email: Type.Optional(Type.String({ maxLength: 320 })),
    role: Type.Optional(Type.String({ maxLength: 20 })),
  });
  app.post('/administrators/invite', { schema: { hide: true, body: InviteBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const input = {
      first_name: request.body.first_name?.trim(),
      last_name: request.body.last_name?.trim(),
      personal_email: request.body.personal_email?.trim(),
      role: request.body.role,
    };
    let invited: Awaited<ReturnType<typeof admins.invite>>;
    try {
      invited = await admins.invite(session.companyId, actorOf(session), input, true);
    } catch (error) {
      const refusal = refused(error);
      return sendHtml(reply, await listPage(session, { error: messageOf(refusal) }, input), DOMAIN_STATUS[refusal.code]);
    }
    if (ctx.deps.config.smtpUrl || !invited.link) return reply.redirect('/console/administrators?done=invited', 303);
    // No mail server: the invitation waits in the outbox, so the inviter hands the link over. This
    // answer is not a redirect: the link is a password-setting secret and must not sit in a URL.
    const extra = onboardingLinkCard(invited);
    return sendHtml(
      reply,
      await listPage(
        session,
        { notice: `${invited.user.first_name} ${invited.user.last_name} is invited as ${ROLE_LABELS[invited.role].toLowerCase()}.` },
        {},
        extra,
      ),
    );
  });

  await administratorChangeRoutes(root, ctx, listPage);
}
