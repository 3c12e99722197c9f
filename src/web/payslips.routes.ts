// Payslips in the browser (docs/compliance.md, "Payslips"):
//   - PUBLIC_URL/payslips/<token>: the signed link of a paid employee's e-mail. No session, no API
//     token: the HMAC of the link is the authority, for that one paystub and 30 days. Answers the PDF
//     inline; an unknown or altered link 404, an expired one 410, as small pages (never a 500, never
//     another payslip). Limited per client IP like unauthenticated API calls.
//   - /console/payroll/<run>/payslips.zip and /console/paystubs/<id>/payslip: the same ZIP and PDF
//     as the API, through the console session (its company only; anything else is the 404 page).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { PAYSLIP_LINK_DAYS } from '../modules/paystubs/index.js';
import { typed } from '../platform/deps.js';
import { notFound } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import { html } from './html.view.js';
import { plainPage } from './layout.view.js';
import { RUN_NOT_FOUND_PAGE, RunParams } from './payroll.routes.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const LINK_BUCKET = 'payslip-link';
const PAYSTUB_NOT_FOUND_PAGE = 'There is no paystub with that id in your company.';

function deadLink(reply: FastifyReply, expired: boolean) {
  const body = expired
    ? html`<p>This payslip link has expired: links work for ${PAYSLIP_LINK_DAYS} days after the salary is paid.</p><p>Ask your employer's payroll team for a copy of your payslip.</p>`
    : html`<p>This payslip link is not valid. Check that the whole link from the e-mail was opened.</p><p>If it still does not work, ask your employer's payroll team for a copy of your payslip.</p>`;
  return sendHtml(reply, plainPage({ title: expired ? 'Link expired' : 'Link not valid', body }), expired ? 410 : 404);
}

const pdf = (reply: FastifyReply, filename: string, body: Buffer, disposition: 'inline' | 'attachment') =>
  reply
    .type('application/pdf')
    .header('Content-Disposition', `${disposition}; filename="${filename}"`)
    .header('Cache-Control', 'private, no-store')
    .header('X-Robots-Tag', 'noindex')
    .header('Referrer-Policy', 'no-referrer')
    .send(body);

/** The public signed-link page: outside /console (no session). */
export async function payslipLinkRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const { payslips } = ctx.services.payslips;
  const limit = ctx.deps.config.rateLimit.unauthenticated;

  app.get(
    '/payslips/:token',
    { schema: { hide: true, params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 128 }) }) } },
    async (request, reply) => {
      // Every request counts, valid or not: a link cannot be used to render PDFs without bound either.
      const bucket = await ctx.deps.limiter.take(LINK_BUCKET, request.ip, limit);
      if (!bucket.allowed) {
        reply.header('Retry-After', String(bucket.retryAfterSeconds));
        return sendHtml(
          reply,
          plainPage({ title: 'Too many requests', body: html`<p>Too many requests. Wait a minute and try again.</p>` }),
          429,
        );
      }
      const found = await payslips.byToken(request.params.token);
      if (found.state !== 'ok') return deadLink(reply, found.state === 'expired');
      return pdf(reply, found.filename, found.pdf, 'inline');
    },
  );
}

/** Under /console, behind the session. */
export async function consolePayslipRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { payslips } = ctx.services.payslips;

  app.get(
    '/payroll/:transactionId/payslips.zip',
    { schema: { hide: true, params: RunParams }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const { filename, stream } = await payslips.runZip(session.companyId, request.params.transactionId, RUN_NOT_FOUND_PAGE);
      return reply.type('application/zip').header('Content-Disposition', `attachment; filename="${filename}"`).send(stream);
    },
  );

  app.get(
    '/paystubs/:id/payslip',
    { schema: { hide: true, params: Type.Object({ id: Type.String({ maxLength: 32 }) }) }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = parseRowId(request.params.id);
      if (id === undefined) throw notFound(PAYSTUB_NOT_FOUND_PAGE);
      try {
        const { filename, pdf: body } = await payslips.payslip(session.companyId, id);
        return pdf(reply, filename, body, 'attachment');
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'not_found') throw notFound(PAYSTUB_NOT_FOUND_PAGE);
        throw error;
      }
    },
  );
}
