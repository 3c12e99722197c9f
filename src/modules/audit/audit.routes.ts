// /api/audit-events (docs/audit.md, "Reading the log"): the company's audit log, newest first with
// a cursor, and its CSV export. A parent reads a child's log with company_id (tenancy.ts).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, errorResponses, FieldsError } from '../../platform/schemas.js';
import { ACTOR_TYPES, AUDIT_FORBIDDEN, type AuditService, MAX_LIMIT } from './audit.service.js';

const Nullable = Type.Union([Type.Null(), Type.String()]);
const Change = Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2, description: '[before, after]' });
const AuditEventSchema = Type.Object(
  {
    id: Type.String({ description: 'aud_…' }),
    seq: Type.Union([Type.Null(), Type.Integer()], {
      description: "the event's place in its company's chain (1, 2, ...); null until the sealer chains it, seconds after its commit",
    }),
    occurred_at: Type.String(),
    company_id: Type.Integer(),
    actor: Type.Object({ type: Type.String({ enum: [...ACTOR_TYPES] }), id: Type.String(), email: Nullable }),
    action: Type.String(),
    target: Type.Object({ type: Type.String(), id: Type.String() }),
    changes: Type.Record(Type.String(), Change),
    request_id: Nullable,
    ip: Nullable,
    user_agent: Nullable,
    hash: Type.Union([Type.Null(), Type.String()], { description: 'sha256 of prev_hash and the canonical event; null until sealed' }),
    prev_hash: Type.Union([Type.Null(), Type.String()], { description: "the previous event's hash in the chain; null until sealed" }),
  },
  { $id: 'AuditEvent' },
);
const Filter = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }));
const Filters = {
  company_id: CompanyIdInput,
  actor_type: Filter(`one of ${ACTOR_TYPES.join(', ')}`),
  actor_id: Filter("the actor's id (a token id, a console user's id)"),
  action: Filter('an action (user.updated) or a prefix (user.*)'),
  target_type: Filter('user, payroll_run, invoice, ...'),
  target_id: Filter("the target's id"),
  from: Filter('a date or an ISO time: events at or after it'),
  to: Filter('a date (the whole day) or an ISO time: events before it'),
};
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
            200: Type.Object({ data: Type.Array(Type.Ref('AuditEvent')), next_cursor: Nullable }),
            ...errors,
          },
        },
      },
      async (request) => service.list(tenantId(request), request.query),
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
