// Payroll → New off-cycle run, the rendering: the reason, the payment date and one pay item row per
// active employee, each refusal next to its field (a row's beside that employee's boxes).
import type { SessionRow } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { OFF_CYCLE_REASON_LABELS } from './payroll-runs.view.js';
import type { WebContext } from './web.routes.js';

/** The employees offered, as on the New run page (a larger run is made through the API). */
export const CHOOSABLE = 500;
export const OFF_CYCLE_PATH = '/console/payroll/off-cycle/new';

export type RowField = 'type' | 'amount' | 'description';
export interface Row {
  type: string;
  amount: string;
  description: string;
}
export interface OffCycleForm {
  reason: string;
  payment_date: string;
  rows: Map<number, Row>;
}
/** Messages by field: `reason`, `payment_date`, `users` (the table), `general`; rows by user id. */
export interface Problems {
  fields: Record<string, string[]>;
  rows: Map<number, Partial<Record<RowField | 'row', string[]>>>;
}
export const noProblems = (): Problems => ({ fields: {}, rows: new Map() });

export type Employee = Awaited<ReturnType<WebContext['services']['users']['search']['search']>>['users'][number];
export type PayItemType = Awaited<ReturnType<WebContext['services']['payItems']['payItemTypes']['list']>>['data'][number];

const invalid = (id: string, messages: string[] | undefined) => (messages ? html` aria-invalid="true" aria-describedby="${id}-error"` : '');
const errorOf = (id: string, messages: string[] | undefined) =>
  messages ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : '';

function typeOptions(offered: PayItemType[], chosen: string): Html {
  const option = (type: PayItemType) =>
    html`<option value="${type.code}"${type.code === chosen ? html` selected` : ''}>${type.name}${type.treatment === 'deduction' ? ' (deduction)' : ''}</option>`;
  const own = offered.filter((type) => !type.built_in);
  return html`<option value="">No item</option><optgroup label="Built in">${offered.filter((type) => type.built_in).map(option)}</optgroup>${
    own.length > 0 ? html`<optgroup label="Your company's types">${own.map(option)}</optgroup>` : ''
  }`;
}

/** One employee's row: the item type, the amount and the description, as typed, with their refusals. */
function employeeRow(user: Employee, form: OffCycleForm, problems: Problems, offered: PayItemType[]): Html {
  const id = Number(user.id);
  const typedRow = form.rows.get(id) ?? { type: '', amount: '', description: '' };
  const rowProblems = problems.rows.get(id) ?? {};
  const who = `${user.first_name} ${user.last_name}`;
  const cell = (field: RowField, control: Html) => html`<td>${control}${errorOf(`${field}-${id}`, rowProblems[field])}</td>`;
  return html`<tr><td><input type="hidden" name="user_id" value="${id}">${who}<br><span class="muted">${user.employee_id ?? ''} · salary ${naira(user.base_salary)}</span>${errorOf(`row-${id}`, rowProblems.row)}</td>
${cell('type', html`<select name="type" id="type-${id}" aria-label="Item type for ${who}"${invalid(`type-${id}`, rowProblems.type)}>${typeOptions(offered, typedRow.type)}</select>`)}
${cell('amount', html`<input type="text" inputmode="decimal" name="amount" id="amount-${id}" aria-label="Amount for ${who}" value="${typedRow.amount}"${invalid(`amount-${id}`, rowProblems.amount)}>`)}
${cell('description', html`<input type="text" name="description" id="description-${id}" maxlength="200" aria-label="Description for ${who}" value="${typedRow.description}"${invalid(`description-${id}`, rowProblems.description)}>`)}</tr>`;
}

/** The whole form: `offered` are the pay item types to choose from, `users` the rows. */
export function offCycleFormPage(
  session: SessionRow,
  form: OffCycleForm,
  users: Employee[],
  offered: PayItemType[],
  flash: Flash,
  problems: Problems,
): Html {
  const { fields } = problems;
  const body = html`<p><a href="/console/payroll">← All payroll runs</a></p>
<p>An off-cycle run pays pay items only (no salary), outside the monthly run: a bonus, a correction, a 13th month. Each employee's paystub is dated the payment date; tax, pension and NHF apply to each item as its type says (docs: "Pay items"). It starts as a draft, approved by another administrator and paid from the wallet like every run.</p>
${fields.general ? html`<div class="error" role="alert"><ul>${fields.general.map((message) => html`<li>${message}</li>`)}</ul></div>` : ''}
<form method="post" action="${OFF_CYCLE_PATH}">
${csrfField(session.csrfToken)}
<label for="reason">Reason</label>
<select id="reason" name="reason" required${invalid('reason', fields.reason)}>
<option value="">Choose a reason</option>
${Object.entries(OFF_CYCLE_REASON_LABELS).map(
  ([value, label]) =>
    html`<option value="${value}"${form.reason === value ? html` selected` : ''}>${label[0].toUpperCase()}${label.slice(1)}</option>`,
)}
</select>
${errorOf('reason', fields.reason)}
<label for="payment_date">Payment date <span class="hint">When employees should receive the money; the paystubs are dated this day</span></label>
<input id="payment_date" name="payment_date" type="date" required value="${form.payment_date}"${invalid('payment_date', fields.payment_date)}>
${errorOf('payment_date', fields.payment_date)}
<h2 id="items-heading">Pay items</h2>
<p class="hint">One item per employee; leave a row empty to leave the employee out. Amounts in naira, e.g. 50000 or 50,000.00. Arrears, more than one item for someone, employees who are not active (a leaver's final pay) and runs of more than ${CHOOSABLE} employees are made through POST /api/payroll-runs.</p>
${errorOf('users', fields.users)}
<div class="table-wrap"><table aria-labelledby="items-heading"><caption>Active employees (${users.length}${users.length === CHOOSABLE ? ' shown' : ''})</caption>
<thead><tr><th scope="col">Employee</th><th scope="col">Item type</th><th scope="col">Amount (₦)</th><th scope="col">Description <span class="muted">(optional)</span></th></tr></thead>
<tbody>${users.map((user) => employeeRow(user, form, problems, offered))}</tbody></table></div>
<button type="submit">Create draft off-cycle run</button>
</form>`;
  return page({ title: 'New off-cycle run', session, section: 'payroll', body, flash });
}
