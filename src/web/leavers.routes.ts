// Leavers in the console (docs/console.md, "Employees"): the Employment section of an employee's page,
// and Terminate (a form, then a confirm step showing what will be recorded, then the exit, then
// back to the employee's page with a notice: post/redirect/get) and Reinstate. Both go through the
// leavers service, so the console accepts and refuses exactly what POST /api/users/{id}/terminate and
// /reinstate do, with the same messages.
import type { FastifyInstance } from 'fastify';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import type { Flash } from './layout.view.js';
import { CsrfBody, Params, TerminateForm } from './leavers.schemas.js';
import { confirmExitPage, reinstateRefusedPage, terminateFormPage, type User } from './leavers.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const messagesOf = (error: unknown): string => {
  if (!(error instanceof DomainError) || error.code === 'internal') throw error;
  return (
    Object.values(error.fields ?? {})
      .flat()
      .join(' ') || error.message
  );
};

const employeeId = (raw: string) => parseRowId(raw) ?? 0;

/** Terminate, step one, over the employee's record. */
async function formPage(
  ctx: WebContext,
  session: SessionRow,
  id: number,
  flash: Flash = {},
  typed: { exit_date?: string; reason?: string } = {},
) {
  const user: User = await ctx.services.users.users.show(session.companyId, id);
  return terminateFormPage(session, id, user, flash, typed);
}

/** Terminate, step two, over the employee's record. */
async function confirmPage(
  ctx: WebContext,
  session: SessionRow,
  id: number,
  exit: { exitDate: string; reason: string; exitedNow: boolean },
) {
  const user: User = await ctx.services.users.users.show(session.companyId, id);
  return confirmExitPage(session, id, user, exit);
}

export async function leaversConsoleRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  await terminateRoutes(root, ctx);
  await reinstateRoutes(root, ctx);
}

/** Terminate: the form, then a confirm step, then the exit (post/redirect/get with a notice). */
async function terminateRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { leavers } = ctx.services.leavers;

  app.get('/employees/:id/terminate', { schema: { hide: true, params: Params }, preHandler: guard }, async (request, reply) =>
    sendHtml(reply, await formPage(ctx, sessionOf(request), employeeId(request.params.id))),
  );

  app.post(
    '/employees/:id/terminate',
    { schema: { hide: true, params: Params, body: TerminateForm }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      const typed = { exit_date: request.body.exit_date?.trim() ?? '', reason: request.body.reason ?? '' };
      try {
        if (request.body.confirm !== 'yes')
          return sendHtml(reply, await confirmPage(ctx, session, id, await leavers.check(session.companyId, id, typed)));
        await leavers.terminate(session.companyId, id, typed);
      } catch (error) {
        const message = messagesOf(error);
        if (error instanceof DomainError && error.code === 'not_found') throw error;
        return sendHtml(reply, await formPage(ctx, session, id, { error: message }, typed), 422);
      }
      return reply.redirect(`/console/employees/${id}/statutory?done=terminated`, 303);
    },
  );
}

async function reinstateRoutes(root: FastifyInstance, ctx: WebContext): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { users } = ctx.services.users;
  const { leavers } = ctx.services.leavers;

  app.post(
    '/employees/:id/reinstate',
    { schema: { hide: true, params: Params, body: CsrfBody }, preHandler: guard },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = employeeId(request.params.id);
      try {
        await leavers.reinstate(session.companyId, id);
      } catch (error) {
        const message = messagesOf(error);
        if (error instanceof DomainError && error.code === 'not_found') throw error;
        // The refusal on the Employment section itself (status 422), as the terminate form shows its own.
        const user: User = await users.show(session.companyId, id);
        return sendHtml(reply, reinstateRefusedPage(session, id, user, message), 422);
      }
      return reply.redirect(`/console/employees/${id}/statutory?done=reinstated`, 303);
    },
  );
}
