// Bulk upload of employees (docs/console.md, "People"): a CSV file sent to the users bulk service
// (U8 create or U9 update, the same rules, limits and per-process slots as the API), and its row
// report: how many rows succeeded, each refused row with its messages under the column's label.
// The report is the answer of the upload itself (it is not stored anywhere a redirect could fetch
// it from); a dry run writes nothing.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { CSV_UPLOAD, type CsvKind, IMPORT_HEADER, readMultipart, templateCsv, UPDATE_HEADER } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { EMPLOYEE_LABELS, labelMessage } from './employees.view.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page, plainPage } from './layout.view.js';
import { csrfFieldMatches, FORBIDDEN_FORM_MESSAGE, requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

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

interface Report {
  status: string;
  message: string;
  summary: string;
  successes: { row: number; id: number | null; email: string }[];
  failures: { row: number; errors: Record<string, string[]> }[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function reportSection(report: Report, dryRun: boolean): Html {
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

export async function employeesUploadRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { bulk } = ctx.services.users;
  const uploadPage = (session: SessionRow, kind: CsvKind, extra: Html = html``, flash: Flash = {}) =>
    page({
      title: 'Upload employees',
      session,
      section: 'employees',
      body: html`<p><a href="/console/employees">← Employees</a></p>${extra}${uploadForm(session, kind)}`,
      flash,
    });

  app.get('/employees/upload', { schema: { hide: true }, preHandler: requireSession(ctx) }, async (request, reply) =>
    sendHtml(reply, uploadPage(sessionOf(request), 'create')),
  );

  app.get(
    '/employees/upload/template.csv',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ kind: Type.Optional(Type.Union([Type.Literal('create'), Type.Literal('update')])) }),
      },
      preHandler: requireSession(ctx),
    },
    async (request, reply) => {
      const kind = request.query.kind ?? 'create';
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${kind === 'create' ? 'users_import_template.csv' : 'users_update_template.csv'}"`,
        )
        .send(templateCsv(kind === 'create' ? IMPORT_HEADER : UPDATE_HEADER));
    },
  );

  app.post(
    '/employees/upload',
    { schema: { hide: true }, preHandler: requireSession(ctx, { multipart: true }) },
    async (request, reply) => {
      const session = sessionOf(request);
      if (!request.isMultipart())
        return sendHtml(reply, uploadPage(session, 'create', html``, { error: 'Choose a CSV file to upload.' }), 422);
      let body: Awaited<ReturnType<typeof readMultipart>>;
      try {
        body = await readMultipart(request, ctx.deps.config.dataDir, CSV_UPLOAD);
      } catch (error) {
        if (!(error instanceof DomainError) || error.code !== 'validation') throw error;
        return sendHtml(
          reply,
          uploadPage(session, 'create', html``, {
            error: Object.values(error.fields ?? {})
              .flat()
              .join(' '),
          }),
          422,
        );
      }
      try {
        // The session's secret, checked before anything is read from the file or written.
        if (!csrfFieldMatches(session, body.fields._csrf))
          return sendHtml(reply, plainPage({ title: 'Form expired', body: html`<p>${FORBIDDEN_FORM_MESSAGE}</p>` }), 403);
        const kind: CsvKind = body.fields.kind === 'update' ? 'update' : 'create';
        const [file] = body.files;
        if (!file || file.size === 0)
          return sendHtml(reply, uploadPage(session, kind, html``, { error: 'Choose a CSV file to upload.' }), 422);
        if (file.truncated) return sendHtml(reply, uploadPage(session, kind, html``, { error: CSV_UPLOAD.tooLarge }), 422);
        const dryRun = body.fields.dry_run === 'true';
        let report: Report;
        try {
          report = (await bulk.run(session.companyId, kind, file.path, { dryRun, notify: body.fields.notify === 'true' })) as Report;
        } catch (error) {
          if (!(error instanceof DomainError) || error.code !== 'validation') throw error;
          const message =
            Object.values(error.fields ?? {})
              .flat()
              .map(labelMessage)
              .join(' ') || error.message;
          return sendHtml(reply, uploadPage(session, kind, html``, { error: `The file was not read: ${message}` }), 422);
        }
        const flash: Flash =
          report.status === 'failed'
            ? { error: report.message }
            : report.status === 'partial'
              ? { warning: report.message }
              : { notice: report.message };
        return sendHtml(reply, uploadPage(session, kind, reportSection(report, dryRun), flash), report.status === 'failed' ? 422 : 200);
      } finally {
        await body.discard();
      }
    },
  );
}
