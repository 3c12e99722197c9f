// Leavers in the console (docs/console.md, "Employees"): the Employment section of an employee's page,
// and Terminate (a form, then a confirm step showing what will be recorded, then the exit, then
// back to the employee's page with a notice: post/redirect/get) and Reinstate. Both go through the
// leavers service, so the console accepts and refuses exactly what POST /api/users/{id}/terminate and
// /reinstate do, with the same messages.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { EXIT_REASONS, isExited } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

type User = Record<string, unknown>;

const REASON_LABELS: Record<string, string> = {
  resignation: 'Resignation',
  dismissal: 'Dismissal',
  redundancy: 'Redundancy',
  retirement: 'Retirement',
  death: 'Death',
  end_of_contract: 'End of contract',
  other: 'Other',
};
const reasonLabel = (reason: unknown) => REASON_LABELS[String(reason)] ?? String(reason);

/** The notices of the employee page after a leavers action (`?done=`). */
export const LEAVER_NOTICES: Record<string, string> = {
  terminated: 'Exit recorded. The employee is paid pro rata up to the exit date and leaves the payroll after it.',
  reinstated: 'Exit undone: the employee is employed again.',
};

/** Day after `date` (YYYY-MM-DD): when an exit takes effect. */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** The employee page's Employment section: the exit, if any, and the action that applies. */
export function employmentSection(session: SessionRow, user: User): Html {
  const id = user.id as number;
  const exitDate = user.exit_date as string | null;
  if (exitDate === null) {
    return html`<section class="card" aria-labelledby="employment-heading">
  <h2 id="employment-heading">Employment</h2>
  <p>Employed since ${String(user.start_date ?? '—')}. No exit is recorded.</p>
  <p><a class="button secondary" href="/console/employees/${id}/terminate">Terminate…</a></p>
</section>`;
  }
  const exited = isExited(exitDate, lagosDate());
  return html`<section class="card" aria-labelledby="employment-heading">
  <h2 id="employment-heading">Employment</h2>
  <p>${exited ? html`<span class="badge off">Exited</span>` : html`<span class="badge warn">Leaving</span>`} Last day ${exitDate} (${reasonLabel(user.exit_reason)}); ${
    exited ? 'no longer active since' : 'exited from'
  } ${dayAfter(exitDate)}.</p>
  <form method="post" action="/console/employees/${id}/reinstate" data-confirm="Undo the exit of ${String(user.first_name)} ${String(user.last_name)}?">
    ${csrfField(session.csrfToken)}
    <p class="hint">Reinstating undoes the exit, as long as the pay period that covers the exit date has not been paid.</p>
    <button type="submit" class="secondary">Reinstate</button>
  </form>
</section>`;
}

const messagesOf = (error: unknown): string => {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  return (
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message
  );
};

const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
const TerminateForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  exit_date: Type.Optional(Type.String({ maxLength: 20 })),
  reason: Type.Optional(Type.String({ maxLength: 40 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});

export async function leaversConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { leavers } = ctx.services.leavers;
  const employeeId = (raw: string) => parseRowId(raw) ?? 0;

  /** Step one: the form (with what was typed and the refusal, after a refused attempt). */
  async function formPage(session: SessionRow, id: number, flash: Flash = {}, typed: { exit_date?: string; reason?: string } = {}) {
    const user: User = await users.show(session.companyId, id);
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const body = html`<p><a href="/console/employees/${id}/statutory">← ${name}</a></p>
<section class="card" aria-labelledby="terminate-heading">
  <h2 id="terminate-heading">Terminate ${name} (${String(user.employee_id)})</h2>
  <p class="muted">Record the last day of employment. The pay period that covers it pays salary and allowances pro rata up to and including that day; from the next day the employee is no longer active, cannot sign in and is left out of later runs.</p>
  <form method="post" action="/console/employees/${id}/terminate">
    ${csrfField(session.csrfToken)}
    <label for="exit_date">Last day of employment <span class="hint">Not before the start date, ${String(user.start_date ?? '—')}</span></label>
    <input id="exit_date" name="exit_date" type="date" required value="${typed.exit_date ?? ''}">
    <label for="reason">Reason</label>
    <select id="reason" name="reason" required>
      <option value="">Choose a reason</option>
      ${EXIT_REASONS.map((reason) => html`<option value="${reason}"${typed.reason === reason ? html` selected` : ''}>${reasonLabel(reason)}</option>`)}
    </select>
    <button type="submit">Continue</button>
  </form>
</section>`;
    return page({ title: 'Terminate employee', session, section: 'employees', body, flash });
  }

  /** Step two: what will be recorded, and the button that records it. */
  async function confirmPage(session: SessionRow, id: number, exit: { exitDate: string; reason: string; exitedNow: boolean }) {
    const user: User = await users.show(session.companyId, id);
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const body = html`<section class="card" aria-labelledby="confirm-heading">
  <h2 id="confirm-heading">Confirm the exit of ${name}</h2>
  <dl class="facts">
    <dt>Last day of employment</dt><dd>${exit.exitDate}</dd>
    <dt>Reason</dt><dd>${reasonLabel(exit.reason)}</dd>
    <dt>Exited from</dt><dd>${dayAfter(exit.exitDate)}${exit.exitedNow ? ' (already passed: the employee is exited at once and signed out of the console)' : ''}</dd>
  </dl>
  <form method="post" action="/console/employees/${id}/terminate">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="exit_date" value="${exit.exitDate}">
    <input type="hidden" name="reason" value="${exit.reason}">
    <input type="hidden" name="confirm" value="yes">
    <button type="submit" class="danger">Terminate ${name}</button>
    <a class="button secondary" href="/console/employees/${id}/statutory">Cancel</a>
  </form>
</section>`;
    return page({ title: 'Confirm the exit', session, section: 'employees', body });
  }

  app.get('/employees/:id/terminate', { schema: { hide: true, params: Params }, preHandler: guard }, async (request, reply) =>
    sendHtml(reply, await formPage(sessionOf(request), employeeId(request.params.id))),
  );

  app.post(
    '/employees/:id/terminate',
    { schema: { hide: true, params: Params, body: TerminateForm }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      const typed = { exit_date: request.body.exit_date?.trim() ?? '', reason: request.body.reason ?? '' };
      try {
        if (request.body.confirm !== 'yes')
          return sendHtml(reply, await confirmPage(session, id, await leavers.check(session.companyId, id, typed)));
        await leavers.terminate(session.companyId, id, typed);
      } catch (error) {
        const message = messagesOf(error);
        if (error instanceof DomainError && error.code === 'not_found') throw error;
        return sendHtml(reply, await formPage(session, id, { error: message }, typed), 422);
      }
      return reply.redirect(`/console/employees/${id}/statutory?done=terminated`, 303);
    },
  );

  app.post(
    '/employees/:id/reinstate',
    {
      schema: { hide: true, params: Params, body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }) },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      try {
        await leavers.reinstate(session.companyId, id);
      } catch (error) {
        const message = messagesOf(error);
        if (error instanceof DomainError && error.code === 'not_found') throw error;
        // The refusal on the Employment section itself (status 422), as the terminate form shows its own.
        const user: User = await users.show(session.companyId, id);
        const body = html`<p><a href="/console/employees/${id}/statutory">← ${String(user.first_name)} ${String(user.last_name)}</a></p>${employmentSection(session, user)}`;
        return sendHtml(reply, page({ title: 'Reinstate employee', session, section: 'employees', body, flash: { error: message } }), 422);
      }
      return reply.redirect(`/console/employees/${id}/statutory?done=reinstated`, 303);
    },
  );
}
