// S8-S10 (docs/reference.md): create, update and delete a custom contribution. Registered by
// customContributionsRoutes (custom-contributions.routes.ts) after the schema and the reading routes.
import { Type } from 'typebox';
import type { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import {
  CompanyParams,
  CreateBody,
  contributionId,
  errors,
  ItemParams,
  One,
  onOne,
  tags,
  tenancy,
  UpdateBody,
} from './custom-contributions.schemas.js';
import { CUSTOM_NOT_FOUND, CUSTOM_UPDATE_NOT_FOUND, type createCustomContributionsService } from './custom-contributions.service.js';

export function customContributionChangesRoutes(
  app: ReturnType<typeof typed>,
  service: ReturnType<typeof createCustomContributionsService>,
): void {
  app.post(
    '/api/custom-contributions/:company_id',
    {
      config: { name: 'custom-contributions.store', family: 'settings', tenancy: tenancy('Company not found.') },
      schema: {
        tags,
        summary: 'S8. Create a custom contribution (targets by user type name and by company or personal e-mail)',
        params: CompanyParams,
        body: CreateBody,
        response: { 201: One, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'Custom contribution created successfully',
        data: await service.create(tenantId(request), request.body),
      }),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/api/custom-contributions/:company_id/:contribution_id',
      {
        config: { name: 'custom-contributions.update', family: 'settings', ...onOne(CUSTOM_UPDATE_NOT_FOUND) },
        schema: {
          tags,
          summary: 'S9. Update a custom contribution; user_types or users replace the targets',
          params: ItemParams,
          body: UpdateBody,
          response: { 200: One, ...errors },
        },
      },
      async (request) => ({
        message: 'Custom contribution updated successfully',
        data: await service.update(tenantId(request), contributionId(request.params.contribution_id), request.body),
      }),
    );
  }

  app.delete(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.destroy', family: 'settings', ...onOne(CUSTOM_NOT_FOUND) },
      schema: {
        tags,
        summary: 'S10. Delete a custom contribution (records already on paystubs stay)',
        params: ItemParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errors },
      },
    },
    async (request) => {
      await service.remove(tenantId(request), contributionId(request.params.contribution_id));
      return { message: 'Custom contribution deleted successfully' };
    },
  );
}
