// The operator API (docs/decisions.md, "Operator API and CLI"), registered only when ADMIN_TOKEN is
// set. Its routes carry no `config.name`, so the /api authentication, tenancy and rate limits do
// not run on them; the encapsulated plugin adds its own authentication hook instead. Errors are
// `{error}`; validation failures are 422 `{error: <first message>}` (the `settings` family).
// Schemas in admin.schemas.ts; the routes are registered by capability (companies, tokens, outbox).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import { notFound } from '../../platform/errors.js';
import { parseRowId } from '../../platform/input-safety.js';
import { errorResponses, MessageError } from '../../platform/schemas.js';
import { createAdminAuthenticator } from './admin.auth.service.js';
import {
  CompanyCreateBody,
  CompanyCreatedAnswer,
  CompanyUpdateBody,
  IdParams,
  OutboxAnswer,
  OutboxListQuery,
  TokenBody,
  TokenRequestBody,
} from './admin.schemas.js';
import { AdminCompanySchema } from './admin.serializer.js';
import type { AdminService } from './admin.service.js';

type App = ReturnType<typeof typed>;

const errors = errorResponses(MessageError);
const COMPANY_NOT_FOUND = 'Company not found.';
const config = { family: 'settings' as const, notFoundMessage: COMPANY_NOT_FOUND };
const security = [{ adminToken: [] }];

/** Path ids that are not a positive integer name no company: 404, like an unknown id. */
function companyId(raw: string): number {
  const id = parseRowId(raw);
  if (id === undefined) throw notFound(COMPANY_NOT_FOUND);
  return id;
}

export async function adminRoutes(root: FastifyInstance, deps: AppDeps, service: AdminService): Promise<void> {
  const adminToken = deps.config.adminToken;
  if (!adminToken) return;
  const authenticate = createAdminAuthenticator({ adminToken, limiter: deps.limiter, failedLimit: deps.config.rateLimit.unauthenticated });

  await root.register(
    async (plugin) => {
      const app = typed(plugin);
      app.addSchema(AdminCompanySchema);
      app.addHook('onRequest', authenticate);
      // Unknown /admin paths answer 404 only to the operator; others get the 401 first.
      app.setNotFoundHandler({ preHandler: authenticate }, (_request, reply) => reply.status(404).send({ error: 'Not found.' }));

      companyRoutes(app, service);
      tokenRoutes(app, service);
      outboxRoutes(app, service);
    },
    { prefix: '/admin' },
  );
}

/** Create a root company (with its first token) and change one. */
function companyRoutes(app: App, service: AdminService): void {
  app.post(
    '/companies',
    {
      config,
      schema: {
        tags: ['admin'],
        summary: 'Operator: create a root company with its API token',
        security,
        body: CompanyCreateBody,
        response: { 201: CompanyCreatedAnswer, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createCompany(request.body)),
  );

  app.patch(
    '/companies/:id',
    {
      config,
      schema: {
        tags: ['admin'],
        summary:
          "Operator: change a company's plan, API access, domains, user types, roles, redirect domains, run approval, sector or registrations",
        security,
        params: IdParams,
        body: CompanyUpdateBody,
        response: { 200: Type.Object({ company: Type.Ref('AdminCompany') }), ...errors },
      },
    },
    async (request) => service.updateCompany(companyId(request.params.id), request.body),
  );
}

/** Issue and revoke a company's API token. */
function tokenRoutes(app: App, service: AdminService): void {
  app.post(
    '/companies/:id/token',
    {
      config,
      schema: {
        tags: ['admin'],
        summary: 'Operator: issue a new API token (the previous one stops working)',
        security,
        params: IdParams,
        body: TokenRequestBody,
        response: { 201: TokenBody, ...errors },
      },
      // No body at all means "default scopes", like an empty object.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => reply.status(201).send(await service.generateToken(companyId(request.params.id), request.body)),
  );

  app.delete(
    '/companies/:id/token',
    {
      config,
      schema: {
        tags: ['admin'],
        summary: "Operator: revoke a company's API token",
        security,
        params: IdParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errors },
      },
    },
    async (request) => service.revokeToken(companyId(request.params.id)),
  );
}

/** The e-mail outbox (GET /admin/outbox). */
function outboxRoutes(app: App, service: AdminService): void {
  app.get(
    '/outbox',
    {
      config,
      schema: {
        tags: ['admin'],
        summary: 'Operator: e-mails in the outbox, newest first',
        security,
        querystring: OutboxListQuery,
        response: { 200: OutboxAnswer, ...errors },
      },
    },
    async (request) => service.listOutbox(request.query),
  );
}
