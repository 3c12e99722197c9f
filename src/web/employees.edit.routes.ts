// Edit employee (/console/employees/{id}/edit): the form of employees.view.ts filled with the stored
// employee, saved through the users service as U4 (only what changed is sent), with the Verify
// button and the bank-account verification after a save of employees.form.routes.ts.
// Post/redirect/get: a saved form is a 303 back to this page with a notice (and a warning when the
// account could not be verified). employeesRoutes registers these after Add employee.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../platform/deps.js';
import { parseRowId } from '../platform/input-safety.js';
import { STATUS_NOTICES } from './employee-status.routes.js';
import { domainOf, employeeFormPages, type Form, formValues, refusal, type Values, WARNINGS } from './employees.form.routes.js';
import { FormBody, Params } from './employees.schemas.js';
import type { Flash } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

export const EMPLOYEE_NOTICES: Record<string, string> = {
  created: 'Employee added.',
  saved: 'Changes saved.',
  ...STATUS_NOTICES,
};

export async function employeeEditRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users, actions } = ctx.services.users;
  const { formPage, verifyAnswer, verifyStored } = employeeFormPages(ctx);
  const employeeId = (raw: string) => parseRowId(raw) ?? 0;

  app.get(
    '/employees/:id/edit',
    {
      schema: {
        hide: true,
        params: Params,
        querystring: Type.Object({
          done: Type.Optional(Type.String({ maxLength: 20 })),
          warn: Type.Optional(Type.String({ maxLength: 20 })),
        }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      const user: Values = await users.show(session.companyId, id, true);
      const { done, warn } = request.query;
      const flash: Flash = {
        notice: done ? EMPLOYEE_NOTICES[done] : undefined,
        warning: warn === 'mismatch' || warn === 'unverified' ? WARNINGS[warn] : undefined,
      };
      return sendHtml(reply, await formPage(session, { id, user }, { ...user, domain_name: domainOf(user.email) }, { flash }));
    },
  );

  app.post('/employees/:id/edit', { schema: { hide: true, params: Params, body: FormBody }, preHandler: guard }, async (request, reply) => {
    const session = sessionOf(request);
    const id = employeeId(request.params.id);
    const user: Values = await users.show(session.companyId, id, true);
    const form = request.body as Form;
    if (form.intent === 'verify') {
      const answer = await verifyAnswer(session, { id, user }, form);
      return sendHtml(reply, answer.html, answer.status);
    }
    const body = formValues(form, { ...user, domain_name: domainOf(user.email) });
    try {
      await actions.update(session.companyId, id, body, [], true);
    } catch (error) {
      return sendHtml(reply, await formPage(session, { id, user }, form, { errors: refusal(error) }), 422);
    }
    const warning = body.account_number ? await verifyStored(session.companyId, id, request.log) : undefined;
    return reply.redirect(`/console/employees/${id}/edit?done=saved${warning ? `&warn=${warning}` : ''}`, 303);
  });
}
