// Payroll → Pay schedules (docs/console.md, "Pay schedules"; docs/payroll-runs.md, "Pay schedules"):
// list the company's schedules with their next 3 periods (payment and creation dates, from the
// pay-schedules planner through the service), create one, edit one, deactivate one after a
// confirmation. Every form posts, then redirects (post/redirect/get); a refusal re-renders the
// form with the service's own messages. The same service as /api/pay-schedules, so the rules and
// the audit events are the API's.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { type Html, html } from './html.view.js';
import { csrfField, type Flash, page } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const Form = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 200 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  frequency: Type.Optional(Type.String({ maxLength: 20 })),
  pay_day: Type.Optional(Type.String({ maxLength: 40 })),
  first_period_start: Type.Optional(Type.String({ maxLength: 20 })),
  create_days_before: Type.Optional(Type.String({ maxLength: 5 })),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 12, pattern: '^[0-9]{1,12}$' }) });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });

const DONE: Record<string, string> = {
  created: 'Pay schedule created.',
  updated: 'Pay schedule saved.',
  deactivated: 'Pay schedule deactivated: it creates no more runs.',
};

type Schedule = Awaited<ReturnType<WebContext['services']['paySchedules']['paySchedules']['list']>>['data'][number];
type FormValues = Partial<Record<'name' | 'frequency' | 'pay_day' | 'first_period_start' | 'create_days_before', string>>;

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

const valuesOf = (s: Schedule): FormValues => ({
  name: s.name,
  frequency: s.frequency,
  pay_day: String(s.pay_day),
  first_period_start: s.first_period_start,
  create_days_before: String(s.create_days_before),
});

function scheduleForm(session: SessionRow, action: string, values: FormValues, submit: string): Html {
  const field = (name: keyof FormValues, label: string, hint: string, type = 'text') =>
    html`<label for="${name}">${label} <span class="hint">${hint}</span></label><input id="${name}" name="${name}" type="${type}" value="${values[name] ?? ''}">`;
  return html`<form method="post" action="${action}">
${csrfField(session.csrfToken)}
${field('name', 'Name', 'For example "Monthly salaries"')}
<label for="frequency">Frequency</label>
<select id="frequency" name="frequency">${['monthly', 'weekly', 'bi-weekly'].map(
    (f) => html`<option value="${f}"${values.frequency === f ? html` selected` : ''}>${f}</option>`,
  )}</select>
${field('pay_day', 'Pay day', '"last_working_day", a day of the month 1-31, or a weekday (monday...) for weekly')}
${field('first_period_start', 'First period starts', 'The first day of the first period', 'date')}
${field('create_days_before', 'Create the draft run', 'Days before the payment date (default 5)', 'number')}
<button type="submit">${submit}</button>
</form>`;
}

function periodsTable(s: Schedule): Html {
  if (!s.active) return html`<p class="muted">Inactive: no runs are created.</p>`;
  if (s.upcoming.length === 0) return html`<p class="muted">No coming period.</p>`;
  return html`<table data-upcoming="${s.id}"><thead><tr><th>Period</th><th>Payment date</th><th>Draft created on</th></tr></thead><tbody>${s.upcoming.map(
    (p) => html`<tr><td>${p.pay_period_start} to ${p.pay_period_end}</td><td>${p.payment_date}</td><td>${p.creation_date}</td></tr>`,
  )}</tbody></table>`;
}

function listBody(session: SessionRow, schedules: Schedule[], values: FormValues): Html {
  return html`<p class="muted">Each active schedule creates its period's draft run before the payment date; a payment date on a weekend or public holiday moves to the working day before.</p>
${
  schedules.length === 0
    ? html`<p class="muted">No pay schedules yet.</p>`
    : schedules.map(
        (s) => html`<section class="card" data-schedule="${s.id}" aria-labelledby="schedule-${s.id}">
<h2 id="schedule-${s.id}">${s.name} ${s.active ? html`<span class="badge ok">active</span>` : html`<span class="badge">inactive</span>`}</h2>
<p>${s.frequency}, pay day ${String(s.pay_day)}, draft ${s.create_days_before} days before payment.</p>
${periodsTable(s)}
<p><a class="button secondary" href="/console/pay-schedules/${s.id}/edit">Edit</a>${
          s.active ? html` <a class="button secondary" href="/console/pay-schedules/${s.id}/deactivate">Deactivate</a>` : ''
        }</p>
</section>`,
      )
}
<section class="card" aria-labelledby="new-schedule"><h2 id="new-schedule">New pay schedule</h2>
${scheduleForm(session, '/console/pay-schedules', values, 'Create pay schedule')}</section>`;
}

