// Compliance: a month's remittance schedules (PAYE by state, pension by PFA, NHF, NSITF) with
// amounts and due dates (overdue ones in red), their CSV/XLSX downloads served through the session
// (the same service as GET /api/remittances/{file}), and the employees whose statutory data stops a
// schedule, each linking to their statutory details.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { sendAttachment } from '../platform/attachment.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { FileParams, FileQuery, FilingBody, MonthQuery } from './compliance.schemas.js';
import { complianceErrorPage, compliancePage, today } from './compliance.view.js';
import type { FilingForm } from './filings.view.js';
import type { Flash } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

/** The calendar shows the due dates from today to 3 months ahead. */
const CALENDAR_MONTHS = 3;

/** Last month: the one whose schedules are being filed this month. */
function lastMonth(now: Date): string {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return day.toISOString().slice(0, 7);
}

/** The month's schedules and filings, the record form and the next 3 months' due dates. */
async function fullPage(ctx: WebContext, session: SessionRow, month: string, form: FilingForm = {}, flash?: Flash) {
  const { remittances, filings } = ctx.services.remittances;
  const data = await remittances.month(session.companyId, { month });
  const from = today();
  const end = new Date(`${from}T00:00:00Z`);
  end.setUTCMonth(end.getUTCMonth() + CALENDAR_MONTHS);
  const to = end.toISOString().slice(0, 10);
  const calendar = await filings.calendar(session.companyId, { from, to });
  const values = { month, ...form };
  return compliancePage(session, month, data, values, { from, to, calendar }, flash);
}

export async function complianceRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await monthRoutes(root, ctx);
  await recordFilingRoutes(root, ctx);
  await downloadRoutes(root, ctx);
}

async function monthRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  app.get('/compliance', { schema: { hide: true, querystring: MonthQuery }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const month = request.query.month || lastMonth(new Date());
    try {
      const flash = request.query.done === 'filed' ? { notice: 'Filing recorded.' } : undefined;
      return sendHtml(reply, await fullPage(ctx, session, month, {}, flash));
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'internal')
        return sendHtml(reply, complianceErrorPage(session, error), DOMAIN_STATUS[error.code]);
      throw error;
    }
  });
}

// Record filing: the service of POST /api/remittances/filings; a refusal shows the page again with
// the form as typed and the service's messages (post/redirect/get on success).
async function recordFilingRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { filings } = ctx.services.remittances;
  app.post('/compliance/filings', { schema: { hide: true, body: FilingBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const { _csrf: _token, ...form } = request.body;
    try {
      await filings.file(session.companyId, { ...form, authority: form.authority?.trim() || null });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'internal') throw error;
      const message =
        Object.entries(error.fields ?? {})
          .map(([field, messages]) => [messages].flat().join(' ') || field)
          .join(' ') || error.message;
      const month = form.month && /^\d{4}-\d{2}$/.test(form.month) ? form.month : lastMonth(new Date());
      return sendHtml(reply, await fullPage(ctx, session, month, form, { error: message }), DOMAIN_STATUS[error.code]);
    }
    return reply.redirect(`/console/compliance?month=${encodeURIComponent(form.month ?? '')}&done=filed#filings`, 303);
  });
}

/** A schedule's CSV/XLSX through the session: the same service as GET /api/remittances/{file}. */
async function downloadRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { remittances } = ctx.services.remittances;
  app.get(
    '/compliance/:file',
    { schema: { hide: true, params: FileParams, querystring: FileQuery }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        const file = await remittances.download(session.companyId, request.params.file, request.query);
        return sendAttachment(reply, file);
      } catch (error) {
        if (error instanceof DomainError && error.code !== 'internal')
          return sendHtml(reply, complianceErrorPage(session, error), DOMAIN_STATUS[error.code]);
        throw error;
      }
    },
  );
}
