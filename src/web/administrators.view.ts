// The Administrators page's markup (docs/console.md, "Administrators"): the table of who may use the
// console with each one's Change forms, the Invite form (keeping what was typed), and the onboarding
// link shown when no SMTP server is configured. Pure: service answers in, markup out.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { ADMIN_ROLES, isExited } from '../modules/users/index.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export const ROLE_LABELS: Record<string, string> = { 'super-admin': 'Super admin', admin: 'Admin' };

/** What the Invite form held. */
export type InviteTyped = { first_name?: string; last_name?: string; personal_email?: string; role?: string };

type Admins = WebContext['services']['users']['admins'];
type Admin = Awaited<ReturnType<Admins['list']>>[number];
type Invited = Awaited<ReturnType<Admins['invite']>>;

/** The administrators with their role, standing, and the role and remove forms the signed-in one may use. */
export function administratorsTable(session: SessionRow, rows: Admin[], today: string): Html {
  const isSuper = session.roles.includes('super-admin');
  const standing = (a: Admin) =>
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
  return html`<div class="table-wrap"><table><caption>${rows.length === 1 ? '1 administrator' : `${rows.length} administrators`}</caption>
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
}

/** The Invite an administrator form (only a super admin is offered the super admin role). */
export function inviteForm(session: SessionRow, typedIn: InviteTyped): Html {
  const isSuper = session.roles.includes('super-admin');
  return html`<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Invite an administrator</h2>
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
}

/** The onboarding link of a new administrator, for the inviter to hand over. */
export function onboardingLinkCard(invited: Invited): Html {
  return html`<section class="card" aria-labelledby="link-heading"><h2 id="link-heading">Onboarding link for ${invited.user.first_name} ${invited.user.last_name}</h2>
<p>No e-mail server is configured, so the invitation was not sent. Give ${invited.user.first_name} this link (it sets their password; valid 7 days, once):</p>
<p><code id="onboarding-link">${invited.link}</code> <button type="button" class="secondary small" data-copy="onboarding-link">Copy</button></p></section>`;
}
