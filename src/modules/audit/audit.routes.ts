// /api/audit-events (docs/audit.md, "Reading the log"): the company's audit log, newest first with
// a cursor, and its CSV export. A parent reads a child's log with company_id (tenancy.ts).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { sendJsonText } from '../../platform/json-text.js';
import { tenantId } from '../../platform/request-context.js';
import { errorResponses, FieldsError } from '../../platform/schemas.js';
import { AuditEventSchema, AuditPage, Filter, Filters } from './audit.schemas.js';
import { AUDIT_FORBIDDEN, type AuditService, MAX_LIMIT } from './audit.service.js';

const TENANCY = { forbidden: AUDIT_FORBIDDEN };
const errors = errorResponses(FieldsError);
const tags = ['audit'];

export function auditRoutes(service: AuditService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(AuditEventSchema);

    app.get(
      '/api/audit-events',
      {
        config: { name: 'audit-events.index', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: "AU1. The company's audit log, newest first",
          querystring: Type.Object({
            ...Filters,
            cursor: Filter('next_cursor of the previous page'),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 50 })),
          }),
          response: {
            200: AuditPage,
            ...errors,
          },
        },
      },
      async (request, reply) => sendJsonText(reply, await service.listText(tenantId(request), request.query)),
    );

    app.get(
      '/api/audit-events/export',
      {
        config: { name: 'audit-events.export', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: 'AU2. The audit log as CSV (streamed), newest first',
          querystring: Type.Object(Filters),
          response: { 200: Type.Unknown({ description: 'text/csv (attachment)' }), ...errors },
        },
      },
      async (request, reply) => {
        const company = tenantId(request);
        const lines = service.exportCsv(company, request.query);
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="audit-events-${company}.csv"`)
          .send(Readable.from(lines));
      },
    );
  };
}
