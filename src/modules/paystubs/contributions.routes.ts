// S4/S5: a company's and a user's contribution records (docs/payroll.md), in pages of up to 1000.
// Family `settings`: errors {error: message}, validation 422. Registered after paystubsRoutes, which
// adds the CustomContributionRecord schema these answers refer to (paystubs.schemas.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { parseRowId } from '../../platform/input-safety.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput } from '../../platform/schemas.js';
import { ContributionsQuery, ContributionsResponse, errors } from './paystubs.schemas.js';
import { type createPaystubsService, USER_NOT_FOUND } from './paystubs.service.js';

const CONTRIBUTIONS_FORBIDDEN = "You do not have permission to access this company's contributions.";

export async function contributionsRoutes(root: FastifyInstance, service: ReturnType<typeof createPaystubsService>): Promise<void> {
  const app = typed(root);

  app.get(
    '/api/contributions/:company_id',
    {
      config: {
        name: 'contributions.company',
        family: 'settings',
        tenancy: { source: 'path', pathParam: 'company_id', forbidden: CONTRIBUTIONS_FORBIDDEN, notFound: 'Company not found.' },
      },
      schema: {
        tags: ['payroll settings'],
        summary: "S4. A company's contribution records, in pages of up to 1000 (all of them when it has no more)",
        params: Type.Object({ company_id: Type.String() }),
        querystring: ContributionsQuery,
        response: { 200: ContributionsResponse, ...errors },
      },
    },
    async (request) => ({
      message: 'Contributions retrieved successfully',
      ...(await service.companyContributions(tenantId(request), request.query)),
    }),
  );

  app.get(
    '/api/contributions/user/:user_id',
    {
      config: {
        name: 'contributions.user',
        family: 'settings',
        tenancy: { forbidden: CONTRIBUTIONS_FORBIDDEN },
        notFoundMessage: USER_NOT_FOUND,
      },
      schema: {
        tags: ['payroll settings'],
        summary: "S5. One user's contribution records (optional company_id for a child company's user)",
        params: Type.Object({ user_id: Type.String() }),
        querystring: Type.Object({ company_id: CompanyIdInput, ...ContributionsQuery.properties }),
        response: { 200: ContributionsResponse, ...errors },
      },
    },
    async (request) => {
      const raw = request.params.user_id;
      const userId = parseRowId(raw) ?? null;
      return {
        message: 'User contributions retrieved successfully',
        ...(await service.userContributions(tenantId(request), userId, request.query)),
      };
    },
  );
}
