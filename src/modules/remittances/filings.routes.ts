// POST /api/remittances/filings (scope remittances.file) and GET /api/remittances/calendar (scope
// remittances.calendar): docs/compliance.md, "Filings and deadlines". Errors are the plain family:
// {error: message}, 422 {error: {field: [message]}}, a second filing of one schedule 409.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, errorResponses, FieldsError } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import type { FilingsService } from './filings.service.js';
import { REMITTANCES_FORBIDDEN } from './remittances.routes.js';
import { FilingStatusFields } from './remittances.schemas.js';

const TENANCY: TenancyMessages = { forbidden: REMITTANCES_FORBIDDEN };
const errors = errorResponses(FieldsError);
const tags = ['compliance'];
/** A text field: the schema says it is a string (a number is refused in the family's shape), the service checks the rest. */
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength, description: `at most ${maxLength} characters` }));

const FilingSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  month: Type.String(),
  authority: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number(),
  paid_on: Type.String(),
  receipt_reference: Type.String(),
  created_at: Type.String(),
});

const CalendarEntry = Type.Object({
  due_date: Type.String(),
  kind: Type.String({ description: 'paye, pension, nhf or nsitf (monthly schedules); annual_return or itf (yearly, status null)' }),
  month: Type.String({ description: 'YYYY-MM: the month of the payments remitted; YYYY for annual_return and itf: the year covered' }),
  authority: Type.Union([Type.String(), Type.Null()], { description: 'state (PAYE, annual return) or PFA (pension) code' }),
  authority_name: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number(),
  ...FilingStatusFields,
});

export function filingsRoutes(service: FilingsService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.post(
      '/api/remittances/filings',
      {
        config: { name: 'remittances.file', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: 'Record that a remittance schedule was paid, with its receipt reference',
          body: Type.Object({
            company_id: CompanyIdInput,
            kind: Text(10),
            month: Text(7),
            authority: Type.Optional(Type.Unknown({ description: 'state code (PAYE), PFA code (pension), null otherwise' })),
            amount: Type.Optional(Type.Unknown({ description: 'decimal string or number, NGN' })),
            paid_on: Text(10),
            receipt_reference: Text(100),
          }),
          response: { 201: Type.Object({ message: Type.String(), filing: FilingSchema }), ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await service.file(tenantId(request), request.body)),
    );

    app.get(
      '/api/remittances/calendar',
      {
        config: { name: 'remittances.calendar', family: 'plain', tenancy: TENANCY },
        schema: {
          tags,
          summary: 'Every remittance due date of the company between from and to (at most 366 days), with status and amount',
          querystring: Type.Object({
            company_id: CompanyIdInput,
            from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
            to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
          }),
          response: {
            200: Type.Object({ message: Type.String(), from: Type.String(), to: Type.String(), data: Type.Array(CalendarEntry) }),
            ...errors,
          },
        },
      },
      async (request) => service.calendar(tenantId(request), request.query),
    );
  };
}
