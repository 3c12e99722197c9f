// /api/remittances (the month's schedules, their CSV/XLSX downloads) and /api/annual-returns (the
// annual PAYE return, the ITF levy). Errors are {error: message}; validation 422 {error: {field:
// [message]}}. Scopes: remittances.index, remittances.download, annual-returns.index,
// annual-returns.itf (`remittances.*` / `annual-returns.*` grant each family; docs/compliance.md).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { tenantId } from '../../platform/request-context.js';
import type { TenancyMessages } from '../../platform/types.js';
import { ANNUAL_RETURN_NOT_FOUND, type AnnualReturnsService } from './annual-returns.service.js';
import { type Download, type RemittancesService, SCHEDULE_FILES, SCHEDULE_NOT_FOUND } from './remittances.service.js';

export const REMITTANCES_FORBIDDEN = "You do not have permission to access this company's remittances.";
const TENANCY: TenancyMessages = { forbidden: REMITTANCES_FORBIDDEN };

const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
const Code = Type.Optional(Type.String({ maxLength: 40 }));
const Money = Type.Number();
/** A schedule's filed total and what it leaves out for want of an identifier. */
const FiledTotal = Type.Object({ amount: Money, missing_amount: Money });
const DateOrNull = Type.Union([Type.String(), Type.Null()]);
const ErrorSchema = Type.Object({ error: Type.Unknown({ description: 'a message, or {field: [messages]} on 422' }) });
const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
const FileAnswer = Type.Unknown({ description: 'text/csv or an XLSX workbook (attachment)' });
const tags = ['compliance'];

/** A schedule's filing and status (docs/compliance.md, "Filings and deadlines"). */
export const FilingStatusFields = {
  status: Type.Union([Type.Literal('due'), Type.Literal('overdue'), Type.Literal('filed'), Type.Literal('filed_late'), Type.Null()], {
    description: 'null: nothing to remit and no filing',
  }),
  days_late: Type.Integer({ description: 'filed_late: days after the due date it was paid; overdue: days so far; else 0' }),
  filing: Type.Union([
    Type.Object({
      paid_on: Type.String(),
      receipt_reference: Type.String(),
      amount: Money,
      difference: Type.Number({ description: 'amount paid − the schedule’s amount (shown, never refused)' }),
    }),
    Type.Null(),
  ]),
};

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

const sendFile = (reply: FastifyReply, file: Download) =>
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.filename}"`)
    .header('Cache-Control', 'no-store')
    .send(file.body);

export function remittancesRoutes(services: { remittances: RemittancesService; annualReturns: AnnualReturnsService }) {
  const { remittances, annualReturns } = services;
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
      async (request, reply) => sendFile(reply, await remittances.download(tenantId(request), request.params.file, request.query)),
    );

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
        return answer.download ? sendFile(reply, answer.download) : answer.json;
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
