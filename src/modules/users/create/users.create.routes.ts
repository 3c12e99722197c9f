// U3 (docs/reference.md): create a user. Registered by usersRoutes (users.routes.ts) after the
// reading routes, before U4 (users.update.routes.ts).
import { Type } from 'typebox';
import type { typed } from '../../../platform/deps.js';
import { recoverAnswer } from '../../../platform/idempotency-claims.js';
import { tenantId } from '../../../platform/request-context.js';
import { CreateBody } from '../users.input.schemas.js';
import { CompanyQuery, errors, tags, USERS_TENANCY } from '../users.params.schemas.js';
import { bodyOf, grants } from '../users.request.validation.js';
import type { UsersRouteServices } from '../users.route-services.types.js';
import { CreatedUserSchema } from '../users.schemas.js';

export function usersCreateRoutes(app: ReturnType<typeof typed>, services: UsersRouteServices): void {
  const { actions } = services;

  app.post(
    '/api/users',
    {
      config: {
        name: 'users.store',
        tenancy: USERS_TENANCY,
        internalMessage: 'Failed to create user.',
        idempotency: { recover: recoverAnswer(200, (request, id) => actions.recoverCreated(tenantId(request), Number(id))) },
      },
      schema: {
        tags,
        summary: 'U3. Create a user',
        querystring: Type.Object(CompanyQuery),
        body: CreateBody,
        response: { 200: CreatedUserSchema, ...errors },
      },
    },
    async (request) => actions.create(tenantId(request), bodyOf(request), grants(request)),
  );
}
