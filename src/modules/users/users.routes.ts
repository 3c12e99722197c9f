import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import { badRequest, invalid } from '../../platform/errors.js';
import type { TenancyMessages } from '../../platform/types.js';
import { createUserActions } from './users.actions.js';
import { bulkCreate, bulkUpdate } from './users.bulk.js';
import { type CsvKind, IMPORT_HEADER, parseUsersCsv, templateCsv, UPDATE_HEADER } from './users.csv.js';
import { readMultipart, resolveFormCompany } from './users.multipart.js';
import { ErrorSchema, UserSchema } from './users.schemas.js';
import { CreateBody, SuspendBody, UnsuspendBody, UpdateBody } from './users.schemas-input.js';
import { createUsersService } from './users.service.js';
import { createSuspensionService } from './users.suspension.js';

/** Every users endpoint answers a company it may not act for with this 403 (decisions.md §3). */
export const USERS_TENANCY: TenancyMessages = { forbidden: 'Unauthorized or invalid company ID.' };
/** U8/U9 name a missing company (interface.md). */
const BULK_TENANCY: TenancyMessages = { ...USERS_TENANCY, notFound: 'Target company not found.' };

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** U5-U7 answer a malformed id with their own 400, so the id is parsed by hand. */
const RawIdParams = Type.Object({ id: Type.String() });
const CompanyQuery = { company_id: Type.Optional(Type.Union([Type.Integer(), Type.String()])) };
const Message = Type.Object({ message: Type.String() });
const tags = ['users'];

function userId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest('User ID is required.');
  return Number(raw);
}

const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};

export async function usersRoutes(root: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = typed(root);
  const service = createUsersService(deps);
  const actions = createUserActions(deps);
  const suspension = createSuspensionService(deps);
  app.addSchema(UserSchema);

  app.get(
    '/api/users',
    {
      config: { name: 'users.index', tenancy: USERS_TENANCY },
      schema: {
        tags,
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

  for (const [url, kind, name, summary] of [
    ['/api/users/import-template', 'create', 'users.import-template', 'U12. CSV template for bulk create'],
    ['/api/users/update-template', 'update', 'users.update-template', 'U13. CSV template for bulk update'],
  ] as const) {
    const body = templateCsv(kind === 'create' ? IMPORT_HEADER : UPDATE_HEADER);
    const filename = kind === 'create' ? 'users_import_template.csv' : 'users_update_template.csv';
    app.get(
      url,
      { config: { name, tenancy: USERS_TENANCY }, schema: { tags, summary, querystring: Type.Object(CompanyQuery) } },
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
      config: { name: 'users.show', tenancy: USERS_TENANCY },
      schema: {
        tags,
        summary: 'U2. One user',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        response: { 200: Type.Ref('User'), '4xx': ErrorSchema },
      },
    },
    async (request) => service.show(request.targetCompanyId as number, request.params.id),
  );

  app.post(
    '/api/users',
    {
      config: { name: 'users.store', tenancy: USERS_TENANCY, internalMessage: 'Failed to create user.' },
      schema: { tags, summary: 'U3. Create a user', querystring: Type.Object(CompanyQuery), body: CreateBody },
    },
    async (request) => actions.create(request.targetCompanyId as number, bodyOf(request)),
  );

  app.put(
    '/api/users/:id',
    {
      config: { name: 'users.update', tenancy: USERS_TENANCY, internalMessage: 'Failed to update user.' },
      schema: {
        tags,
        summary: 'U4. Update a user (JSON, or multipart/form-data with repeated `documents` files)',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        body: { content: { 'application/json': { schema: UpdateBody } } },
      },
    },
    async (request) => {
      if (!request.isMultipart()) return actions.update(request.targetCompanyId as number, request.params.id, bodyOf(request), []);
      const { fields, files } = await readMultipart(request, ['documents']);
      const companyId = await resolveFormCompany(deps.db, request, fields, USERS_TENANCY);
      return actions.update(companyId, request.params.id, fields, files.get('documents') ?? []);
    },
  );

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
      config: { name, tenancy: USERS_TENANCY },
      schema: {
        tags,
        summary,
        params: RawIdParams,
        querystring: Type.Object(CompanyQuery),
        // No body schema: the body is optional (U6 reads `notify`, all read `company_id`).
        response: { 200: Message, '4xx': ErrorSchema },
      },
      handler: async (request) => {
        const id = userId((request.params as { id: string }).id);
        const companyId = request.targetCompanyId as number;
        if (run) return run(companyId, id);
        const notify = bodyOf(request).notify;
        if (notify !== undefined && typeof notify !== 'boolean') throw invalid({ notify: ['The notify field must be true or false.'] });
        return actions.activate(companyId, id, notify === true);
      },
    });
  }

  app.post(
    '/api/users/:id/suspend',
    {
      config: { name: 'users.suspend', tenancy: USERS_TENANCY, family: 'settings' },
      schema: { tags, summary: 'U10. Suspend a user', params: IdParams, querystring: Type.Object(CompanyQuery), body: SuspendBody },
    },
    async (request) => {
      await suspension.suspend(request.targetCompanyId as number, request.params.id, bodyOf(request));
      return { message: 'User suspended successfully.', user: await service.show(request.targetCompanyId as number, request.params.id) };
    },
  );

  app.post(
    '/api/users/:id/unsuspend',
    {
      config: { name: 'users.unsuspend', tenancy: USERS_TENANCY, family: 'settings' },
      schema: {
        tags,
        summary: 'U11. End or move a suspension',
        params: IdParams,
        querystring: Type.Object(CompanyQuery),
        body: UnsuspendBody,
      },
    },
    async (request) => {
      const body = bodyOf(request);
      await suspension.unsuspend(request.targetCompanyId as number, request.params.id, body.unsuspend_option, body.new_unsuspension_time);
      return { message: 'User unsuspended successfully.', user: await service.show(request.targetCompanyId as number, request.params.id) };
    },
  );

  for (const [url, kind, name, summary] of [
    ['/api/users/bulk-create', 'create', 'users.bulk-create', 'U8. Create users from a CSV file (multipart field `users_csv`)'],
    ['/api/users/bulk-update', 'update', 'users.bulk-update', 'U9. Update users from a CSV file (multipart field `users_csv`)'],
  ] as const) {
    app.post(
      url,
      {
        config: { name, tenancy: BULK_TENANCY, family: 'bulk', sensitive: true },
        schema: {
          tags,
          summary,
          consumes: ['multipart/form-data'],
          querystring: Type.Object({
            ...CompanyQuery,
            dry_run: Type.Optional(Type.Boolean()),
            notify: Type.Optional(Type.Boolean()),
          }),
        },
      },
      async (request) => {
        const required = invalid({ users_csv: ['The users csv field is required.'] });
        if (!request.isMultipart()) throw required;
        const { fields, files } = await readMultipart(request, ['users_csv']);
        const companyId = await resolveFormCompany(deps.db, request, fields, BULK_TENANCY);
        const [file] = files.get('users_csv') ?? [];
        if (!file) throw required;
        if (file.truncated) throw invalid({ users_csv: ['The users csv field must not be greater than 5120 kilobytes.'] });
        const flag = (value: boolean | undefined, field: string | undefined) => value ?? (field === 'true' || field === '1');
        const options = { dryRun: flag(request.query.dry_run, fields.dry_run), notify: flag(request.query.notify, fields.notify) };
        const rows = await parseUsersCsv(file.data, kind as CsvKind);
        return kind === 'create' ? bulkCreate(deps, companyId, rows, options) : bulkUpdate(deps, companyId, rows, options);
      },
    );
  }
}
