// /api/annual-returns: the annual PAYE return to one state's revenue service and the ITF levy
// (docs/compliance.md). Errors are {error: message}; validation 422 {error: {field: [message]}}.
// Scopes: annual-returns.index, annual-returns.itf (`annual-returns.*` grants the family).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendAttachment } from '../../platform/attachment.js';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import type { TenancyMessages } from '../../platform/types.js';
import { ANNUAL_RETURN_NOT_FOUND, type AnnualReturnsService } from './annual-returns.service.js';
import { REMITTANCES_FORBIDDEN } from './remittances.routes.js';
import { Code, CompanyId, errors, FileAnswer, Money, tags } from './remittances.schemas.js';

const TENANCY: TenancyMessages = { forbidden: REMITTANCES_FORBIDDEN };

export function annualReturnsRoutes(annualReturns: AnnualReturnsService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.get(
      '/api/annual-returns/:year',
      {
        config: {
          name: 'annual-returns.index',
          family: 'plain',
          tenancy: TENANCY,
          notFoundMessage: ANNUAL_RETURN_NOT_FOUND,
          internalMessage: 'Failed to build the annual return.',
        },
        schema: {
          tags,
          summary: "The annual PAYE return to one state's revenue service (JSON, or format=csv / xlsx); due 31 January",
          params: Type.Object({ year: Type.String({ description: 'YYYY' }) }),
          querystring: Type.Object({ company_id: CompanyId, state: Code, format: Code }),
          response: { 200: FileAnswer, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await annualReturns.annualReturn(tenantId(request), request.params.year, request.query);
        return answer.download ? sendAttachment(reply, answer.download) : answer.json;
      },
    );

    app.get(
      '/api/annual-returns/:year/itf',
      {
        config: {
          name: 'annual-returns.itf',
          family: 'plain',
          tenancy: TENANCY,
          notFoundMessage: ANNUAL_RETURN_NOT_FOUND,
          internalMessage: 'Failed to compute the ITF levy.',
        },
        schema: {
          tags,
          summary: 'The Industrial Training Fund levy of a year: 1% of the payroll for 5 or more employees; due 1 April',
          params: Type.Object({ year: Type.String({ description: 'YYYY' }) }),
          querystring: Type.Object({ company_id: CompanyId }),
          response: {
            200: Type.Object({
              message: Type.String(),
              year: Type.Integer(),
              eligible: Type.Boolean(),
              employees: Type.Integer(),
              annual_payroll: Money,
              amount: Money,
              due_date: Type.String(),
            }),
            ...errors,
          },
        },
      },
      async (request) => annualReturns.itf(tenantId(request), request.params.year),
    );
  };
}
