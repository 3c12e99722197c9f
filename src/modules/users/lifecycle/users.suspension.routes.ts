// U10 and U11 (docs/reference.md, docs/users.md "The users rules"): suspend a user, end or move a
// suspension. Registered by usersRoutes (users.routes.ts) after U5-U7.
import { Type } from 'typebox';
import type { typed } from '../../../platform/deps.js';
import { tenantId } from '../../../platform/request-context.js';
import { SuspendBody, UnsuspendBody } from '../users.input.schemas.js';
import { CompanyQuery, IdParams, notFoundMessage, settingsErrors, tags, USERS_TENANCY } from '../users.params.schemas.js';
import { bodyOf, grants } from '../users.request.validation.js';
import type { UsersRouteServices } from '../users.route-services.types.js';
import { MessageAndUser } from '../users.schemas.js';

export function usersSuspensionRoutes(app: ReturnType<typeof typed>, services: UsersRouteServices): void {
  const { users: service, suspension } = services;

  app.post(
    '/api/users/:id/suspend',
    {
      config: { name: 'users.suspend', tenancy: USERS_TENANCY, notFoundMessage, family: 'settings' },
      schema: {
        tags,
        summary: 'U10. Suspend a user',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        body: SuspendBody,
        response: { 200: MessageAndUser, ...settingsErrors },
      },
    },
    async (request) => {
      await suspension.suspend(tenantId(request), request.params.id, bodyOf(request));
      return {
        message: 'User suspended successfully.',
        user: await service.show(tenantId(request), request.params.id, grants(request)),
      };
    },
  );

  app.post(
    '/api/users/:id/unsuspend',
    {
      config: { name: 'users.unsuspend', tenancy: USERS_TENANCY, notFoundMessage, family: 'settings' },
      schema: {
        tags,
        summary: 'U11. End or move a suspension',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        body: UnsuspendBody,
        response: { 200: MessageAndUser, ...settingsErrors },
      },
    },
    async (request) => {
      const body = bodyOf(request);
      await suspension.unsuspend(tenantId(request), request.params.id, body.unsuspend_option, body.new_unsuspension_time);
      return {
        message: 'User unsuspended successfully.',
        user: await service.show(tenantId(request), request.params.id, grants(request)),
      };
    },
  );
}
