// Leavers in the console, the rendering: the Employment section of an employee's page, the
// Terminate form, its confirm step, and a refused Reinstate.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { EXIT_REASONS, isExited } from '../modules/users/index.js';
import { lagosDate } from '../platform/format.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';

export type User = Record<string, unknown>;

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

/** Terminate, step one: the form (with what was typed and the refusal, after a refused attempt). */
export function terminateFormPage(
  session: SessionRow,
  id: number,
  user: User,
  flash: Flash,
  typed: { exit_date?: string; reason?: string },
): Html {
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

/** Terminate, step two: what will be recorded, and the button that records it. */
export function confirmExitPage(
  session: SessionRow,
  id: number,
  user: User,
  exit: { exitDate: string; reason: string; exitedNow: boolean },
): Html {
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

/** A refused Reinstate: the refusal on the Employment section itself, as the terminate form shows its own. */
export function reinstateRefusedPage(session: SessionRow, id: number, user: User, message: string): Html {
  const body = html`<p><a href="/console/employees/${id}/statutory">← ${String(user.first_name)} ${String(user.last_name)}</a></p>${employmentSection(session, user)}`;
  return page({ title: 'Reinstate employee', session, section: 'employees', body, flash: { error: message } });
}