const messageOf = (error: DomainError) =>
  Object.entries(error.fields ?? {})
    .map(([field, messages]) => `${field.replace(/_/g, ' ')}: ${[messages].flat().join(' ')}`)
    .join(' ') || error.message;

export async function paySchedulesConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { paySchedules } = ctx.services.paySchedules;

  const listPage = async (session: SessionRow, values: FormValues = {}, flash?: Flash) => {
    const { data } = await paySchedules.list(session.companyId);
    return page({ title: 'Pay schedules', session, section: 'payroll', body: listBody(session, data, values), flash });
  };
  const editPage = (session: SessionRow, id: number, values: FormValues, flash?: Flash) =>
    page({
      title: 'Edit pay schedule',
      session,
      section: 'payroll',
      body: html`<p><a href="/console/pay-schedules">Back to pay schedules</a></p>${scheduleForm(session, `/console/pay-schedules/${id}`, values, 'Save pay schedule')}`,
      flash,
    });
  /** A refusal of the service: the same page again with its message, in the service's status. */
  const refused = (error: unknown) => {
    if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'unavailable') throw error;
    return { status: DOMAIN_STATUS[error.code], flash: { error: messageOf(error) } };
  };

  app.get('/pay-schedules', { schema: { hide: true, querystring: DoneQuery }, preHandler: guard }, async (request, reply) => {
    const notice = DONE[request.query.done ?? ''];
    return sendHtml(reply, await listPage(sessionOf(request), {}, notice ? { notice } : undefined));
  });

  app.post('/pay-schedules', { schema: { hide: true, body: Form }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    try {
      await paySchedules.create(session.companyId, inputOf(request.body));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await listPage(session, request.body, flash), status);
    }
    return reply.redirect('/console/pay-schedules?done=created', 303);
  });

  app.get('/pay-schedules/:id/edit', { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = Number(request.params.id);
    try {
      const { pay_schedule } = await paySchedules.show(session.companyId, id);
      return sendHtml(reply, editPage(session, id, valuesOf(pay_schedule as Schedule)));
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await listPage(session, {}, flash), status);
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

  app.get('/pay-schedules/:id/deactivate', { schema: { hide: true, params: IdParams }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = Number(request.params.id);
    try {
      const { pay_schedule } = await paySchedules.show(session.companyId, id);
      return sendHtml(
        reply,
        page({
          title: 'Deactivate pay schedule',
          session,
          section: 'payroll',
          body: html`<p>Deactivate <strong>${pay_schedule.name}</strong>? It creates no more draft runs; runs it already created stay. It can be re-activated through the API (PUT /api/pay-schedules/{id} with active: true).</p>
<form method="post" action="/console/pay-schedules/${id}/deactivate">${csrfField(session.csrfToken)}
<button type="submit" class="danger">Deactivate</button> <a href="/console/pay-schedules">Cancel</a></form>`,
        }),
      );
    } catch (error) {
      const { status, flash } = refused(error);
      return sendHtml(reply, await listPage(session, {}, flash), status);
    }
  });

  app.post(
    '/pay-schedules/:id/deactivate',
    {
      schema: { hide: true, params: IdParams, body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }) },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await paySchedules.update(session.companyId, Number(request.params.id), { active: false });
      } catch (error) {
        const { status, flash } = refused(error);
        return sendHtml(reply, await listPage(session, {}, flash), status);
      }
      return reply.redirect('/console/pay-schedules?done=deactivated', 303);
    },
  );
}
