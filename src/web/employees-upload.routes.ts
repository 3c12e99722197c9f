// Bulk upload of employees (docs/console.md, "People"): a CSV file sent to the users bulk service
// (U8 create or U9 update, the same rules, limits and per-process slots as the API), and its row
// report: how many rows succeeded, each refused row with its messages under the column's label.
// The report is the answer of the upload itself (it is not stored anywhere a redirect could fetch
// it from); a dry run writes nothing.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CSV_UPLOAD, type CsvKind, IMPORT_HEADER, readMultipart, templateCsv, UPDATE_HEADER } from '../modules/users/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { labelMessage } from './employees.view.js';
import { type Report, reportSection, uploadPage } from './employees-upload.view.js';
import { html } from './html.view.js';
import { type Flash, plainPage } from './layout.view.js';
import { csrfFieldMatches, FORBIDDEN_FORM_MESSAGE, requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const TemplateQuery = Type.Object({ kind: Type.Optional(Type.Union([Type.Literal('create'), Type.Literal('update')])) });

export async function employeesUploadRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await uploadFormRoutes(root, ctx);
  await uploadRoutes(root, ctx);
}

/** The page with its form, and the CSV templates it links to. */
async function uploadFormRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);

  app.get('/employees/upload', { schema: { hide: true }, preHandler: requireSession(ctx) }, async (request, reply) =>
    sendHtml(reply, uploadPage(sessionOf(request), 'create')),
  );

  app.get(
    '/employees/upload/template.csv',
    { schema: { hide: true, querystring: TemplateQuery }, preHandler: requireSession(ctx) },
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
}

/** The upload itself: the file through the users bulk service, answered with its row report. */
async function uploadRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { bulk } = ctx.services.users;

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
