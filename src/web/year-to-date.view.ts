// An employee's opening year-to-date, the rendering: a year's figures from before this service
// beside what the service paid since, the form that sets them, and its confirm step.
import type { SessionRow } from '../modules/console-sessions/index.js';
import type { YearToDateServices } from '../modules/year-to-date/index.js';
import { koboToString, naira } from '../tax-engine/money.js';
import { type Html, html, plural } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';

export const FIELDS = [
  ['gross_pay', 'Gross pay'],
  ['taxable_pay', 'Taxable pay'],
  ['tax_withheld', 'PAYE withheld'],
  ['employee_pension', 'Pension, employee'],
  ['nhf', 'NHF'],
  ['nhis', 'NHIS, employee'],
] as const;
export type Field = (typeof FIELDS)[number][0];
export type Values = Record<Field | 'months', string>;
type Shown = Awaited<ReturnType<YearToDateServices['yearToDate']['show']>>;
type Checked = Awaited<ReturnType<YearToDateServices['yearToDate']['check']>>;

const amount = (value: number) => naira(value.toFixed(2));

/** The year's figures and the form, with `values` in its boxes (the stored ones, or what was typed). */
export function openingPage(session: SessionRow, userId: number, name: string, shown: Shown, values: Values, flash: Flash): Html {
  const opening = shown.opening as Record<string, number> | null;
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

/** The confirm step: the figures as they will be saved, the button that saves them. */
export function confirmOpeningPage(session: SessionRow, userId: number, name: string, checked: Checked, values: Values): Html {
  const body = html`<section class="card" aria-labelledby="confirm-heading">
  <h2 id="confirm-heading">Confirm the opening figures of ${name} for ${String(checked.year)}</h2>
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
  return page({ title: 'Confirm the opening figures', session, section: 'employees', body });
}
