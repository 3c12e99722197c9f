import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { mayGrantConsoleAccess } from '../../platform/auth/console-access.js';
import { type AppDeps, typed } from '../../platform/deps.js';
import { badRequest, invalid } from '../../platform/errors.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { parseRowId } from '../../platform/input-safety.js';
import { sendJsonText } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { BulkError, CompanyIdInput, errorResponses, FieldsError, MessageError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import type { createUserActions } from './users.actions.js';
import { type BankAccountVerification, bankAccountRoutes } from './users.bank-account.js';
import type { BulkService } from './users.bulk.service.js';
import { CSV_UPLOAD, type CsvKind, IMPORT_HEADER, templateCsv, UPDATE_HEADER } from './users.csv.js';
import { DOCUMENT_UPLOAD } from './users.documents.js';
import { readMultipart, resolveFormCompany, sweepStaleUploads } from './users.multipart.js';
import { BulkReportSchema, CreatedUserSchema, MessageAndUser, UpdatedUserSchema, UserSchema } from './users.schemas.js';
import { CreateBody, SuspendBody, UnsuspendBody, UpdateBody } from './users.schemas-input.js';
import { type createUsersService, LIST_STATUSES, USER_NOT_FOUND } from './users.service.js';
import type { createSuspensionService } from './users.suspension.js';

/** Every users endpoint answers a company it may not act for with this 403 (docs/reference.md, "Authentication and scopes"). */
export const USERS_TENANCY: TenancyMessages = { forbidden: 'Unauthorized or invalid company ID.' };
const notFoundMessage = USER_NOT_FOUND;
/** U8/U9 name a missing company (the published interface). */
const BULK_TENANCY: TenancyMessages = { ...USERS_TENANCY, notFound: 'Target company not found.' };

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** U5-U7 answer a malformed id with their own 400, so the id is parsed by hand. */
const RawIdParams = Type.Object({ id: Type.String() });
const CompanyQuery = { company_id: CompanyIdInput };
const Message = Type.Object({ message: Type.String() });
const errors = errorResponses(FieldsError);
/** U10/U11 answer in the settings family: {error: message}. */
const settingsErrors = errorResponses(MessageError);
const tags = ['users'];

function userId(raw: string): number {
  const id = parseRowId(raw);
  if (id === undefined) throw badRequest('User ID is required.');
  return id;
}

/** Whether the caller's token may hand out console access (docs/users.md, "Console roles through the API"). */
const grants = (request: FastifyRequest) => mayGrantConsoleAccess(request.caller?.scopes ?? []);

const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};

/** The users module's services the routes call (built once in index.ts). */
interface UsersRouteServices {
  users: ReturnType<typeof createUsersService>;
  actions: ReturnType<typeof createUserActions>;
  suspension: ReturnType<typeof createSuspensionService>;
  bankAccount: BankAccountVerification;
  bulk: BulkService;
}

export async function usersRoutes(root: FastifyInstance, deps: AppDeps, services: UsersRouteServices): Promise<void> {
  const app = typed(root);
  const { users: service, actions, suspension } = services;
  app.addSchema(UserSchema);
  // Temp files of uploads cut off by a crash are removed once the server is ready.
  root.addHook('onReady', async () => {
    const removed = await sweepStaleUploads(deps.config.dataDir);
    if (removed > 0) root.log.info({ removed }, 'removed stale upload files');
  });
  bankAccountRoutes(root, services.bankAccount, USERS_TENANCY, grants);

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
          status: Type.Optional(
            Type.Unsafe<(typeof LIST_STATUSES)[number]>({
              type: 'string',
              enum: [...LIST_STATUSES],
              description: '`exited`: only users exited by today (their exit_date has passed; docs/users.md, "Leavers")',
            }),
          ),
        }),
        response: {
          200: Type.Object({
            Resources: Type.Array(Type.Ref('User')),
            totalResults: Type.Integer(),
            startIndex: Type.Integer(),
            itemsPerPage: Type.Integer(),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const answer = await service.listForApi(tenantId(request), request.query, grants(request));
      return typeof answer === 'string' ? sendJsonText(reply, answer) : answer;
    },
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
          response: { 200: BulkReportSchema, ...errorResponses(BulkError) },
        },
      },
      async (request) => {
        const required = invalid({ users_csv: ['The users csv field is required.'] });
        if (!request.isMultipart()) throw required;
        const { fields, files, discard } = await readMultipart(request, deps.config.dataDir, CSV_UPLOAD);
        try {
          const companyId = await resolveFormCompany(deps.db, request, fields, BULK_TENANCY);
          const [file] = files;
          if (!file) throw required;
          if (file.truncated) throw invalid({ users_csv: [CSV_UPLOAD.tooLarge] });
          const flag = (value: boolean | undefined, field: string | undefined) => value ?? (field === 'true' || field === '1');
          const options = { dryRun: flag(request.query.dry_run, fields.dry_run), notify: flag(request.query.notify, fields.notify) };
          // The file is read, parsed and imported holding one of a few slots: memory stays bounded
          // however many imports arrive together (the others wait, their files on disk).
          return await services.bulk.run(companyId, kind as CsvKind, file.path, options);
        } finally {
          await discard();
        }
      },
    );
  }
}
