// The New payroll run form's markup (docs/console.md, "Payroll"): the pay period and payment date,
// all eligible employees or a chosen subset, each field's refusal beside it. Pure: service answers
// in, markup out.
import type { SessionRow } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';
import type { WebContext } from './web.routes.js';

/** The employees offered for a chosen subset (a larger subset is made through the API). */
export const CHOOSABLE = 500;

/** What the New run form holds. */
export interface RunForm {
  pay_period_start?: string;
  pay_period_end?: string;
  payment_date?: string;
  include?: string;
  user_ids?: string | string[];
}

type Choosable = Awaited<ReturnType<WebContext['services']['users']['search']['search']>>['users'];

/** The page's body: the dates, who is included, and the employees to tick, with the refusals of `fields`. */
export function newRunBody(session: SessionRow, form: RunForm, users: Choosable, fields: Record<string, string[]>): Html {
  const chosen = new Set([form.user_ids ?? []].flat());
  const dateField = (name: 'pay_period_start' | 'pay_period_end' | 'payment_date', label: string, hint: string) =>
    html`<label for="${name}">${label} <span class="hint">${hint}</span></label>
<input id="${name}" name="${name}" type="date" required value="${form[name] ?? ''}"${fields[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${fields[name] ? html`<p class="field-error" id="${name}-error">${fields[name].join(' ')}</p>` : ''}`;
  return html`<p><a href="/console/payroll">← All payroll runs</a></p>
<p>The run is computed from each employee's base salary and allowances per pay period, by the same engine as POST /api/paystubs. It starts as a draft: you see its totals and who was skipped before anything is paid.</p>
<form method="post" action="/console/payroll/new">
${csrfField(session.csrfToken)}
${dateField('pay_period_start', 'Pay period start', 'First day paid')}
${dateField('pay_period_end', 'Pay period end', 'Last day paid; employees who start inside the period are paid pro rata')}
${dateField('payment_date', 'Payment date', 'When employees should receive the money')}
<fieldset><legend>Who is included</legend>
<div class="checks">
<label for="include-all"><input id="include-all" type="radio" name="include" value="all"${form.include !== 'chosen' ? html` checked` : ''}> All eligible employees</label>
<label for="include-chosen"><input id="include-chosen" type="radio" name="include" value="chosen"${form.include === 'chosen' ? html` checked` : ''}> Only the employees ticked below</label>
</div></fieldset>
<fieldset><legend>Employees (active, ${users.length}${users.length === CHOOSABLE ? ' shown; use the API for others' : ''})</legend>
${fields.user_ids ? html`<p class="field-error" id="user_ids-error">${fields.user_ids.join(' ')}</p>` : ''}
<div class="checks">${users.map(
    (user) =>
      html`<label for="user-${user.id}"><input id="user-${user.id}" type="checkbox" name="user_ids" value="${user.id}"${chosen.has(String(user.id)) ? html` checked` : ''}> ${user.first_name} ${user.last_name} <span class="muted">${naira(user.base_salary)}</span></label>`,
  )}</div></fieldset>
<button type="submit">Create draft run</button>
</form>`;
}
