// /api/remittances: the month's schedules and their CSV/XLSX downloads (/api/annual-returns:
// annual-returns.routes.ts; filings and the calendar: filings.routes.ts; shared schemas:
// remittances.schemas.ts). Errors are {error: message}; validation 422 {error: {field: [message]}}.
// Scopes: remittances.index, remittances.download (`remittances.*` grants the family;
// docs/compliance.md).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { sendAttachment } from '../../platform/attachment.js';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import type { TenancyMessages } from '../../platform/types.js';
import { Code, CompanyId, errors, FileAnswer, FilingStatusFields, Money, tags } from './remittances.schemas.js';
import { type RemittancesService, SCHEDULE_FILES, SCHEDULE_NOT_FOUND } from './remittances.service.js';

export const REMITTANCES_FORBIDDEN = "You do not have permission to access this company's remittances.";
const TENANCY: TenancyMessages = { forbidden: REMITTANCES_FORBIDDEN };

/** A schedule's filed total and what it leaves out for want of an identifier. */
const FiledTotal = Type.Object({ amount: Money, missing_amount: Money });
const DateOrNull = Type.Union([Type.String(), Type.Null()]);

const RemittancesAnswer = Type.Object({
  message: Type.String(),
  month: Type.String(),
  schedules: Type.Object({
    paye: Type.Array(
      Type.Object({
        state: Type.String(),
        authority: Type.Union([Type.String(), Type.Null()]),
        employer_tax_id: Type.Union([Type.String(), Type.Null()]),
        employees: Type.Integer(),
        amount: Money,
        due_date: Type.String(),
        ...FilingStatusFields,
      }),
    ),
    pension: Type.Array(
      Type.Object({
        pfa_code: Type.String(),
        pfa_name: Type.Union([Type.String(), Type.Null()]),
        employees: Type.Integer(),
        employee_amount: Money,
        employer_amount: Money,
        voluntary_amount: Type.Number({
          description: 'Tax-deductible custom contributions (voluntary pension), employee and employer parts',
        }),
        total: Type.Number({ description: 'employee_amount + employer_amount + voluntary_amount' }),
        due_date: Type.String(),
        ...FilingStatusFields,
      }),
    ),
    nhf: Type.Object({
      employees: Type.Integer(),
      amount: Money,
      missing_amount: Type.Number({ description: 'NHF of paystubs without an NHF number: in `missing`, not in the schedule' }),
      due_date: DateOrNull,
      ...FilingStatusFields,
    }),
    totals: Type.Object(
      {
        paye: FiledTotal,
        pension: FiledTotal,
        nhf: FiledTotal,
      },
      { description: 'each schedule’s filed total beside what it cannot file for want of an identifier (see `missing`)' },
    ),
    nsitf: Type.Object({ base: Type.String(), amount: Money, due_date: Type.String(), ...FilingStatusFields }),
  }),
  missing: Type.Array(
    Type.Object({
      user_id: Type.Integer(),
      employee_id: Type.String(),
      name: Type.String(),
      fields: Type.Array(Type.String()),
      schedules: Type.Array(Type.String()),
      amounts: Type.Object(
        { paye: Money, pension: Money, nhf: Money },
        { description: 'what this employee’s paystubs owe that the schedules leave out until the fields are set' },
      ),
    }),
  ),
});

export function remittancesRoutes(remittances: RemittancesService) {
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);

    app.get(
      '/api/remittances',
      {
        config: { name: 'remittances.index', family: 'plain', tenancy: TENANCY, internalMessage: 'Failed to retrieve remittances.' },
        schema: {
          tags,
          summary: "The month's PAYE, pension, NHF and NSITF schedules (paid paystubs of runs paid that month) and the data they miss",
          querystring: Type.Object({ company_id: CompanyId, month: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM' })) }),
          response: { 200: RemittancesAnswer, ...errors },
        },
      },
      async (request) => remittances.month(tenantId(request), request.query),
    );

    app.get(
      '/api/remittances/:file',
      {
        config: {
          name: 'remittances.download',
          family: 'plain',
          tenancy: TENANCY,
          notFoundMessage: SCHEDULE_NOT_FOUND,
          internalMessage: 'Failed to build the schedule.',
        },
        schema: {
          tags,
          summary: `A schedule as CSV or XLSX: ${SCHEDULE_FILES.join(', ')} (paye needs state, pension pfa_code)`,
          params: Type.Object({ file: Type.String() }),
          querystring: Type.Object({ company_id: CompanyId, month: Code, state: Code, pfa_code: Code }),
          response: { 200: FileAnswer, ...errors },
        },
      },
      async (request, reply) => sendAttachment(reply, await remittances.download(tenantId(request), request.params.file, request.query)),
    );
  };
}
