// An employee's opening year-to-date figures in the console (docs/console.md, "Employees"; rules in
// docs/payroll.md, "Opening year-to-date"): a year's figures from before this service beside what the
// service paid since, and the form that sets them (a confirm step, then post/redirect/get with a
// notice). Through the year-to-date service: the same rules and messages as PUT
// /api/users/{id}/year-to-date/{year}.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html, plural } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { messagesOf } from './loans.routes.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const FIELDS = [
  ['gross_pay', 'Gross pay'],
  ['taxable_pay', 'Taxable pay'],
  ['tax_withheld', 'PAYE withheld'],
  ['employee_pension', 'Pension, employee'],
  ['nhf', 'NHF'],
  ['nhis', 'NHIS, employee'],
] as const;
type Field = (typeof FIELDS)[number][0];

const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });
const Query = Type.Object({ year: Type.Optional(Type.String({ maxLength: 10 })), done: Type.Optional(Type.String({ maxLength: 10 })) });
const Form = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  year: Type.Optional(Type.String({ maxLength: 10 })),
  ...Object.fromEntries(FIELDS.map(([field]) => [field, Type.Optional(Type.String({ maxLength: 30 }))])),
  months: Type.Optional(Type.String({ maxLength: 5 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});
type Values = Record<Field | 'months', string>;

export const OPENING_SAVED =
  'Opening figures saved. Cumulative tax counts them as earlier periods of the year; payslips and the annual return show them.';

const amount = (value: number) => naira(value.toFixed(2));

export async function yearToDateConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { yearToDate } = ctx.services.yearToDate;
  const rowId = (raw: string) => parseRowId(raw) ?? 0;

  async function viewPage(session: SessionRow, userId: number, year: string, flash: Flash = {}, typedValues?: Values): Promise<Html> {
    const user = await users.show(session.companyId, userId);
    const name = `${String(user.first_name)} ${String(user.last_name)}`;
    const shown = await yearToDate.show(session.companyId, userId, year);
    const opening = shown.opening as Record<string, number> | null;
    const values: Values =
      typedValues ??
      ({
        ...Object.fromEntries(FIELDS.map(([field]) => [field, opening ? opening[field].toFixed(2) : ''])),
        months: opening ? String(opening.months) : '',
      } as Values);
    const body = html`<p><a href="/console/employees/${userId}/statutory">← ${name}</a></p>
<section class="card" aria-labelledby="ytd-heading">
  <h2 id="ytd-heading">Opening year-to-date of ${name}, ${shown.year}</h2>
  <form method="get" action="/console/employees/${userId}/year-to-date" class="inline">
    <label for="view-year">Tax year</label><input id="view-year" name="year" type="number" min="2021" max="2100" value="${String(shown.year)}">
    <button type="submit" class="secondary">Show</button>
  </form>
  <p class="muted">${opening ? `Recorded, ${plural(opening.months, 'month')} before this service.` : 'No opening figures recorded for this year.'}</p>
  <div class="table-wrap"><table>
    <thead><tr><th></th><th>Before this service</th><th>Paid by this service</th><th>Year to date</th></tr></thead>
    <tbody>${FIELDS.map(
      ([field, label]) =>
        html`<tr><th scope="row">${label}</th><td class="num">${amount(shown.before_service[field])}</td><td class="num">${amount(shown.paid_since[field])}</td><td class="num">${amount(shown.total[field])}</td></tr>`,
    )}</tbody>
  </table></div>
</section>
<section class="card" aria-labelledby="set-ytd-heading">
  <h2 id="set-ytd-heading">Set the opening figures for ${shown.year}</h2>
  <p class="muted">What the employee was paid and had withheld this tax year before this service paid them (another employer, or this company's earlier payroll). Every figure is required; saving replaces what was recorded.</p>
  <form method="post" action="/console/employees/${userId}/year-to-date">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="year" value="${String(shown.year)}">
    ${FIELDS.map(
      ([field, label]) => html`<label for="${field}">${label} (₦)</label>
    <input id="${field}" name="${field}" type="text" inputmode="decimal" required value="${values[field]}">`,
    )}
    <label for="months">Months before this service <span class="hint">0 to 12; shown, not used to compute</span></label>
    <input id="months" name="months" type="number" min="0" max="12" required value="${values.months}">
    <button type="submit">Continue</button>
  </form>
</section>`;
    return page({ title: 'Opening year-to-date', session, section: 'employees', body, flash });
  }

  app.get(
    '/employees/:id/year-to-date',
    { schema: { hide: true, params: Params, querystring: Query }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const year = request.query.year?.trim() || lagosDate().slice(0, 4);
      const flash = request.query.done === 'saved' ? { notice: OPENING_SAVED } : {};
      try {
        return sendHtml(reply, await viewPage(session, rowId(request.params.id), year, flash));
      } catch (error) {
        // A year out of range: the current year's page with the refusal.
        return sendHtml(
          reply,
          await viewPage(session, rowId(request.params.id), lagosDate().slice(0, 4), { error: messagesOf(error) }),
          422,
        );
      }
    },
  );

  app.post(
    '/employees/:id/year-to-date',
    { schema: { hide: true, params: Params, body: Form }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const userId = rowId(request.params.id);
      const year = request.body.year?.trim() ?? '';
      const body = request.body as Record<string, string | undefined>;
      const values = Object.fromEntries(
        [...FIELDS.map(([field]) => field), 'months'].map((field) => [field, body[field]?.trim() ?? '']),
      ) as Values;
      try {
        if (request.body.confirm !== 'yes') {
          const checked = await yearToDate.check(session.companyId, userId, year, values);
          const user = await users.show(session.companyId, userId);
          const confirm = html`<section class="card" aria-labelledby="confirm-heading">
  <h2 id="confirm-heading">Confirm the opening figures of ${String(user.first_name)} ${String(user.last_name)} for ${String(checked.year)}</h2>
  <dl class="facts">${FIELDS.map(([field, label]) => html`<dt>${label}</dt><dd>${naira(koboToString(checked.amounts[field]))}</dd>`)}<dt>Months</dt><dd>${String(checked.months)}</dd></dl>
  <form method="post" action="/console/employees/${userId}/year-to-date">
    ${csrfField(session.csrfToken)}
    <input type="hidden" name="year" value="${String(checked.year)}">
    ${Object.entries(values).map(([field, value]) => html`<input type="hidden" name="${field}" value="${value}">`)}
    <input type="hidden" name="confirm" value="yes">
    <button type="submit">Save the opening figures</button>
    <a class="button secondary" href="/console/employees/${userId}/year-to-date?year=${String(checked.year)}">Cancel</a>
  </form>
</section>`;
          return sendHtml(reply, page({ title: 'Confirm the opening figures', session, section: 'employees', body: confirm }));
        }
        await yearToDate.put(session.companyId, userId, year, values);
      } catch (error) {
        const message = messagesOf(error);
        const shownYear = /^\d{4}$/.test(year) && Number(year) >= 2021 && Number(year) <= 2100 ? year : lagosDate().slice(0, 4);
        return sendHtml(reply, await viewPage(session, userId, shownYear, { error: message }, values), 422);
      }
      return reply.redirect(`/console/employees/${userId}/year-to-date?year=${year}&done=saved`, 303);
    },
  );
}
