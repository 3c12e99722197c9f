// Add employee (/console/employees/new) and Edit employee (/console/employees/{id}/edit): the form
// of employees.view.ts, sent to the same users service as U3/U4, so the console accepts and refuses
// exactly what the API does. The Verify button asks the banks service whose account the typed
// number is (nothing saved); saving with a bank account then verifies it through the users'
// bank-account verification (docs/banks.md), which records the account name. Post/redirect/get:
// a saved form is a 303 to the employee's Edit page with a notice. This file holds Add employee;
// Edit employee is employees.edit.routes.ts, the forms' shared handling employees.form.routes.ts.
import type { FastifyInstance } from 'fastify';
import { typed } from '../platform/deps.js';
import { lagosDate } from '../platform/format.js';
import { EMPLOYEE_NOTICES, employeeEditRoutes } from './employees.edit.routes.js';
import { employeeFormPages, type Form, formValues, refusal, type Values } from './employees.form.routes.js';
import { FormBody } from './employees.schemas.js';
import { EMPLOYEE_LABELS } from './employees.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export { EMPLOYEE_NOTICES };

export async function employeesRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { actions } = ctx.services.users;
  const { vocabulary } = ctx.services.companies;
  const { formPage, verifyAnswer, verifyStored } = employeeFormPages(ctx);

  app.get('/employees/new', { schema: { hide: true }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const profile = await vocabulary.profile(session.companyId);
    const values = { domain_name: profile.domains[0], user_types: profile.userTypes[0], start_date: lagosDate() };
    return sendHtml(reply, await formPage(session, {}, values));
  });

  app.post('/employees/new', { schema: { hide: true, body: FormBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const form = request.body as Form;
    if (form.intent === 'verify') {
      const answer = await verifyAnswer(session, {}, form);
      return sendHtml(reply, answer.html, answer.status);
    }
    const body: Values = { ...formValues(form), is_active: form.start_as !== 'invited', notify: form.notify === 'true' };
    let id: number;
    try {
      id = (await actions.create(session.companyId, body, true)).user.id;
    } catch (error) {
      return sendHtml(reply, await formPage(session, {}, { ...form, notify: form.notify === 'true' }, { errors: refusal(error) }), 422);
    }
    const warning = body.account_number ? await verifyStored(session.companyId, id, request.log) : undefined;
    return reply.redirect(`/console/employees/${id}/edit?done=created${warning ? `&warn=${warning}` : ''}`, 303);
  });

  await employeeEditRoutes(root, ctx);
}

export { EMPLOYEE_LABELS };
