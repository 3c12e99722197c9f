// Bulk upload of employees, the rendering: the upload form and the row report, each refused row's
// messages under the column's label.
import type { SessionRow } from '../modules/console-sessions/index.js';
import type { CsvKind } from '../modules/users/index.js';
import { EMPLOYEE_LABELS, labelMessage } from './employees.view.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';

/** CSV columns whose names differ from the form's fields. */
const COLUMN_LABELS: Record<string, string> = {
  ...EMPLOYEE_LABELS,
  domain: EMPLOYEE_LABELS.domain_name,
  manager: EMPLOYEE_LABELS.manager_email,
  email: 'Company e-mail',
  users_csv: 'CSV file',
  bank_name: 'Bank name',
};
const columnLabel = (column: string) => COLUMN_LABELS[column] ?? column.replace(/_/g, ' ');

export interface Report {
  status: string;
  message: string;
  summary: string;
  successes: { row: number; id: number | null; email: string }[];
  failures: { row: number; errors: Record<string, string[]> }[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function reportSection(report: Report, dryRun: boolean): Html {
  return html`<section class="card" aria-labelledby="report-heading"><h2 id="report-heading">Row report</h2>
<p><strong>${report.summary}</strong> ${report.message}</p>
${
  report.failures.length
    ? html`<div class="table-wrap"><table><caption>${plural(report.failures.length, 'row was refused', 'rows were refused')}</caption>
<thead><tr><th scope="col">Line of the file</th><th scope="col">What to fix</th></tr></thead>
<tbody>${report.failures.map(
        (f) =>
          html`<tr><td>${f.row}</td><td><ul>${Object.entries(f.errors).map(
            ([column, messages]) => html`<li>${columnLabel(column)}: ${messages.map(labelMessage).join(' ')}</li>`,
          )}</ul></td></tr>`,
      )}</tbody></table></div>`
    : ''
}
${
  report.successes.length
    ? html`<div class="table-wrap"><table><caption>${plural(report.successes.length, dryRun ? 'row is valid' : 'row succeeded', dryRun ? 'rows are valid' : 'rows succeeded')}</caption>
<thead><tr><th scope="col">Line of the file</th><th scope="col">Company e-mail</th></tr></thead>
<tbody>${report.successes.map(
        (s) =>
          html`<tr><td>${s.row}</td><td>${s.id && !dryRun ? html`<a href="/console/employees/${s.id}/edit">${s.email || 'Open'}</a>` : s.email || '—'}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}</section>`;
}

function uploadForm(session: SessionRow, kind: CsvKind): Html {
  const radio = (value: CsvKind, label: string) =>
    html`<label for="kind-${value}"><input type="radio" id="kind-${value}" name="kind" value="${value}"${kind === value ? html` checked` : ''}> ${label}</label>`;
  return html`<section class="card" aria-labelledby="upload-heading"><h2 id="upload-heading">Upload a CSV file</h2>
<p class="muted">UTF-8, at most 10,000 rows and 5 MB. Each row is saved or refused on its own. Templates:
<a href="/console/employees/upload/template.csv?kind=create">new employees</a> ·
<a href="/console/employees/upload/template.csv?kind=update">changes to employees</a> (found by their company e-mail).</p>
<form method="post" action="/console/employees/upload" enctype="multipart/form-data">
  ${csrfField(session.csrfToken)}
  <fieldset><legend>The file holds</legend><div class="checks">${radio('create', 'New employees (invited, inactive until they set a password)')}${radio('update', 'Changes to existing employees')}</div></fieldset>
  <label for="users_csv">CSV file</label>
  <input id="users_csv" name="users_csv" type="file" accept=".csv,text/csv" required>
  <fieldset><legend>Options</legend><div class="checks">
  <label for="dry_run"><input type="checkbox" id="dry_run" name="dry_run" value="true"> Check only (dry run: nothing is saved)</label>
  <label for="notify"><input type="checkbox" id="notify" name="notify" value="true"> E-mail each employee (invitation or details changed)</label>
  </div></fieldset>
  <button type="submit">Upload</button>
</form></section>`;
}

/** The upload page: `extra` (the row report) above the form. */
export function uploadPage(session: SessionRow, kind: CsvKind, extra: Html = html``, flash: Flash = {}): Html {
  return page({
    title: 'Upload employees',
    session,
    section: 'employees',
    body: html`<p><a href="/console/employees">← Employees</a></p>${extra}${uploadForm(session, kind)}`,
    flash,
  });
}
