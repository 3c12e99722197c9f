// /api/users/{id}/loans and /api/loans (docs/payroll.md, "Loans and salary advances"), scopes
// `loans.*`. Errors are the plain family: {error: message}, 422 {error: {field: [message]}}, and a
// loan that is not active (or has a repayment waiting) 409. Schemas in loans.schemas.ts; the
// actions on one loan (skip, settle, write-off) in loans.actions.routes.ts, registered last.
import type { FastifyInstance } from 'fastify';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { sendJsonText } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { loanActionRoutes } from './loans.actions.routes.js';
import {
  CompanyQuery,
  LoanErrors as errors,
  IdParams,
  LOANS_TENANCY,
  LoanAnswer,
  LoanCreateBody,
  LoanListAnswer,
  LoanListQuery,
  LoanSchema,
  LoanUserListQuery,
} from './loans.schemas.js';
import { LOAN_MESSAGES, LOAN_NOT_FOUND, type LoansService, USER_NOT_FOUND } from './loans.service.js';

const tags = ['loans'];

export function loansRoutes(service: LoansService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(LoanSchema);

    app.post(
      '/api/users/:id/loans',
      {
        config: {
          name: 'loans.store',
          family: 'plain',
          tenancy: LOANS_TENANCY,
          notFoundMessage: USER_NOT_FOUND,
          idempotency: {
            recover: recoverAnswer(201, (request, id) => service.recover(LOAN_MESSAGES.created, tenantId(request), Number(id))),
          },
        },
        schema: {
          tags,
          summary: 'Give a user a loan or a salary advance, repaid from their regular paystubs',
          params: IdParams,
          querystring: CompanyQuery,
          body: LoanCreateBody,
          response: { 201: LoanAnswer, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(tenantId(request), request.params.id, request.body)),
    );

    app.get(
      '/api/users/:id/loans',
      {
        config: { name: 'loans.user-index', family: 'plain', tenancy: LOANS_TENANCY, notFoundMessage: USER_NOT_FOUND },
        schema: {
          tags,
          summary: "A user's loans and advances, newest first",
          params: IdParams,
          querystring: LoanUserListQuery,
          response: { 200: LoanListAnswer, ...errors },
        },
      },
      async (request) => service.listForUser(tenantId(request), request.params.id, request.query, request.query),
    );

    app.get(
      '/api/loans',
      {
        config: { name: 'loans.index', family: 'plain', tenancy: LOANS_TENANCY },
        schema: {
          tags,
          summary: "The company's loans and advances, newest first",
          querystring: LoanListQuery,
          response: { 200: LoanListAnswer, ...errors },
        },
      },
      async (request, reply) => sendJsonText(reply, await service.listText(tenantId(request), request.query, request.query)),
    );

    app.get(
      '/api/loans/:id',
      {
        config: { name: 'loans.show', family: 'plain', tenancy: LOANS_TENANCY, notFoundMessage: LOAN_NOT_FOUND },
        schema: {
          tags,
          summary: 'One loan with its balance',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: LoanAnswer, ...errors },
        },
      },
      async (request) => service.show(tenantId(request), request.params.id),
    );

    loanActionRoutes(app, service);
  };
}
