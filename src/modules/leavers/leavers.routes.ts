// POST /api/users/{id}/terminate and /reinstate (docs/users.md, "Leavers"). Both need the scope
// `users.terminate` (reinstate is allowed by it: platform/auth/tokens.ts, SCOPE_OF); errors are the
// users' plain family, 422 `{error: {<field>: [<message>]}}`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { mayGrantConsoleAccess } from '../../platform/auth/console-access.js';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { errorResponses, FieldsError } from '../../platform/schemas.js';
import { USERS_TENANCY } from '../users/index.js';
import { LeaverAnswer, ReinstateBody, TerminateBody } from './leavers.schemas.js';
import { LEAVER_ANSWERS, type LeaversService, USER_NOT_FOUND } from './leavers.service.js';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const CompanyQuery = Type.Object({ company_id: TerminateBody.properties.company_id });
const tags = ['users'];

/** Whether the caller's token has `all`: it then sees console users' onboarding tokens (docs/users.md). */
const grants = (request: FastifyRequest) => mayGrantConsoleAccess(request.caller?.scopes ?? []);
const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};

export function leaversRoutes(service: LeaversService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    const recover = (message: string) =>
      recoverAnswer(200, (request, id) => service.recover(message, tenantId(request), Number(id), grants(request)));

    app.post(
      '/api/users/:id/terminate',
      {
        config: {
          name: 'users.terminate',
          tenancy: USERS_TENANCY,
          notFoundMessage: USER_NOT_FOUND,
          idempotency: { recover: recover(LEAVER_ANSWERS.terminated) },
        },
        schema: {
          tags,
          summary: 'Terminate a user: record the exit date and reason',
          params: IdParams,
          querystring: CompanyQuery,
          body: TerminateBody,
          response: { 200: LeaverAnswer, ...errorResponses(FieldsError) },
        },
      },
      async (request) => service.terminate(tenantId(request), request.params.id, bodyOf(request), grants(request)),
    );

    app.post(
      '/api/users/:id/reinstate',
      {
        config: {
          name: 'users.reinstate',
          tenancy: USERS_TENANCY,
          notFoundMessage: USER_NOT_FOUND,
          idempotency: { recover: recover(LEAVER_ANSWERS.reinstated) },
        },
        schema: {
          tags,
          summary: 'Reinstate a terminated user whose last period is not paid yet',
          params: IdParams,
          querystring: CompanyQuery,
          body: ReinstateBody,
          response: { 200: LeaverAnswer, ...errorResponses(FieldsError) },
        },
      },
      async (request) => service.reinstate(tenantId(request), request.params.id, grants(request)),
    );
  };
}
