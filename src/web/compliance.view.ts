// Compliance, the rendering: a month's remittance schedules (PAYE by state, pension by PFA, NHF,
// NSITF) with amounts, due dates (overdue ones in red) and download buttons, the employees whose
// statutory data stops a schedule, and the whole page with the filings, the record form and the
// calendar (filings.view.ts).
import type { SessionRow } from '../modules/console-sessions/index.js';
import type { DomainError } from '../platform/errors.js';
import { koboToString, naira, toKobo } from '../tax-engine/money.js';
import { calendarSection, type FilingForm, filingsSection, recordFilingForm } from './filings.view.js';
import { type Html, html } from './html.view.js';
import { type Flash, page } from './layout.view.js';
import type { WebContext } from './web.routes.js';

export const today = () => new Date().toISOString().slice(0, 10);

function due(date: string | null): Html {
  if (date === null) return html`<span class="muted">—</span>`;
  return date < today() ? html`<span class="badge bad" data-overdue>Overdue: ${date}</span>` : html`${date}`;
}

/** `label` names the schedule a row's buttons download ("PAYE schedule for LA, CSV"): every row has the same two buttons. */
function downloads(month: string, schedule: string, label: string, extra = '', formats = ['csv', 'xlsx']): Html {
  return html`${formats.map(
    (format) =>
      html`<a class="button secondary" href="/console/compliance/${schedule}.${format}?month=${month}${extra}" download aria-label="${label}, ${format.toUpperCase()}">${format.toUpperCase()}</a> `,
  )}`;
}

type Remittances = Awaited<ReturnType<WebContext['services']['remittances']['remittances']['month']>>;

/** Exact sum of two naira amounts (JSON numbers rounded to the kobo), in kobo arithmetic. */
const plus = (a: number, b: number) => koboToString((toKobo(a) ?? 0n) + (toKobo(b) ?? 0n));

/**
 * The footer of a schedule's table: what its rows file, the amount of employees whose identifiers
 * are missing (withheld but in no schedule until the data is there) as a line of its own, and the
 * total the company owes, so the page's totals match the payroll's deductions.
 */
function totalsFoot(columns: number, label: string, total: { amount: number; missing_amount: number }): Html {
  const line = (text: string, value: string | number, attr: string) =>
    html`<tr data-total="${attr}"><td colspan="${columns - 1}">${text}</td><td class="num">${naira(value)}</td></tr>`;
  return html`<tfoot>${line(`Filed in the ${label} schedules above`, total.amount, 'filed')}${
    total.missing_amount > 0
      ? line('Employees with missing data (in no schedule yet; see Missing data)', total.missing_amount, 'missing')
      : ''
  }${line(`Total ${label}`, plus(total.amount, total.missing_amount), 'total')}</tfoot>`;
}

/** Wide tables scroll inside their card, never the page. */
const wrap = (table: Html) => html`<div class="table-wrap">${table}</div>`;

