// U3 and U4 (docs/reference.md): create a user, update one (JSON or multipart with documents).
// Registered by usersRoutes (users.routes.ts) after the reading routes.
import { Type } from 'typebox';
import type { AppDeps, typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { readMultipart, resolveFormCompany } from './import/users.multipart.service.js';
import { DOCUMENT_UPLOAD } from './update/users.documents.service.js';
import { CreateBody, UpdateBody } from './users.input.schemas.js';
import { CompanyQuery, errors, IdParams, notFoundMessage, tags, USERS_TENANCY } from './users.params.schemas.js';
import { bodyOf, grants } from './users.request.validation.js';
import type { UsersRouteServices } from './users.route-services.types.js';
import { CreatedUserSchema, UpdatedUserSchema } from './users.schemas.js';

export function usersWriteRoutes(app: ReturnType<typeof typed>, deps: AppDeps, services: UsersRouteServices): void {
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
