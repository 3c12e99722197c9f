// Payroll → New off-cycle run (docs/console.md, "Payroll"; docs/payroll-runs.md, "Off-cycle runs"):
// a reason, a payment date and one pay item per active employee, posted with the session's CSRF
// secret to the same payroll-runs service as POST /api/payroll-runs with `kind: "off_cycle"`, so the
// console accepts and refuses exactly what the API does. Rows left empty are not sent. Success
// redirects to the run page with a notice (Post/Redirect/Get); a 422 re-renders the form with what
// was typed and each message next to its field: `users.N.items.0.amount` on that employee's row.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { lagosDate } from '../platform/format.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { OFF_CYCLE_REASON_LABELS, runPath } from './payroll-runs.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The employees offered, as on the New run page (a larger run is made through the API). */
const CHOOSABLE = 500;
export const OFF_CYCLE_PATH = '/console/payroll/off-cycle/new';
/**
 * Arrears need the period they belong to (`origin_period`), which this one-line-per-employee form
 * does not ask for: they are paid through the API (a decision recorded in docs/console.md).
 */
const NOT_OFFERED = new Set(['arrears']);

type RowField = 'type' | 'amount' | 'description';
interface Row {
  type: string;
  amount: string;
  description: string;
}
interface OffCycleForm {
  reason: string;
  payment_date: string;
  rows: Map<number, Row>;
}
/** Messages by field: `reason`, `payment_date`, `users` (the table), `general`; rows by user id. */
interface Problems {
  fields: Record<string, string[]>;
  rows: Map<number, Partial<Record<RowField | 'row', string[]>>>;
}
const noProblems = (): Problems => ({ fields: {}, rows: new Map() });

const MESSAGES = {
  refused: 'The off-cycle run was not created: check the fields marked below.',
  noRows: 'Give at least one employee an item type and an amount.',
  typeMissing: 'Choose an item type for this amount.',
  badRows: 'Choose the employees from the list on this page.',
} as const;

const Many = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Array(Type.String({ maxLength }), { maxItems: CHOOSABLE })]));
const Body = Type.Object({
  _csrf: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String({ maxLength: 20 })),
  payment_date: Type.Optional(Type.String({ maxLength: 20 })),
  // One entry per employee row, in page order (a form posts its fields in document order).
  user_id: Many(12),
  type: Many(40),
  amount: Many(40),
  // Longer than the service's 200 so that it, not a 400 page, says what is wrong.
  description: Many(1000),
});
type BodyOf = {
  reason?: string;
  payment_date?: string;
  user_id?: string | string[];
  type?: string | string[];
  amount?: string | string[];
  description?: string | string[];
};

const list = (value: string | string[] | undefined) => [value ?? []].flat();
/** `50,000.00` as typed: thousands separators are dropped; anything else goes to the service as typed. */
const plainAmount = (amount: string) => (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(amount) ? amount.replace(/,/g, '') : amount);

/** The rows as posted, by user id; undefined when the parallel fields do not line up. */
function readRows(body: BodyOf): Map<number, Row> | undefined {
  const ids = list(body.user_id);
  const [types, amounts, descriptions] = [list(body.type), list(body.amount), list(body.description)];
  if (types.length !== ids.length || amounts.length !== ids.length || descriptions.length !== ids.length) return undefined;
  const rows = new Map<number, Row>();
  for (const [i, id] of ids.entries()) {
    if (!/^\d{1,9}$/.test(id) || rows.has(Number(id))) return undefined;
    rows.set(Number(id), { type: types[i].trim(), amount: amounts[i].trim(), description: descriptions[i].trim() });
  }
  return rows;
}

/** A service refusal placed on the page: `users.N.items.0.amount` on the row of the Nth employee sent. */
function placeErrors(fields: Record<string, string[]>, sent: readonly number[]): Problems {
  const problems = noProblems();
  for (const [key, messages] of Object.entries(fields)) {
    const match = /^users\.(\d+)(?:\.items\.\d+\.(\w+)|\.(\w+))?$/.exec(key);
    const userId = match ? sent[Number(match[1])] : undefined;
    if (userId !== undefined) {
      const field = (['type', 'amount', 'description'] as const).find((name) => name === match?.[2]) ?? 'row';
      const row = problems.rows.get(userId) ?? {};
      row[field] = [...(row[field] ?? []), ...messages];
      problems.rows.set(userId, row);
    } else if (key === 'reason' || key === 'payment_date' || key === 'users') problems.fields[key] = messages;
    else problems.fields.general = [...(problems.fields.general ?? []), ...messages];
  }
  return problems;
}

