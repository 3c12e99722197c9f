// U4 (docs/reference.md): update a user (JSON or multipart with documents). Registered by usersRoutes
// (users.routes.ts) after U3 (users.create.routes.ts).
import { Type } from 'typebox';
import type { AppDeps, typed } from '../../../platform/deps.js';
import { tenantId } from '../../../platform/request-context.js';
import { readMultipart, resolveFormCompany } from '../import/users.multipart.service.js';
import { UpdateBody } from '../users.input.schemas.js';
import { CompanyQuery, errors, IdParams, notFoundMessage, tags, USERS_TENANCY } from '../users.params.schemas.js';
import { bodyOf, grants } from '../users.request.validation.js';
import type { UsersRouteServices } from '../users.route-services.types.js';
import { UpdatedUserSchema } from '../users.schemas.js';
import { DOCUMENT_UPLOAD } from './users.documents.service.js';

export function usersUpdateRoutes(app: ReturnType<typeof typed>, deps: AppDeps, services: UsersRouteServices): void {
  const { actions } = services;

  app.put(
    '/api/users/:id',
    {
      config: { name: 'users.update', tenancy: USERS_TENANCY, notFoundMessage, internalMessage: 'Failed to update user.' },
      schema: {
        tags,
        summary: 'U4. Update a user (JSON, or multipart/form-data with repeated `documents` files)',
        // Read by the catalog's input-safety tests (multipart bodies); OpenAPI takes `body.content`.
        consumes: ['application/json', 'multipart/form-data'],
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        body: { content: { 'application/json': { schema: UpdateBody } } },
        response: { 200: UpdatedUserSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.isMultipart()) return actions.update(tenantId(request), request.params.id, bodyOf(request), [], grants(request));
      const { fields, files, discard } = await readMultipart(request, deps.config.dataDir, DOCUMENT_UPLOAD);
      try {
        const companyId = await resolveFormCompany(deps.db, request, fields, USERS_TENANCY);
        return await actions.update(companyId, request.params.id, fields, files, grants(request));
      } finally {
        await discard();
      }
    },
  );
}
