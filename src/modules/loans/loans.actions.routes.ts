// The actions on one loan (docs/payroll.md, "Loans and salary advances"): skip a period, settle,
// write off. Registered by loansRoutes (loans.routes.ts) after the Loan schema and the create and
// list routes, to keep the route order.
import type { FastifyRequest } from 'fastify';
import type { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyBody, CompanyQuery, LoanErrors as errors, IdParams, LOANS_TENANCY, LoanAnswer, SkipBody } from './loans.schemas.js';
import { LOAN_MESSAGES, LOAN_NOT_FOUND, type LoansService } from './loans.service.js';

const tags = ['loans'];
/** skip, settle and write-off: an absent body is an empty one. */
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export function loanActionRoutes(app: ReturnType<typeof typed>, service: LoansService): void {
  const recovered = (message: string) => ({
    recover: recoverAnswer(200, (request: FastifyRequest, id) => service.recover(message, tenantId(request), Number(id))),
  });

  app.post(
    '/api/loans/:id/skip',
    {
      config: {
        name: 'loans.skip',
        family: 'plain',
        tenancy: LOANS_TENANCY,
        notFoundMessage: LOAN_NOT_FOUND,
        idempotency: recovered(LOAN_MESSAGES.skipped),
      },
      preValidation: emptyBody,
      schema: {
        tags,
        summary: 'Skip one period: no repayment that month',
        params: IdParams,
        querystring: CompanyQuery,
        body: SkipBody,
        response: { 200: LoanAnswer, ...errors },
      },
    },
    async (request) => service.skip(tenantId(request), request.params.id, request.body),
  );

  const close = (url: string, name: 'loans.settle' | 'loans.write-off', message: string, summary: string) =>
    app.post(
      url,
      {
        config: { name, family: 'plain', tenancy: LOANS_TENANCY, notFoundMessage: LOAN_NOT_FOUND, idempotency: recovered(message) },
        preValidation: emptyBody,
        schema: {
          tags,
          summary,
          params: IdParams,
          querystring: CompanyQuery,
          body: CompanyBody,
          response: { 200: LoanAnswer, ...errors },
        },
      },
      async (request) =>
        name === 'loans.settle'
          ? service.settle(tenantId(request), request.params.id)
          : service.writeOff(tenantId(request), request.params.id),
    );
  close('/api/loans/:id/settle', 'loans.settle', LOAN_MESSAGES.settled, 'Record an early repayment of the whole balance: paid_off');
  close('/api/loans/:id/write-off', 'loans.write-off', LOAN_MESSAGES.writtenOff, 'Write the balance off: written_off');
}
