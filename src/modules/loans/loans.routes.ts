// /api/users/{id}/loans and /api/loans (docs/payroll.md, "Loans and salary advances"), scopes
// `loans.*`. Errors are the plain family: {error: message}, 422 {error: {field: [message]}}, and a
// loan that is not active (or has a repayment waiting) 409.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { errorResponses, FieldsError, LaravelPage, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { CompanyBody, LoanAnswer, LoanCreateBody, LoanListFilters, LoanSchema, SkipBody } from './loans.schemas.js';
import { LOAN_MESSAGES, LOAN_NOT_FOUND, LOANS_FORBIDDEN, type LoansService, USER_NOT_FOUND } from './loans.service.js';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const CompanyQuery = Type.Object({ company_id: CompanyBody.properties.company_id });
const LIST_TENANCY: TenancyMessages = { forbidden: LOANS_FORBIDDEN };
const tags = ['loans'];
const errors = errorResponses(FieldsError);
const ListAnswer = Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('Loan')) });
/** skip, settle and write-off: an absent body is an empty one. */
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export function loansRoutes(service: LoansService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(LoanSchema);
    const recovered = (message: string) => ({
      recover: recoverAnswer(200, (request: FastifyRequest, id) => service.recover(message, tenantId(request), Number(id))),
    });

    app.post(
      '/api/users/:id/loans',
      {
        config: {
          name: 'loans.store',
          family: 'plain',
          tenancy: LIST_TENANCY,
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
        config: { name: 'loans.user-index', family: 'plain', tenancy: LIST_TENANCY, notFoundMessage: USER_NOT_FOUND },
        schema: {
          tags,
          summary: "A user's loans and advances, newest first",
          params: IdParams,
          querystring: Type.Object({ company_id: CompanyBody.properties.company_id, ...LoanListFilters, ...PageQueryFields }),
          response: { 200: ListAnswer, ...errors },
        },
      },
      async (request) => service.listForUser(tenantId(request), request.params.id, request.query, request.query),
    );

    app.get(
      '/api/loans',
      {
        config: { name: 'loans.index', family: 'plain', tenancy: LIST_TENANCY },
        schema: {
          tags,
          summary: "The company's loans and advances, newest first",
          querystring: Type.Object({
            company_id: CompanyBody.properties.company_id,
            user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
            ...LoanListFilters,
            ...PageQueryFields,
          }),
          response: { 200: ListAnswer, ...errors },
        },
      },
      async (request) => service.list(tenantId(request), request.query, request.query),
    );

    app.get(
      '/api/loans/:id',
      {
        config: { name: 'loans.show', family: 'plain', tenancy: LIST_TENANCY, notFoundMessage: LOAN_NOT_FOUND },
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

    app.post(
      '/api/loans/:id/skip',
      {
        config: {
          name: 'loans.skip',
          family: 'plain',
          tenancy: LIST_TENANCY,
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
          config: { name, family: 'plain', tenancy: LIST_TENANCY, notFoundMessage: LOAN_NOT_FOUND, idempotency: recovered(message) },
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
  };
}
