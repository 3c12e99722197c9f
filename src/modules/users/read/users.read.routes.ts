// U1, U12, U13 and U2 (docs/reference.md): the users list, the two CSV templates and one user.
// Registered by usersRoutes (users.routes.ts) after the User schema and the bank account route.
import { Type } from 'typebox';
import type { typed } from '../../../platform/deps.js';
import { sendJsonTextOr } from '../../../platform/json-text.js';
import { tenantId } from '../../../platform/request-context.js';
import { IMPORT_HEADER, templateCsv, UPDATE_HEADER } from '../import/users.csv.validation.js';
import { CompanyQuery, errors, IdParams, ListQuery, notFoundMessage, tags, USERS_TENANCY, UsersPage } from '../users.params.schemas.js';
import { grants } from '../users.request.validation.js';
import type { UsersRouteServices } from '../users.route-services.types.js';

export function usersReadRoutes(app: ReturnType<typeof typed>, services: UsersRouteServices): void {
  const { users: service } = services;

  app.get(
    '/api/users',
    {
      config: { name: 'users.index', tenancy: USERS_TENANCY },
      schema: {
        tags,
        summary: 'U1. List users of the target company',
        querystring: ListQuery,
        response: { 200: UsersPage, ...errors },
      },
    },
    async (request, reply) => sendJsonTextOr(reply, await service.listForApi(tenantId(request), request.query, grants(request))),
  );

  for (const [url, kind, name, summary] of [
    ['/api/users/import-template', 'create', 'users.import-template', 'U12. CSV template for bulk create'],
    ['/api/users/update-template', 'update', 'users.update-template', 'U13. CSV template for bulk update'],
  ] as const) {
    const body = templateCsv(kind === 'create' ? IMPORT_HEADER : UPDATE_HEADER);
    const filename = kind === 'create' ? 'users_import_template.csv' : 'users_update_template.csv';
    app.get(
      url,
      {
        config: { name, tenancy: USERS_TENANCY },
        schema: {
          tags,
          summary,
          querystring: Type.Object(CompanyQuery),
          response: { 200: Type.String({ description: 'CSV' }), ...errors },
        },
      },
      async (_request, reply) =>
        reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${filename}"`)
          .send(body),
    );
  }

  app.get(
    '/api/users/:id',
    {
      config: { name: 'users.show', tenancy: USERS_TENANCY, notFoundMessage },
      schema: {
        tags,
        summary: 'U2. One user',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        response: { 200: Type.Ref('User'), ...errors },
      },
    },
    async (request) => service.show(tenantId(request), request.params.id, grants(request)),
  );
}
