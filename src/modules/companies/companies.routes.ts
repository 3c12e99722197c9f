// /api/companies (docs/reference.md, C1-C6): the companies below the caller. Schemas in
// companies.schemas.ts; activation (C5, C6) in companies.activation.routes.ts, registered after these.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { callerOf } from '../../platform/request-context.js';
import { companyActivationRoutes } from './companies.activation.routes.js';
import { CompaniesPage, CompanySchema, CreateBody, errors, family, IdParams, ListQuery, UpdateBody } from './companies.schemas.js';
import { COMPANY_NOT_FOUND, type CompaniesService } from './companies.service.js';

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
        querystring: ListQuery,
        response: { 200: CompaniesPage, ...errors },
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
        body: CreateBody,
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
        body: UpdateBody,
        response: { 200: Type.Object({ message: Type.String(), company: Type.Ref('Company') }), ...errors },
      },
    },
    async (request) => service.update(callerOf(request).companyId, request.params.id, request.body),
  );

  companyActivationRoutes(app, service);
}
