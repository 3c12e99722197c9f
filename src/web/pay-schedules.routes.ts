// Payroll → Pay schedules (docs/console.md, "Pay schedules"; docs/payroll-runs.md, "Pay schedules"):
// list the company's schedules with their next 3 periods (payment and creation dates, from the
// pay-schedules planner through the service), create one, edit one, deactivate one after a
// confirmation, activate one again. Every form posts, then redirects (post/redirect/get); a refusal re-renders the
// form with the service's own messages. The same service as /api/pay-schedules, so the rules and
// the audit events are the API's.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import type { Flash } from './layout.view.js';
import { CsrfBody, DoneQuery, Form, IdParams } from './pay-schedules.schemas.js';
import { deactivatePage, editPage, type FormValues, listPage, type Schedule, valuesOf } from './pay-schedules.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const DONE: Record<string, string> = {
  created: 'Pay schedule created.',
  updated: 'Pay schedule saved.',
  deactivated: 'Pay schedule deactivated: it creates no more runs.',
  activated: 'Pay schedule activated: it creates its coming runs again.',
};

/** The form's strings as the API's input: a day of month as a number, an empty field as absent. */
function inputOf(body: FormValues) {
  const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
  const payDay = text(body.pay_day);
  const days = text(body.create_days_before);
  return {
    name: text(body.name),
    frequency: text(body.frequency),
    pay_day: payDay !== undefined && /^\d{1,2}$/.test(payDay) ? Number(payDay) : payDay,
    first_period_start: text(body.first_period_start),
    create_days_before: days !== undefined && /^\d{1,3}$/.test(days) ? Number(days) : (days as unknown as number | undefined),
  };
}

const messageOf = (error: DomainError) =>
  Object.entries(error.fields ?? {})
    .map(([field, messages]) => `${field.replace(/_/g, ' ')}: ${[messages].flat().join(' ')}`)
    .join(' ') || error.message;

/** A refusal of the service: the same page again with its message, in the service's status. */
function refused(error: unknown) {
  if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'unavailable') throw error;
  return { status: DOMAIN_STATUS[error.code], flash: { error: messageOf(error) } };
}

/** The list of the company's schedules with the New form (`values`: what was typed). */
async function loadListPage(ctx: WebContext, session: SessionRow, values: FormValues = {}, flash?: Flash) {
  const { data } = await ctx.services.paySchedules.paySchedules.list(session.companyId);
  return listPage(session, data, values, flash);
}

export async function paySchedulesConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await scheduleListRoutes(root, ctx);
  await scheduleEditRoutes(root, ctx);
  await scheduleDeactivateRoutes(root, ctx);
  await scheduleActivateRoutes(root, ctx);
}

/** The list and its New form. */
async function scheduleListRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paySchedules } = ctx.services.paySchedules;

  app.get('/pay-schedules', { schema: { hide: true, querystring: DoneQuery }, preHandler: guard }, async (request, reply) => {
    const notice = DONE[request.query.done ?? ''];
    return sendHtml(reply, await loadListPage(ctx, sessionOf(request), {}, notice ? { notice } : undefined));
  });

  app.post('/pay-schedules', { schema: { hide: true, body: Form }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    try {
      await paySchedules.create(session.companyId, inputOf(request.body));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await loadListPage(ctx, session, request.body, flash), status);
    }
    return reply.redirect('/console/pay-schedules?done=created', 303);
  });
}

async function scheduleEditRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paySchedules } = ctx.services.paySchedules;

  app.get('/pay-schedules/:id/edit', { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = Number(request.params.id);
    try {
      const { pay_schedule } = await paySchedules.show(session.companyId, id);
      return sendHtml(reply, editPage(session, id, valuesOf(pay_schedule as Schedule)));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await loadListPage(ctx, session, {}, flash), status);
    }
  });

  app.post('/pay-schedules/:id', { schema: { hide: true, params: IdParams, body: Form }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = Number(request.params.id);
    try {
      await paySchedules.update(session.companyId, id, inputOf(request.body));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, editPage(session, id, request.body, flash), status);
    }
    return reply.redirect('/console/pay-schedules?done=updated', 303);
  });
}

/** Deactivate, after a confirmation page. */
async function scheduleDeactivateRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paySchedules } = ctx.services.paySchedules;

  app.get('/pay-schedules/:id/deactivate', { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = Number(request.params.id);
    try {
      const { pay_schedule } = await paySchedules.show(session.companyId, id);
      return sendHtml(reply, deactivatePage(session, id, pay_schedule.name));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await loadListPage(ctx, session, {}, flash), status);
    }
  });

  app.post(
    '/pay-schedules/:id/deactivate',
    { schema: { hide: true, params: IdParams, body: CsrfBody }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await paySchedules.update(session.companyId, Number(request.params.id), { active: false });
      } catch (error) {
        const { status, flash } = refused(error);
        return sendHtml(reply, await loadListPage(ctx, session, {}, flash), status);
      }
      return reply.redirect('/console/pay-schedules?done=deactivated', 303);
    },
  );
}

/** Activate an inactive schedule again (PUT /api/pay-schedules/{id} with active: true). */
async function scheduleActivateRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paySchedules } = ctx.services.paySchedules;

  app.post(
    '/pay-schedules/:id/activate',
    { schema: { hide: true, params: IdParams, body: CsrfBody }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await paySchedules.update(session.companyId, Number(request.params.id), { active: true });
      } catch (error) {
        const { status, flash } = refused(error);
        return sendHtml(reply, await loadListPage(ctx, session, {}, flash), status);
      }
      return reply.redirect('/console/pay-schedules?done=activated', 303);
    },
  );
}