function body(month: string, data: Remittances): Html {
  const { paye, pension, nhf, nsitf, totals } = data.schedules;
  return html`<form method="get" action="/console/compliance" class="inline-form">
<label for="month">Month paid <span class="hint">Runs whose payment date falls in this month</span></label>
<input id="month" name="month" type="month" value="${month}" required>
<button type="submit">Show</button>
</form>
<h2>PAYE (by state of residence)</h2>
${
  paye.length === 0 && totals.paye.missing_amount === 0
    ? html`<p class="muted">No PAYE this month.</p>`
    : wrap(
        html`<table><thead><tr><th>State</th><th>Authority</th><th>Employer tax ID</th><th class="num">Employees</th><th class="num">Amount</th><th>Due</th><th>Download</th></tr></thead><tbody>${paye.map(
          (entry) =>
            html`<tr data-schedule="paye-${entry.state}"><td>${entry.state}</td><td>${entry.authority ?? '—'}</td><td>${entry.employer_tax_id ?? html`<span class="badge warn">not set</span>`}</td><td class="num">${entry.employees}</td><td class="num">${naira(entry.amount)}</td><td>${due(entry.due_date)}</td><td>${downloads(month, 'paye', `PAYE schedule for ${entry.state}`, `&state=${entry.state}`)}</td></tr>`,
        )}</tbody>${totalsFoot(5, 'PAYE', totals.paye)}</table>`,
      )
}
<h2>Pension (by PFA)</h2>
${
  pension.length === 0 && totals.pension.missing_amount === 0
    ? html`<p class="muted">No pension contributions this month.</p>`
    : wrap(
        html`<table><thead><tr><th>PFA</th><th class="num">Employees</th><th class="num">Employee</th><th class="num">Employer</th><th class="num">Total</th><th>Due</th><th>Download</th></tr></thead><tbody>${pension.map(
          (entry) =>
            html`<tr data-schedule="pension-${entry.pfa_code}"><td>${entry.pfa_name ?? entry.pfa_code}</td><td class="num">${entry.employees}</td><td class="num">${naira(entry.employee_amount)}</td><td class="num">${naira(entry.employer_amount)}</td><td class="num">${naira(entry.total)}</td><td>${due(entry.due_date)}</td><td>${downloads(month, 'pension', `Pension schedule for ${entry.pfa_name ?? entry.pfa_code}`, `&pfa_code=${entry.pfa_code}`)}</td></tr>`,
        )}</tbody>${totalsFoot(5, 'pension', totals.pension)}</table>`,
      )
}
<h2>NHF and NSITF</h2>
${wrap(html`<table><thead><tr><th>Schedule</th><th class="num">Employees / base</th><th class="num">Amount</th><th>Due</th><th>Download</th></tr></thead><tbody>
<tr data-schedule="nhf"><td>National Housing Fund</td><td class="num">${nhf.employees}</td><td class="num">${naira(nhf.amount)}</td><td>${due(nhf.due_date)}</td><td>${downloads(month, 'nhf', 'NHF schedule')}</td></tr>
${
  totals.nhf.missing_amount > 0
    ? html`<tr data-total="nhf-missing"><td>NHF of employees with missing data (in no schedule yet)</td><td class="num"></td><td class="num">${naira(totals.nhf.missing_amount)}</td><td></td><td></td></tr>
<tr data-total="nhf-total"><td>Total NHF</td><td class="num"></td><td class="num">${naira(plus(totals.nhf.amount, totals.nhf.missing_amount))}</td><td></td><td></td></tr>`
    : ''
}
<tr data-schedule="nsitf"><td>NSITF (1%, employer)</td><td class="num">${nsitf.base === 'gross' ? 'gross pay' : 'basic + housing + transport'}</td><td class="num">${naira(nsitf.amount)}</td><td>${due(nsitf.due_date)}</td><td>${downloads(month, 'nsitf', 'NSITF schedule')}</td></tr>
</tbody></table>`)}
<h2>Missing data</h2>
${
  data.missing.length === 0
    ? html`<p class="muted">Every paid employee has what the schedules need.</p>`
    : html`<p>These employees' paystubs lack what a schedule needs. Their amounts are in the totals above on a line of their own, in no schedule until the details are fixed (later runs take the new details).</p>
${wrap(
  html`<table><thead><tr><th>Employee</th><th>Missing</th><th>Schedules</th><th class="num">PAYE</th><th class="num">Pension</th><th class="num">NHF</th></tr></thead><tbody>${data.missing.map(
    (entry) =>
      html`<tr data-missing="${entry.user_id}"><td><a href="/console/employees/${entry.user_id}/statutory" aria-label="Statutory details of ${entry.name}">${entry.name}</a> <span class="muted">${entry.employee_id}</span></td><td class="wrap">${entry.fields.join(', ')}</td><td>${entry.schedules.join(', ').toUpperCase()}</td><td class="num">${naira(entry.amounts.paye)}</td><td class="num">${naira(entry.amounts.pension)}</td><td class="num">${naira(entry.amounts.nhf)}</td></tr>`,
  )}</tbody></table>`,
)}`
}`;
}

/** The month's schedules and filings, the record form (with `values`) and the due dates from `from` to `to`. */
export function compliancePage(
  session: SessionRow,
  month: string,
  data: Remittances,
  values: FilingForm,
  dates: { from: string; to: string; calendar: Parameters<typeof calendarSection>[2] },
  flash?: Flash,
): Html {
  const { from, to, calendar } = dates;
  return page({
    title: 'Compliance',
    session,
    section: 'compliance',
    body: html`${body(month, data)}${filingsSection(month, data)}${recordFilingForm(session, values)}${calendarSection(from, to, calendar)}`,
    flash,
  });
}

/** A refused month or download: the service's messages and the way back. */
export function complianceErrorPage(session: SessionRow, error: DomainError): Html {
  return page({
    title: 'Compliance',
    session,
    section: 'compliance',
    body: html`<p><a href="/console/compliance">Back to Compliance</a></p>`,
    flash: {
      error:
        Object.values(error.fields ?? {})
          .flat()
          .join(' ') || error.message,
    },
  });
}
