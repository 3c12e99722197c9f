import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { callerOf } from '../../platform/request-context.js';
import { CompaniesError, CompanyIdInput, errorResponses } from '../../platform/schemas.js';
import { COMPANY_NOT_FOUND, type CompaniesService } from './companies.service.js';
import { CompanyStatutoryBodyProperties, CompanyStatutoryProperties } from './companies.statutory.service.js';

const Nullable = (description?: string) => Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255, description })]));
const Text = (description: string, maxLength = 255) => Type.Optional(Type.String({ maxLength, description }));
const RunApprovalText = Text("Who approves the child's payroll runs: person (default) or token", 20);

export const CompanySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    address: Type.Union([Type.Null(), Type.String()]),
    phone: Type.Union([Type.Null(), Type.String()]),
    registration_id: Type.Union([Type.Null(), Type.String()]),
    email_template: Type.Union([Type.Null(), Type.String()]),
    payment_frequency: Type.String(),
    created_by: Type.Union([Type.Null(), Type.Integer()]),
    status: Type.String(),
    domain: Type.String(),
    is_active: Type.Boolean(),
    run_approval: Type.Union([Type.Literal('person'), Type.Literal('token')], {
      description: "Who approves payroll runs: 'person' (a token's approve asks an administrator, who approves in the console) or 'token'",
    }),
    ...CompanyStatutoryProperties,
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Company' },
);

const IdParams = Type.Object({ id: Type.String({ description: 'Company id' }) });
const errors = errorResponses(CompaniesError);
const family = 'companies' as const;

export async function companiesRoutes(root: FastifyInstance, service: CompaniesService): Promise<void> {
  const app = typed(root);
  app.addSchema(CompanySchema);

  app.get(
    '/api/companies',
    {
      config: { name: 'companies.index', family, internalMessage: 'Failed to retrieve companies.' },
      schema: {
        tags: ['companies'],
        summary: 'C1. Companies created by the authenticated company (or by a descendant named in company_id)',
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
          company_id: CompanyIdInput,
        }),
        response: {
          200: Type.Object({
            data: Type.Array(Type.Ref('Company')),
            current_page: Type.Integer(),
            per_page: Type.Integer(),
            last_page: Type.Integer(),
            total: Type.Integer(),
          }),
          ...errors,
        },
      },
    },
    async (request) => service.list(callerOf(request).companyId, request.query),
  );

  app.post(
    '/api/companies',
    {
      config: { name: 'companies.store', family, sensitive: true, internalMessage: 'Failed to create company.' },
      schema: {
        tags: ['companies'],
        summary: 'C2. Create a child company and invite its super admin',
        description:
          'Required: name, first_name, last_name, personal_email, title, domain_name, email_template, payment_frequency (weekly, bi-weekly, monthly). ' +
          'Every problem is reported at once in `messages`.',
        body: Type.Object({
          name: Text('Company name (required)'),
          address: Nullable(),
          phone: Nullable(),
          registration_id: Nullable('Unique across companies'),
          first_name: Text('Super admin first name (required)'),
          last_name: Text('Super admin last name (required)'),
          personal_email: Text('Super admin personal e-mail, unique among all users (required)'),
          title: Text('Super admin title (required)'),
          domain_name: Text('Company e-mail domain, unique among companies (required)'),
          email_template: Text('Required', 65_535),
          payment_frequency: Text('weekly, bi-weekly or monthly (required)'),
          run_approval: RunApprovalText,
          ...CompanyStatutoryBodyProperties,
        }),
        response: { 201: Type.Object({ success: Type.String(), company: Type.Ref('Company') }), ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(callerOf(request).companyId, request.body)),
  );

  app.get(
    '/api/companies/:id',
    {
      config: { name: 'companies.show', family, notFoundMessage: COMPANY_NOT_FOUND, internalMessage: 'Failed to retrieve company.' },
      schema: {
        tags: ['companies'],
        summary: 'C3. One company below the caller',
        params: IdParams,
        response: { 200: Type.Ref('Company'), ...errors },
      },
    },
    async (request) => service.show(callerOf(request).companyId, request.params.id),
  );

  app.put(
    '/api/companies/:id',
    {
      config: { name: 'companies.update', family, notFoundMessage: COMPANY_NOT_FOUND, internalMessage: 'Failed to update company.' },
      schema: {
        tags: ['companies'],
        summary: 'C4. Update a company below the caller',
        params: IdParams,
        body: Type.Object({
          name: Text('Company name'),
          address: Nullable(),
          phone: Nullable(),
          registration_id: Nullable('Unique across companies; null clears it'),
          email_template: Text('E-mail template', 65_535),
          code: Text('2 to 20 letters or digits, unique (stored upper-case)'),
          domain: Text('Unique among companies'),
          payment_frequency: Text('weekly, bi-weekly or monthly'),
          run_approval: RunApprovalText,
          ...CompanyStatutoryBodyProperties,
        }),
        response: { 200: Type.Object({ message: Type.String(), company: Type.Ref('Company') }), ...errors },
      },
    },
    async (request) => service.update(callerOf(request).companyId, request.params.id, request.body),
  );

  const message = Type.Object({ message: Type.String() });
  app.patch(
    '/api/companies/:id/deactivate',
    {
      config: {
        name: 'companies.deactivate',
        family,
        notFoundMessage: COMPANY_NOT_FOUND,
        internalMessage: 'Failed to deactivate company.',
      },
      schema: {
        tags: ['companies'],
        summary: 'C5. Deactivate a company below the caller (its token is refused at once)',
        params: IdParams,
        response: { 200: message, ...errors },
      },
    },
    async (request) => service.deactivate(callerOf(request).companyId, request.params.id),
  );

  app.patch(
    '/api/companies/:id/activate',
    {
      config: { name: 'companies.activate', family, notFoundMessage: COMPANY_NOT_FOUND, internalMessage: 'Failed to activate company.' },
      schema: {
        tags: ['companies'],
        summary: 'C6. Activate (and approve) a company below the caller',
        params: IdParams,
        response: { 200: message, ...errors },
      },
    },
    async (request) => service.activate(callerOf(request).companyId, request.params.id),
  );
}
