// /api/pay-schedules (docs/payroll-runs.md, "Pay schedules"), scopes `pay-schedules.*`. Errors are
// the plain family: {error: message}, 422 {error: {field: [message]}}.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { errorResponses, FieldsError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { CompanyQuery, CreateBody, IdParams, ListAnswer, ScheduleAnswer, ScheduleSchema, UpdateBody } from './pay-schedules.schemas.js';
import { type PaySchedulesService, SCHEDULE_NOT_FOUND, SCHEDULES_FORBIDDEN } from './pay-schedules.service.js';

const TENANCY: TenancyMessages = { forbidden: SCHEDULES_FORBIDDEN };
const tags = ['pay schedules'];
const errors = errorResponses(FieldsError);
const one = { family: 'plain', tenancy: TENANCY, notFoundMessage: SCHEDULE_NOT_FOUND } as const;

export function paySchedulesRoutes(service: PaySchedulesService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(ScheduleSchema);

    app.post(
      '/api/pay-schedules',
      {
        config: { name: 'pay-schedules.store', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: "Create a pay schedule: each period's draft run is created before its payment date",
          body: CreateBody,
          response: { 201: ScheduleAnswer, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(tenantId(request), request.body)),
    );

    app.get(
      '/api/pay-schedules',
      {
        config: { name: 'pay-schedules.index', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: "The company's pay schedules with their next runs",
          querystring: CompanyQuery,
          response: { 200: ListAnswer, ...errors },
        },
      },
      async (request) => service.list(tenantId(request)),
    );

    app.get(
      '/api/pay-schedules/:id',
      {
        config: { name: 'pay-schedules.show', ...one },
        schema: {
          tags,
          summary: 'One pay schedule: its next period and creation time, and the runs it made',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: ScheduleAnswer, ...errors },
        },
      },
      async (request) => service.show(tenantId(request), request.params.id),
    );

    app.patch(
      '/api/pay-schedules/:id',
      {
        config: { name: 'pay-schedules.update', ...one },
        schema: {
          tags,
          summary: 'Change, pause (active: false) or re-activate a pay schedule',
          params: IdParams,
          body: UpdateBody,
          response: { 200: ScheduleAnswer, ...errors },
        },
      },
      async (request) => service.update(tenantId(request), request.params.id, request.body),
    );

    app.delete(
      '/api/pay-schedules/:id',
      {
        config: { name: 'pay-schedules.destroy', ...one },
        schema: {
          tags,
          summary: 'Delete a pay schedule (the runs it made stay)',
          params: IdParams,
          querystring: CompanyQuery,
          response: { 200: Type.Object({ message: Type.String() }), ...errors },
        },
      },
      async (request) => service.destroy(tenantId(request), request.params.id),
    );
  };
}
