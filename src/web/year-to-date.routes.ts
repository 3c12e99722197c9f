// An employee's opening year-to-date figures in the console (docs/console.md, "Employees"; rules in
// docs/payroll.md, "Opening year-to-date"): a year's figures from before this service beside what the
// service paid since, and the form that sets them (a confirm step, then post/redirect/get with a
// notice). Through the year-to-date service: the same rules and messages as PUT
// /api/users/{id}/year-to-date/{year}.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { lagosDate } from '../platform/format.js';
import { parseRowId } from '../platform/input-safety.js';
import type { Html } from './html.view.js';
import type { Flash } from './layout.view.js';
import { messagesOf } from './loans.routes.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';
import { Form, Params, Query } from './year-to-date.schemas.js';
import { confirmOpeningPage, FIELDS, openingPage, type Values } from './year-to-date.view.js';

export const OPENING_SAVED =
  'Opening figures saved. Cumulative tax counts them as earlier periods of the year; payslips and the annual return show them.';

const rowId = (raw: string) => parseRowId(raw) ?? 0;

/** The page of a user's year: the stored figures in the form's boxes, or `typedValues` after a refusal. */
async function viewPage(
  ctx: WebContext,
  session: SessionRow,
  userId: number,
  year: string,
  flash: Flash = {},
  typedValues?: Values,
): Promise<Html> {
  const { users } = ctx.services.users;
  const { yearToDate } = ctx.services.yearToDate;
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
  return openingPage(session, userId, name, shown, values, flash);
}

export async function yearToDateConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await openingViewRoutes(root, ctx);
  await openingSaveRoutes(root, ctx);
}

async function openingViewRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  app.get(
    '/employees/:id/year-to-date',
    { schema: { hide: true, params: Params, querystring: Query }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const year = request.query.year?.trim() || lagosDate().slice(0, 4);
      const flash = request.query.done === 'saved' ? { notice: OPENING_SAVED } : {};
      try {
        return sendHtml(reply, await viewPage(ctx, session, rowId(request.params.id), year, flash));
      } catch (error) {
        // A year out of range: the current year's page with the refusal.
        return sendHtml(
          reply,
          await viewPage(ctx, session, rowId(request.params.id), lagosDate().slice(0, 4), { error: messagesOf(error) }),
          422,
        );
      }
    },
  );
}

/** The form's POST: a confirm step, then the figures saved (post/redirect/get with a notice). */
async function openingSaveRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { yearToDate } = ctx.services.yearToDate;

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
          return sendHtml(
            reply,
            confirmOpeningPage(session, userId, `${String(user.first_name)} ${String(user.last_name)}`, checked, values),
          );
        }
        await yearToDate.put(session.companyId, userId, year, values);
      } catch (error) {
        const message = messagesOf(error);
        const shownYear = /^\d{4}$/.test(year) && Number(year) >= 2021 && Number(year) <= 2100 ? year : lagosDate().slice(0, 4);
        return sendHtml(reply, await viewPage(ctx, session, userId, shownYear, { error: message }, values), 422);
      }
      return reply.redirect(`/console/employees/${userId}/year-to-date?year=${year}&done=saved`, 303);
    },
  );
}
