// S6-S10 custom contribution routes. Family `settings`: errors {error: message}, validation 422.
// Schemas in custom-contributions.schemas.ts; S6-S7 (reading) here, then the changes (S8-S10) from
// custom-contributions.changes.routes.ts.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { customContributionChangesRoutes } from './custom-contributions.changes.routes.js';
import {
  CompanyParams,
  CustomContributionSchema,
  contributionId,
  errors,
  ItemParams,
  One,
  onOne,
  tags,
  tenancy,
} from './custom-contributions.schemas.js';
import { CUSTOM_NOT_FOUND, type createCustomContributionsService } from './custom-contributions.service.js';

export async function customContributionsRoutes(
  root: FastifyInstance,
  service: ReturnType<typeof createCustomContributionsService>,
): Promise<void> {
  const app = typed(root);
  app.addSchema(CustomContributionSchema);

  app.get(
    '/api/custom-contributions/:company_id',
    {
      config: { name: 'custom-contributions.index', family: 'settings', tenancy: tenancy('Company not found.') },
      schema: {
        tags,
        summary: 'S6. Custom contributions of a company, with targets',
        params: CompanyParams,
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('CustomContribution')) }), ...errors },
      },
    },
    async (request) => ({
      message: 'Custom contributions retrieved successfully',
      data: await service.list(tenantId(request)),
    }),
  );

  app.get(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.show', family: 'settings', ...onOne(CUSTOM_NOT_FOUND) },
      schema: { tags, summary: 'S7. One custom contribution', params: ItemParams, response: { 200: One, ...errors } },
    },
    async (request) => ({
      message: 'Custom contribution retrieved successfully',
      data: await service.show(tenantId(request), contributionId(request.params.contribution_id)),
    }),
  );

  customContributionChangesRoutes(app, service);
}
