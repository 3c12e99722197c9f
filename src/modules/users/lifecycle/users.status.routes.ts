// U5-U7 (docs/reference.md): deactivate, activate and delete a user. Registered by usersRoutes
// (users.routes.ts) after U3 and U4.
import { Type } from 'typebox';
import type { typed } from '../../../platform/deps.js';
import { invalid } from '../../../platform/errors.js';
import { tenantId } from '../../../platform/request-context.js';
import { CompanyQuery, errors, Message, notFoundMessage, RawIdParams, tags, USERS_TENANCY } from '../users.params.schemas.js';
import { bodyOf, userId } from '../users.request.validation.js';
import type { UsersRouteServices } from '../users.route-services.types.js';

export function usersStatusRoutes(app: ReturnType<typeof typed>, services: UsersRouteServices): void {
  const { actions } = services;

  const simple = [
    [
      'patch',
      '/api/users/:id/deactivate',
      'users.deactivate',
      'U5. Deactivate a user',
      (c: number, id: number) => actions.deactivate(c, id),
    ],
    ['patch', '/api/users/:id/activate', 'users.activate', 'U6. Activate a user', null],
    ['delete', '/api/users/:id', 'users.destroy', 'U7. Delete a user (soft)', (c: number, id: number) => actions.destroy(c, id)],
  ] as const;
  for (const [method, url, name, summary, run] of simple) {
    app.route({
      method: method.toUpperCase() as 'PATCH' | 'DELETE',
      url,
      config: { name, tenancy: USERS_TENANCY, notFoundMessage },
      schema: {
        tags,
        summary,
        params: RawIdParams,
        querystring: Type.Object(CompanyQuery),
        // No body schema: the body is optional (U6 reads `notify`, all read `company_id`).
        response: { 200: Message, ...errors },
      },
      handler: async (request) => {
        const id = userId((request.params as { id: string }).id);
        const companyId = tenantId(request);
        if (run) return run(companyId, id);
        const notify = bodyOf(request).notify;
        if (notify !== undefined && typeof notify !== 'boolean') throw invalid({ notify: ['The notify field must be true or false.'] });
        return actions.activate(companyId, id, notify === true);
      },
    });
  }
}
