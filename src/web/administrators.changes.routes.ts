// Administrators, changing one (docs/console.md, "Administrators"): making an admin a super admin or
// back, and removing the console role (never the last super admin; removing yourself ends your
// session). The rules live in the users module's admins service. Post/redirect/get with a notice.
// administratorsRoutes registers these after the list and the invitation.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { SessionRow } from '../modules/console-sessions/index.js';
import { typed } from '../platform/deps.js';
import { DOMAIN_STATUS } from '../platform/error-handler.js';
import { DomainError } from '../platform/errors.js';
import { parseRowId } from '../platform/input-safety.js';
import type { InviteTyped } from './administrators.view.js';
import type { Html } from './html.view.js';
import type { Flash } from './layout.view.js';
import { requireSession, sendHtml, sessionOf, type WebContext } from './web.routes.js';

const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  personal_email: 'E-mail address',
  role: 'Role',
  user_types: 'Employee type',
};

/** The Administrators page, with a notice or an error, what was typed, and a card above the table (administratorsRoutes builds it). */
export type AdministratorsPage = (session: SessionRow, flash?: Flash, typedIn?: InviteTyped, extra?: Html) => Promise<Html>;

export const actorOf = (session: SessionRow) => ({ roles: session.roles });

/** A refusal's messages, each field named by its label. */
export const messageOf = (error: DomainError) =>
  error.fields
    ? Object.entries(error.fields)
        .map(([field, messages]) => `${FIELD_LABELS[field] ?? field.replace(/_/g, ' ')}: ${messages.join(' ')}`)
        .join(' ')
    : error.message;

/** A refusal of the admins service to show on the page; anything else is not ours to show. */
export const refused = (error: unknown): DomainError => {
  if (!(error instanceof DomainError) || error.code === 'internal' || error.code === 'not_found') throw error;
  return error;
};

const Params = Type.Object({ id: Type.String({ maxLength: 20 }) });

export async function administratorChangeRoutes(root: FastifyInstance, ctx: WebContext, listPage: AdministratorsPage): Promise<void> {
  const app = typed(root);
  const guard = requireSession(ctx);
  const { admins } = ctx.services.users;

  app.post(
    '/administrators/:id/role',
    {
      schema: {
        hide: true,
        params: Params,
        body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })), role: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      try {
        await admins.setRole(session.companyId, actorOf(session), parseRowId(request.params.id) ?? 0, request.body.role);
      } catch (error) {
        const refusal = refused(error);
        return sendHtml(reply, await listPage(session, { error: messageOf(refusal) }), DOMAIN_STATUS[refusal.code]);
      }
      return reply.redirect('/console/administrators?done=role', 303);
    },
  );

  app.post(
    '/administrators/:id/remove',
    {
      schema: { hide: true, params: Params, body: Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }) },
      preHandler: guard,
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = parseRowId(request.params.id) ?? 0;
      try {
        await admins.remove(session.companyId, actorOf(session), id);
      } catch (error) {
        const refusal = refused(error);
        return sendHtml(reply, await listPage(session, { error: messageOf(refusal) }), DOMAIN_STATUS[refusal.code]);
      }
      // Removing yourself ends your own session with the role: the sign-in page says so.
      if (id === session.userId) return reply.redirect('/console/login', 303);
      return reply.redirect('/console/administrators?done=removed', 303);
    },
  );
}
