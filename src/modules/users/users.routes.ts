import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import type { TenancyMessages } from '../../platform/types.js';
import { ErrorSchema, UserSchema } from './users.schemas.js';
import { createUsersService } from './users.service.js';

/** Every users endpoint answers a company it may not act for with this 403 (decisions.md §3). */
export const USERS_TENANCY: TenancyMessages = { forbidden: 'Unauthorized or invalid company ID.' };

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const CompanyQuery = { company_id: Type.Optional(Type.Union([Type.Integer(), Type.String()])) };

export async function usersRoutes(root: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = typed(root);
  const service = createUsersService(deps);
  app.addSchema(UserSchema);

  app.get(
    '/api/users',
    {
      config: { name: 'users.index', tenancy: USERS_TENANCY },
      schema: {
        tags: ['users'],
        summary: 'U1. List users of the target company',
        querystring: Type.Object({
          ...CompanyQuery,
          startIndex: Type.Optional(Type.Integer({ minimum: 1 })),
          count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
          page: Type.Optional(Type.Integer({ minimum: 1 })),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
        }),
        response: {
          200: Type.Object({
            Resources: Type.Array(Type.Ref('User')),
            totalResults: Type.Integer(),
            startIndex: Type.Integer(),
            itemsPerPage: Type.Integer(),
          }),
          '4xx': ErrorSchema,
        },
      },
    },
    async (request) => service.list(request.targetCompanyId as number, request.query),
  );

  app.get(
    '/api/users/:id',
    {
      config: { name: 'users.show', tenancy: USERS_TENANCY },
      schema: {
        tags: ['users'],
        summary: 'U2. One user',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        response: { 200: Type.Ref('User'), '4xx': ErrorSchema },
      },
    },
    async (request) => service.show(request.targetCompanyId as number, request.params.id),
  );
}
