// Administrators (docs/console.md, "Administrators"): who may use the console, inviting one by
// e-mail (a user with the console role and an onboarding link; the invitation goes through the
// outbox, and where no SMTP server is configured the link is shown to the inviter, who hands it
// over), changing the role, and removing it (never the last super admin). The rules live in the
// users module's admins service; this is the page. Post/redirect/get with a notice.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { ADMIN_ROLES, isExited } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const ROLE_LABELS: Record<string, string> = { 'super-admin': 'Super admin', admin: 'Admin' };
const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  personal_email: 'E-mail address',
  role: 'Role',
  user_types: 'Employee type',
};

const NOTICES: Record<string, string> = {
  invited: 'Invitation sent.',
  role: 'Role changed.',
  removed: 'Administrator removed: they keep their employee record but can no longer sign in to the console.',
};

type Typed = { first_name?: string; last_name?: string; personal_email?: string; role?: string };

export async function administratorsRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { admins } = ctx.services.users;
  const actorOf = (session: SessionRow) => ({ roles: session.roles });

  async function listPage(session: SessionRow, flash: Flash = {}, typedIn: Typed = {}, extra: Html = html``) {
    const rows = await admins.list(session.companyId);
    const today = lagosDate();
    const isSuper = session.roles.includes('super-admin');
    const standing = (a: (typeof rows)[number]) =>
      isExited(a.exitDate, today)
        ? html`<span class="badge off">Exited</span>`
        : a.isSuspended
          ? html`<span class="badge bad">Suspended</span>`
          : a.isActive
            ? html`<span class="badge ok">Active</span>`
            : a.onboardingCompleted
              ? html`<span class="badge off">Inactive</span>`
              : html`<span class="badge warn">Invited</span>`;
    const roleOf = (roles: string[]) => (roles.includes('super-admin') ? 'super-admin' : 'admin');
    const table = html`<div class="table-wrap"><table><caption>${rows.length === 1 ? '1 administrator' : `${rows.length} administrators`}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Change</th></tr></thead>
<tbody>${rows.map((a) => {
      const role = roleOf(a.roles);
      const other = role === 'super-admin' ? 'admin' : 'super-admin';
      const self = a.id === session.userId;
      return html`<tr><td>${a.firstName} ${a.lastName}${self ? ' (you)' : ''}</td><td>${a.email}<br><span class="muted">${a.personalEmail}</span></td><td>${ROLE_LABELS[role]}</td><td>${standing(a)}</td><td>${
        isSuper || role !== 'super-admin'
          ? html`<form method="post" action="/console/administrators/${a.id}/role" class="inline-form">${csrfField(session.csrfToken)}<input type="hidden" name="role" value="${other}"><button type="submit" class="secondary small"${
              other === 'super-admin' && !isSuper ? html` disabled` : ''
            }>Make ${ROLE_LABELS[other].toLowerCase()}</button></form>
<form method="post" action="/console/administrators/${a.id}/remove" class="inline-form" data-confirm="Remove ${a.firstName} ${a.lastName} as an administrator?">${csrfField(session.csrfToken)}<button type="submit" class="secondary small">Remove…</button></form>`
          : html`<span class="muted">Only a super admin may change this</span>`
      }</td></tr>`;
    })}</tbody></table></div>`;
    const invite = html`<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Invite an administrator</h2>
<p class="muted">They get an e-mail with a link to set their password (valid 7 days), then sign in here. Admins and super admins can do everything in the console; only a super admin may grant or take away the super admin role.</p>
<form method="post" action="/console/administrators/invite">
  ${csrfField(session.csrfToken)}
  <label for="first_name">First name</label><input id="first_name" name="first_name" type="text" required value="${typedIn.first_name ?? ''}">
  <label for="last_name">Last name</label><input id="last_name" name="last_name" type="text" required value="${typedIn.last_name ?? ''}">
  <label for="personal_email">E-mail address <span class="hint">Where the invitation goes; they may sign in with it</span></label><input id="personal_email" name="personal_email" type="email" required value="${typedIn.personal_email ?? ''}">
  <label for="role">Role</label><select id="role" name="role">${ADMIN_ROLES.filter((r) => isSuper || r !== 'super-admin').map(
    (r) => html`<option value="${r}"${typedIn.role === r ? html` selected` : ''}>${ROLE_LABELS[r]}</option>`,
  )}</select>
  <button type="submit">Send invitation</button>
</form></section>`;
    return page({ title: 'Administrators', session, section: 'administrators', body: html`${extra}${table}${invite}`, flash });
  }

  const messageOf = (error: DomainError) =>
    error.fields
      ? Object.entries(error.fields)
          .map(([field, messages]) => `${FIELD_LABELS[field] ?? field.replace(/_/g, ' ')}: ${messages.join(' ')}`)
          .join(' ')
      : error.message;
  const refused = (error: unknown): DomainError => {
    if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
    return error;
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
    const extra = html`<section class="card" aria-labelledby="link-heading"><h2 id="link-heading">Onboarding link for ${invited.user.first_name} ${invited.user.last_name}</h2>
<p>No e-mail server is configured, so the invitation was not sent. Give ${invited.user.first_name} this link (it sets their password; valid 7 days, once):</p>
<p><code id="onboarding-link">${invited.link}</code> <button type="button" class="secondary small" data-copy="onboarding-link">Copy</button></p></section>`;
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

  const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
  app.post(
    '/administrators/:id/role',
    {
      schema: {
        hide: true,
        params: Params,
        body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })), role: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await admins.setRole(session.companyId, actorOf(session), parseRowId(request.params.id) ?? 0, request.body.role);
      } catch (error) {
        const refusal = refused(error);
        return sendHtml(reply, await listPage(session, { error: messageOf(refusal) }), DOMAIN_STATUS[refusal.code]);
      }
      return reply.redirect('/console/administrators?done=role', 303);
    },
  );

  app.post(
    '/administrators/:id/remove',
    {
      schema: { hide: true, params: Params, body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }) },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = parseRowId(request.params.id) ?? 0;
      try {
        await admins.remove(session.companyId, actorOf(session), id);
      } catch (error) {
        const refusal = refused(error);
        return sendHtml(reply, await listPage(session, { error: messageOf(refusal) }), DOMAIN_STATUS[refusal.code]);
      }
      // Removing yourself ends your own session with the role: the sign-in page says so.
      if (id === session.userId) return reply.redirect('/console/login', 303);
      return reply.redirect('/console/administrators?done=removed', 303);
    },
  );
}
