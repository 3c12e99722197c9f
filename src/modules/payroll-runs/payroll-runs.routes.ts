// /api/payroll-runs (docs/payroll-runs.md): create from salaries, list, show, approve, pay, retry,
// cancel. Errors are {error: message}; validation 422 {error: {field: [message]}}; a state that does
// not allow the action 409 {error}; an unaffordable pay or retry 409 adds required/available/shortfall.
// Schemas in payroll-runs.schemas.ts; the actions on a run in payroll-runs.actions.routes.ts.
import type { FastifyInstance } from 'fastify';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { sendJsonTextOr } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { payrollRunActionsRoutes } from './payroll-runs.actions.routes.js';
import {
  CompanyQuery,
  CreateBody,
  errors,
  IdParams,
  LIST_TENANCY,
  ListQuery,
  RUN_TENANCY,
  RunAnswer,
  RunSchema,
  RunsPage,
} from './payroll-runs.schemas.js';
import { type createPayrollRunsService, MESSAGES, RUN_NOT_FOUND } from './payroll-runs.service.js';
import type { createFunding } from './transfers/funding.service.js';

export function payrollRunsRoutes(services: {
  runs: ReturnType<typeof createPayrollRunsService>;
  funding: ReturnType<typeof createFunding>;
}) {
  const { runs } = services;
  /** After a crash lost a run action's answer: its status and message, with the run as it is now (docs/decisions.md). */
  const recovered = (status: number, message: string) => ({
    recover: recoverAnswer(status, (request, id) => runs.recoverAnswer(tenantId(request), id, message)),
  });
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(RunSchema);

    app.post(
      '/api/payroll-runs',
      {
        config: { name: 'payroll-runs.store', family: 'plain', tenancy: LIST_TENANCY, idempotency: recovered(201, MESSAGES.created) },
        schema: {
          tags: ['payroll runs'],
          summary: "Create a run from the employees' salaries, or an off-cycle run of pay items (draft)",
          body: CreateBody,
          response: { 201: RunAnswer, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await runs.create(tenantId(request), request.body)),
    );

    app.get(
      '/api/payroll-runs',
      {
        config: { name: 'payroll-runs.index', family: 'plain', tenancy: LIST_TENANCY },
        schema: {
          tags: ['payroll runs'],
          summary: 'List runs, newest first (period filters: start on or after, end on or before)',
          querystring: ListQuery,
          response: { 200: RunsPage, ...errors },
        },
      },
      async (request, reply) => sendJsonTextOr(reply, await runs.listForApi(tenantId(request), request.query, request.query)),
    );

    app.get(
      '/api/payroll-runs/:id',
      {
        config: { name: 'payroll-runs.show', family: 'plain', tenancy: RUN_TENANCY, notFoundMessage: RUN_NOT_FOUND },
        schema: {
          tags: ['payroll runs'],
          summary: 'One run with its totals and paystub counts',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: RunAnswer, ...errors },
        },
      },
      async (request) => runs.show(tenantId(request), request.params.id),
    );

    payrollRunActionsRoutes(app, services, recovered);
  };
}
