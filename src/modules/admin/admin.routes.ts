// The operator API (docs/decisions.md, "Operator API and CLI"), registered only when ADMIN_TOKEN is
// set. Its routes carry no `config.name`, so the /api authentication, tenancy and rate limits do
// not run on them; the encapsulated plugin adds its own authentication hook instead. Errors are
// `{error}`; validation failures are 422 `{error: <first message>}` (the `settings` family).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import { notFound } from '../../platform/errors.js';
import { parseRowId } from '../../platform/input-safety.js';
import { errorResponses, MessageError } from '../../platform/schemas.js';
import { CompanyStatutoryBodyProperties } from '../companies/index.js';
import { createAdminAuthenticator } from './admin.auth.service.js';
import { AdminCompanySchema } from './admin.serializer.js';
import { type AdminService, PAYMENT_FREQUENCIES } from './admin.service.js';

const errors = errorResponses(MessageError);
const Strings = (maxItems = 100) => Type.Array(Type.String({ maxLength: 255 }), { maxItems });
const Plan = Type.Union([Type.Literal('standard'), Type.Literal('premium'), Type.Literal('enterprise')]);
const IdParams = Type.Object({ id: Type.String() });
const RunApprovalField = Type.Optional(
  Type.String({ maxLength: 20, description: 'Who approves payroll runs: person (default: an administrator in the console) or token' }),
);
const TokenBody = Type.Object({ token: Type.String(), expires_at: Type.String(), scopes: Type.Array(Type.String()) });
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

      app.post(
        '/companies',
        {
          config,
          schema: {
            tags: ['admin'],
            summary: 'Operator: create a root company with its API token',
            security,
            body: Type.Object(
              {
                name: Type.String({ maxLength: 255 }),
                domain: Type.String({ maxLength: 253 }),
                plan: Type.Optional(Plan),
                payment_frequency: Type.Optional(Type.Union(PAYMENT_FREQUENCIES.map((value) => Type.Literal(value)))),
                run_approval: RunApprovalField,
                user_types: Type.Optional(Strings()),
                roles: Type.Optional(Strings()),
                redirect_domains: Type.Optional(Strings()),
                scopes: Type.Optional(Strings()),
              },
              { additionalProperties: false },
            ),
            response: {
              201: Type.Object({
                company: Type.Ref('AdminCompany'),
                token: Type.String(),
                expires_at: Type.String(),
                scopes: Type.Array(Type.String()),
              }),
              ...errors,
            },
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
            body: Type.Object(
              {
                plan: Type.Optional(Plan),
                api_access: Type.Optional(Type.Boolean()),
                add_domains: Type.Optional(Strings()),
                add_user_types: Type.Optional(Strings()),
                add_roles: Type.Optional(Strings()),
                redirect_domains: Type.Optional(Strings()),
                run_approval: RunApprovalField,
                ...CompanyStatutoryBodyProperties,
              },
              { additionalProperties: false },
            ),
            response: { 200: Type.Object({ company: Type.Ref('AdminCompany') }), ...errors },
          },
        },
        async (request) => service.updateCompany(companyId(request.params.id), request.body),
      );

      app.post(
        '/companies/:id/token',
        {
          config,
          schema: {
            tags: ['admin'],
            summary: 'Operator: issue a new API token (the previous one stops working)',
            security,
            params: IdParams,
            body: Type.Object({ scopes: Type.Optional(Strings()) }, { additionalProperties: false }),
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

      app.get(
        '/outbox',
        {
          config,
          schema: {
            tags: ['admin'],
            summary: 'Operator: e-mails in the outbox, newest first',
            security,
            querystring: Type.Object({
              to: Type.Optional(Type.String({ maxLength: 320 })),
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
            }),
            response: {
              200: Type.Object({
                messages: Type.Array(
                  Type.Object({
                    id: Type.Integer(),
                    to: Type.String(),
                    subject: Type.String(),
                    text: Type.String(),
                    created_at: Type.String(),
                    sent_at: Type.Union([Type.Null(), Type.String()]),
                  }),
                ),
              }),
              ...errors,
            },
          },
        },
        async (request) => service.listOutbox(request.query),
      );
    },
    { prefix: '/admin' },
  );
}
