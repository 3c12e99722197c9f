// Compliance → filings (docs/console.md, "Compliance"; docs/compliance.md, "Filings and deadlines"):
// each schedule of the month with its filing status and days late, the "Record filing" form (the
// service of POST /api/remittances/filings) and the due dates of the next 3 months (the service
// of GET /api/remittances/calendar).
import type { SessionRow } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { type Html, html } from './html.view.js';
import { csrfField } from './layout.view.js';
import type { WebContext } from './web.routes.js';

type Remittances = Awaited<ReturnType<WebContext['services']['remittances']['remittances']['month']>>;
type Calendar = Awaited<ReturnType<WebContext['services']['remittances']['filings']['calendar']>>;

interface Filed {
  status: 'due' | 'overdue' | 'filed' | 'filed_late' | null;
  days_late: number;
  filing: { paid_on: string; receipt_reference: string; amount: number; difference: number } | null;
}

const LABEL = { due: 'Due', overdue: 'Overdue', filed: 'Filed', filed_late: 'Filed late' } as const;
const TONE = { due: 'warn', overdue: 'bad', filed: 'ok', filed_late: 'warn' } as const;

export function statusBadge(entry: Pick<Filed, 'status' | 'days_late'>): Html {
  if (entry.status === null) return html`<span class="muted">nothing to file</span>`;
  const late = entry.days_late > 0 ? `, ${entry.days_late} day${entry.days_late === 1 ? '' : 's'} late` : '';
  return html`<span class="badge ${TONE[entry.status]}" data-status="${entry.status}">${LABEL[entry.status]}${late}</span>`;
}

function filingCell(entry: Filed): Html {
  if (!entry.filing) return html`<span class="muted">—</span>`;
  const { paid_on, receipt_reference, amount, difference } = entry.filing;
  return html`${naira(amount)} on ${paid_on}, receipt ${receipt_reference}${
    difference !== 0 ? html` <span class="badge warn">difference ${naira(difference)}</span>` : ''
  }`;
}

/** Every schedule of the month, one row each, with its status and the filing recorded. */
export function filingsSection(month: string, data: Remittances): Html {
  const { paye, pension, nhf, nsitf } = data.schedules;
  const rows: { key: string; label: string; due: string | null; amount: number; entry: Filed }[] = [
    ...paye.map((e) => ({ key: `paye-${e.state}`, label: `PAYE ${e.state}`, due: e.due_date, amount: e.amount, entry: e as Filed })),
    ...pension.map((e) => ({
      key: `pension-${e.pfa_code}`,
      label: `Pension ${e.pfa_name ?? e.pfa_code}`,
      due: e.due_date,
      amount: e.total,
      entry: e as Filed,
    })),
    { key: 'nhf', label: 'NHF', due: nhf.due_date, amount: nhf.amount, entry: nhf as Filed },
    { key: 'nsitf', label: 'NSITF', due: nsitf.due_date, amount: nsitf.amount, entry: nsitf as Filed },
  ];
  return html`<h2 id="filings">Filings for ${month}</h2>
<div class="table-wrap"><table><thead><tr><th>Schedule</th><th>Due</th><th class="num">Amount</th><th>Status</th><th>Filing</th></tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr data-filing="${r.key}"><td>${r.label}</td><td>${r.due ?? '—'}</td><td class="num">${naira(r.amount)}</td><td>${statusBadge(r.entry)}</td><td>${filingCell(r.entry)}</td></tr>`,
  )}</tbody></table></div>`;
}

export type FilingForm = Partial<Record<'kind' | 'month' | 'authority' | 'amount' | 'paid_on' | 'receipt_reference', string>>;

/** `values`: the form as last typed (its month defaults to the page's month). */
export function recordFilingForm(session: SessionRow, values: FilingForm = {}): Html {
  const text = (name: keyof FilingForm, label: string, hint: string, type = 'text') =>
    html`<label for="filing-${name}">${label} <span class="hint">${hint}</span></label><input id="filing-${name}" name="${name}" type="${type}" value="${values[name] ?? ''}">`;
  return html`<section class="card" aria-labelledby="record-filing"><h2 id="record-filing">Record filing</h2>
<p class="muted">Record that a schedule was paid to its authority; a different amount is shown beside the schedule, not refused.</p>
<form method="post" action="/console/compliance/filings">
${csrfField(session.csrfToken)}
<label for="filing-kind">Schedule</label>
<select id="filing-kind" name="kind">${(['paye', 'pension', 'nhf', 'nsitf'] as const).map(
    (k) => html`<option value="${k}"${values.kind === k ? html` selected` : ''}>${k.toUpperCase()}</option>`,
  )}</select>
${text('month', 'Month', 'The month the schedule is for', 'month')}
${text('authority', 'Authority', 'State code for PAYE (LA), PFA code for pension; empty for NHF and NSITF')}
${text('amount', 'Amount paid', 'Naira, e.g. 125000.50')}
${text('paid_on', 'Paid on', 'The date on the receipt', 'date')}
${text('receipt_reference', 'Receipt reference', 'As printed on the receipt')}
<button type="submit">Record filing</button>
</form></section>`;
}

/** Every due date of the next 3 months, with its status and amount. */
/** The calendar's names of its kinds; the yearly ones are not filings, so they carry no status. */
const KIND_LABEL: Record<string, string> = { annual_return: 'Annual PAYE return', itf: 'ITF levy' };
const YEARLY = new Set(Object.keys(KIND_LABEL));

export function calendarSection(from: string, to: string, calendar: Calendar): Html {
  const entries = calendar.data;
  return html`<h2 id="calendar">Due dates, ${from} to ${to}</h2>${
    entries.length === 0
      ? html`<p class="muted">Nothing falls due in these 3 months.</p>`
      : html`<div class="table-wrap"><table data-calendar><thead><tr><th>Due</th><th>Schedule</th><th>For month</th><th class="num">Amount</th><th>Status</th></tr></thead><tbody>${entries.map(
          (e) =>
            html`<tr><td>${e.due_date}</td><td>${KIND_LABEL[e.kind] ?? e.kind.toUpperCase()}${e.authority ? ` ${e.authority_name ?? e.authority}` : ''}</td><td>${e.month}</td><td class="num">${naira(e.amount)}</td><td>${
              YEARLY.has(e.kind) ? html`<span class="muted">yearly return: file with the authority</span>` : statusBadge(e)
            }</td></tr>`,
        )}</tbody></table></div>`
  }`;
}
