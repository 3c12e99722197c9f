// An employee's standing on their Edit page (docs/console.md, "People"): Activate, Deactivate,
// Suspend and Unsuspend, each a form whose first POST shows what will happen and a confirm button
// (works without the script, like Terminate), then the users service's action (the same as
// U5/U6/U10/U11), then a 303 back to the Edit page with a notice. Terminate is the leavers page.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { isExited } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import { type Html, html, when } from './html.view.js';
import { csrfField, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

type User = Record<string, unknown>;

export const STATUS_NOTICES: Record<string, string> = {
  activated: 'Employee activated.',
  deactivated: 'Employee deactivated: they are left out of payroll runs and signed out of the console.',
  suspended: 'Employee suspended.',
  unsuspended: 'Suspension ended.',
};

const ACTIONS = {
  activate: { verb: 'Activate', explain: 'They are included in payroll runs again and any open invitation link stops working.' },
  deactivate: {
    verb: 'Deactivate',
    explain: 'They are left out of payroll runs from now on, cannot sign in, and any open invitation link stops working.',
  },
  suspend: { verb: 'Suspend', explain: 'They are left out of payroll runs and cannot sign in until the suspension ends.' },
  unsuspend: { verb: 'End the suspension of', explain: 'They are included in payroll runs again at once.' },
} as const;
type Action = keyof typeof ACTIONS;

const DURATIONS = [
  ['indefinite', 'Until ended here'],
  ['hours', 'A number of hours'],
  ['minutes', 'A number of minutes'],
] as const;

const nameOf = (user: User) => `${String(user.first_name)} ${String(user.last_name)}`;

function actionForm(session: SessionRow, id: number, action: Action, label: string, cls = 'secondary'): Html {
  return html`<form method="post" action="/console/employees/${id}/${action}" class="inline-form">${csrfField(session.csrfToken)}<button type="submit" class="${cls}">${label}</button></form>`;
}

/** The Status section of the Edit page: the standing and the actions that apply to it. */
export function statusSection(session: SessionRow, user: User): Html {
  const id = user.id as number;
  const exited = isExited(user.exit_date as string | null, lagosDate());
  const standing = exited
    ? 'Exited'
    : user.is_suspended
      ? `Suspended${user.suspension_ends_at ? ` until ${when(user.suspension_ends_at as string)}` : ''}`
      : user.is_active
        ? 'Active'
        : user.onboarding_completed
          ? 'Inactive'
          : 'Invited (waiting for them to set a password)';
  const actions: Html[] = [];
  if (!exited) {
    actions.push(user.is_active ? actionForm(session, id, 'deactivate', 'Deactivate…') : actionForm(session, id, 'activate', 'Activate…'));
    if (!user.is_suspended)
      actions.push(html`<form method="post" action="/console/employees/${id}/suspend">${csrfField(session.csrfToken)}
  <label for="suspension_duration_type">Suspend for</label>
  <select id="suspension_duration_type" name="suspension_duration_type">${DURATIONS.map(([v, l]) => html`<option value="${v}">${l}</option>`)}</select>
  <label for="suspension_duration_value">Number of hours or minutes <span class="hint">Not needed for a suspension until ended here</span></label>
  <input id="suspension_duration_value" name="suspension_duration_value" type="text" inputmode="numeric">
  <label for="suspension_reason">Reason <span class="hint">Optional</span></label>
  <input id="suspension_reason" name="suspension_reason" type="text" maxlength="1000">
  <button type="submit" class="secondary">Suspend…</button></form>`);
    else actions.push(actionForm(session, id, 'unsuspend', 'End the suspension…'));
  }
  return html`<section class="card" aria-labelledby="status-heading"><h2 id="status-heading">Status</h2>
<p>${standing}.</p>${actions}
<p>${exited ? html`<a href="/console/employees/${id}/statutory">Employment and reinstatement</a>` : html`<a class="button secondary" href="/console/employees/${id}/terminate">Terminate…</a>`}</p>
</section>`;
}

const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
const ActionBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  confirm: Type.Optional(Type.String({ maxLength: 5 })),
  suspension_duration_type: Type.Optional(Type.String({ maxLength: 20 })),
  suspension_duration_value: Type.Optional(Type.String({ maxLength: 20 })),
  suspension_reason: Type.Optional(Type.String({ maxLength: 1000 })),
});

export async function employeeStatusRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users, actions, suspension } = ctx.services.users;

  const run: Record<Action, (companyId: number, id: number, body: Record<string, string | undefined>) => Promise<unknown>> = {
    activate: (companyId, id) => actions.activate(companyId, id, false),
    deactivate: (companyId, id) => actions.deactivate(companyId, id),
    suspend: (companyId, id, body) =>
      suspension.suspend(companyId, id, {
        suspension_duration_type: body.suspension_duration_type,
        suspension_duration_value: body.suspension_duration_value?.trim() || undefined,
        suspension_reason: body.suspension_reason,
      }),
    unsuspend: (companyId, id) => suspension.unsuspend(companyId, id, 'immediately', undefined),
  };

  for (const action of Object.keys(ACTIONS) as Action[]) {
    app.post(
      `/employees/:id/${action}`,
      { schema: { hide: true, params: Params, body: ActionBody }, preHandler: guard },
      async (request, reply) => {
        const session = sessionOf(request);
        const id = parseRowId(request.params.id) ?? 0;
        const user: User = await users.show(session.companyId, id);
        const body = request.body;
        const back = html`<p><a href="/console/employees/${id}/edit">← ${nameOf(user)}</a></p>`;
        if (body.confirm !== 'yes') {
          // Step one: what will happen, and the button that does it (the typed suspension carried along).
          const carried = (['suspension_duration_type', 'suspension_duration_value', 'suspension_reason'] as const).map((f) =>
            body[f] === undefined ? '' : html`<input type="hidden" name="${f}" value="${body[f]}">`,
          );
          const content = html`${back}<section class="card"><h2>${ACTIONS[action].verb} ${nameOf(user)} (${String(user.employee_id)})?</h2>
<p>${ACTIONS[action].explain}</p>
<form method="post" action="/console/employees/${id}/${action}">${csrfField(session.csrfToken)}${carried}<input type="hidden" name="confirm" value="yes">
<button type="submit" class="${action === 'activate' || action === 'unsuspend' ? '' : 'danger'}">${ACTIONS[action].verb} ${nameOf(user)}</button>
<a class="button secondary" href="/console/employees/${id}/edit">Cancel</a></form></section>`;
          return sendHtml(reply, page({ title: 'Confirm', session, section: 'employees', body: content }));
        }
        try {
          await run[action](session.companyId, id, body);
        } catch (error) {
          if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
          const message =
            Object.values(error.fields ?? {})
              .flat()
              .join(' ') || error.message;
          const status = DOMAIN_STATUS[error.code];
          // The last super admin cannot be deactivated (docs/users.md): say so in words.
          const text =
            action === 'deactivate' && error.code === 'forbidden'
              ? 'This is the company\u2019s last active super admin: make another administrator super admin first.'
              : message;
          return sendHtml(
            reply,
            page({ title: 'That did not work', session, section: 'employees', body: back, flash: { error: text } }),
            status,
          );
        }
        const done = { activate: 'activated', deactivate: 'deactivated', suspend: 'suspended', unsuspend: 'unsuspended' }[action];
        return reply.redirect(`/console/employees/${id}/edit?done=${done}`, 303);
      },
    );
  }
}
