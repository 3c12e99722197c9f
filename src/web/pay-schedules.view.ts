// Payroll → Pay schedules, the rendering: each schedule with its next periods, the form that creates
// or edits one, and the confirmation of a deactivation.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export type Schedule = Awaited<ReturnType<WebContext['services']['paySchedules']['paySchedules']['list']>>['data'][number];
export type FormValues = Partial<Record<'name' | 'frequency' | 'pay_day' | 'first_period_start' | 'create_days_before', string>>;

export const valuesOf = (s: Schedule): FormValues => ({
  name: s.name,
  frequency: s.frequency,
  pay_day: String(s.pay_day),
  first_period_start: s.first_period_start,
  create_days_before: String(s.create_days_before),
});

function scheduleForm(session: SessionRow, action: string, values: FormValues, submit: string): Html {
  const field = (name: keyof FormValues, label: string, hint: string, type = 'text') =>
    html`<label for="${name}">${label} <span class="hint">${hint}</span></label><input id="${name}" name="${name}" type="${type}" value="${values[name] ?? ''}">`;
  return html`<form method="post" action="${action}">
${csrfField(session.csrfToken)}
${field('name', 'Name', 'For example "Monthly salaries"')}
<label for="frequency">Frequency</label>
<select id="frequency" name="frequency">${['monthly', 'weekly', 'bi-weekly'].map(
    (f) => html`<option value="${f}"${values.frequency === f ? html` selected` : ''}>${f}</option>`,
  )}</select>
${field('pay_day', 'Pay day', '"last_working_day", a day of the month 1-31, or a weekday (monday...) for weekly')}
${field('first_period_start', 'First period starts', 'The first day of the first period', 'date')}
${field('create_days_before', 'Create the draft run', 'Days before the payment date (default 5)', 'number')}
<button type="submit">${submit}</button>
</form>`;
}

function periodsTable(s: Schedule): Html {
  if (!s.active) return html`<p class="muted">Inactive: no runs are created.</p>`;
  if (s.upcoming.length === 0) return html`<p class="muted">No coming period.</p>`;
  return html`<table data-upcoming="${s.id}"><thead><tr><th>Period</th><th>Payment date</th><th>Draft created on</th></tr></thead><tbody>${s.upcoming.map(
    (p) => html`<tr><td>${p.pay_period_start} to ${p.pay_period_end}</td><td>${p.payment_date}</td><td>${p.creation_date}</td></tr>`,
  )}</tbody></table>`;
}

/** Activate: nothing is lost by it, so a button (no confirmation page). */
function activateForm(session: SessionRow, id: number): Html {
  return html`<form method="post" action="/console/pay-schedules/${id}/activate">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Activate</button></form>`;
}

function listBody(session: SessionRow, schedules: Schedule[], values: FormValues): Html {
  return html`<p class="muted">Each active schedule creates its period's draft run before the payment date; a payment date on a weekend or public holiday moves to the working day before.</p>
${
  schedules.length === 0
    ? html`<p class="muted">No pay schedules yet.</p>`
    : schedules.map(
        (s) => html`<section class="card" data-schedule="${s.id}" aria-labelledby="schedule-${s.id}">
<h2 id="schedule-${s.id}">${s.name} ${s.active ? html`<span class="badge ok">active</span>` : html`<span class="badge">inactive</span>`}</h2>
<p>${s.frequency}, pay day ${String(s.pay_day)}, draft ${s.create_days_before} days before payment.</p>
${periodsTable(s)}
<p><a class="button secondary" href="/console/pay-schedules/${s.id}/edit">Edit</a>${
          s.active
            ? html` <a class="button secondary" href="/console/pay-schedules/${s.id}/deactivate">Deactivate</a>`
            : html`</p>${activateForm(session, s.id)}<p class="muted">Activating creates the draft run of a period whose creation date has passed and whose payment date is ahead, within a minute.`
        }</p>
</section>`,
      )
}
<section class="card" aria-labelledby="new-schedule"><h2 id="new-schedule">New pay schedule</h2>
${scheduleForm(session, '/console/pay-schedules', values, 'Create pay schedule')}</section>`;
}

export function listPage(session: SessionRow, schedules: Schedule[], values: FormValues, flash?: Flash): Html {
  return page({ title: 'Pay schedules', session, section: 'payroll', body: listBody(session, schedules, values), flash });
}

export function editPage(session: SessionRow, id: number, values: FormValues, flash?: Flash): Html {
  return page({
    title: 'Edit pay schedule',
    session,
    section: 'payroll',
    body: html`<p><a href="/console/pay-schedules">Back to pay schedules</a></p>${scheduleForm(session, `/console/pay-schedules/${id}`, values, 'Save pay schedule')}`,
    flash,
  });
}

export function deactivatePage(session: SessionRow, id: number, name: string): Html {
  return page({
    title: 'Deactivate pay schedule',
    session,
    section: 'payroll',
    body: html`<p>Deactivate <strong>${name}</strong>? It creates no more draft runs; runs it already created stay. It can be activated again from this page.</p>
<form method="post" action="/console/pay-schedules/${id}/deactivate">${csrfField(session.csrfToken)}
<button type="submit" class="danger">Deactivate</button> <a href="/console/pay-schedules">Cancel</a></form>`,
  });
}
