// C5 and C6 (docs/reference.md): deactivate and activate a company below the caller. Registered by
// companiesRoutes (companies.routes.ts) after the Company schema and the C1-C4 routes.
import type { typed } from '../../platform/deps.js';
import { callerOf } from '../../platform/request-context.js';
import { errors, family, IdParams, MessageAnswer } from './companies.schemas.js';
import { COMPANY_NOT_FOUND, type CompaniesService } from './companies.service.js';

export function companyActivationRoutes(app: ReturnType<typeof typed>, service: CompaniesService): void {
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
        response: { 200: MessageAnswer, ...errors },
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
        response: { 200: MessageAnswer, ...errors },
      },
    },
    async (request) => service.activate(callerOf(request).companyId, request.params.id),
  );
}