export async function offCycleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { runs } = ctx.services.payrollRuns;

  async function formPage(session: SessionRow, form: OffCycleForm, flash: Flash = {}, problems = noProblems()): Promise<Html> {
    const [{ users }, types] = await Promise.all([
      ctx.services.users.search.search(session.companyId, { status: 'active', offset: 0, limit: CHOOSABLE }),
      ctx.services.payItems.payItemTypes.list(session.companyId),
    ]);
    const offered = types.data.filter((type) => !NOT_OFFERED.has(type.code));
    const { fields } = problems;
    const invalid = (id: string, messages: string[] | undefined) =>
      messages ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
    const errorOf = (id: string, messages: string[] | undefined) =>
      messages ? html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>` : '';
    const typeOptions = (chosen: string) => {
      const option = (type: (typeof offered)[number]) =>
        html`<option value="${type.code}"${type.code === chosen ? html` selected` : ''}>${type.name}${type.treatment === 'deduction' ? ' (deduction)' : ''}</option>`;
      const own = offered.filter((type) => !type.built_in);
      return html`<option value="">No item</option><optgroup label="Built in">${offered.filter((type) => type.built_in).map(option)}</optgroup>${
        own.length > 0 ? html`<optgroup label="Your company's types">${own.map(option)}</optgroup>` : ''
      }`;
    };
    const row = (user: (typeof users)[number]) => {
      const id = Number(user.id);
      const typedRow = form.rows.get(id) ?? { type: '', amount: '', description: '' };
      const rowProblems = problems.rows.get(id) ?? {};
      const who = `${user.first_name} ${user.last_name}`;
      const cell = (field: RowField, control: Html) => html`<td>${control}${errorOf(`${field}-${id}`, rowProblems[field])}</td>`;
      return html`<tr><td><input type="hidden" name="user_id" value="${id}">${who}<br><span class="muted">${user.employee_id ?? ''} · salary ${naira(user.base_salary)}</span>${errorOf(`row-${id}`, rowProblems.row)}</td>
${cell('type', html`<select name="type" id="type-${id}" aria-label="Item type for ${who}"${invalid(`type-${id}`, rowProblems.type)}>${typeOptions(typedRow.type)}</select>`)}
${cell('amount', html`<input type="text" inputmode="decimal" name="amount" id="amount-${id}" aria-label="Amount for ${who}" value="${typedRow.amount}"${invalid(`amount-${id}`, rowProblems.amount)}>`)}
${cell('description', html`<input type="text" name="description" id="description-${id}" maxlength="200" aria-label="Description for ${who}" value="${typedRow.description}"${invalid(`description-${id}`, rowProblems.description)}>`)}</tr>`;
    };
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
<tbody>${users.map(row)}</tbody></table></div>
<button type="submit">Create draft off-cycle run</button>
</form>`;
    return page({ title: 'New off-cycle run', session, section: 'payroll', body, flash });
  }

  app.get(OFF_CYCLE_PATH.replace('/console', ''), { schema: { hide: true }, preHandler: guard }, async (request, reply) =>
    sendHtml(reply, await formPage(sessionOf(request), { reason: '', payment_date: lagosDate(), rows: new Map() })),
  );

  app.post(OFF_CYCLE_PATH.replace('/console', ''), { schema: { hide: true, body: Body }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const body = request.body;
    const rows = readRows(body);
    const form: OffCycleForm = { reason: body.reason ?? '', payment_date: body.payment_date?.trim() ?? '', rows: rows ?? new Map() };
    const refuse = async (problems: Problems, status = 422) =>
      sendHtml(reply, await formPage(session, form, { error: MESSAGES.refused }, problems), status);
    if (!rows) return refuse({ fields: { general: [MESSAGES.badRows] }, rows: new Map() });

    // Rows with nothing typed are left out; an amount or a description without a type is asked about here.
    const sent: number[] = [];
    const users: { user_id: number; items: { type: string; amount: string; description?: string }[] }[] = [];
    const problems = noProblems();
    for (const [userId, row] of rows) {
      if (row.type === '' && row.amount === '' && row.description === '') continue;
      if (row.type === '') {
        problems.rows.set(userId, { type: [MESSAGES.typeMissing] });
        continue;
      }
      sent.push(userId);
      users.push({
        user_id: userId,
        items: [{ type: row.type, amount: plainAmount(row.amount), ...(row.description ? { description: row.description } : {}) }],
      });
    }
    if (problems.rows.size > 0) return refuse(problems);
    if (users.length === 0) return refuse({ fields: { users: [MESSAGES.noRows] }, rows: new Map() });
    try {
      const { run } = await runs.create(
        session.companyId,
        { kind: 'off_cycle', reason: form.reason, payment_date: form.payment_date || undefined, users },
        { userId: session.userId, email: session.email },
      );
      return reply.redirect(`${runPath(run.id)}?done=off_cycle_created`, 303);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'internal') throw error;
      const placed = placeErrors(error.fields ?? {}, sent);
      if (!error.fields) placed.fields.general = [error.message];
      return refuse(placed, DOMAIN_STATUS[error.code]);
    }
  });
}
