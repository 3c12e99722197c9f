// What the remittances routes (remittances.routes.ts), the annual-returns routes
// (annual-returns.routes.ts) and the filings routes (filings.routes.ts) share: the company_id and
// code query fields, amounts, the plain family's error answers, a file answer, the tag, and a
// schedule's filing status.
import { Type } from 'typebox';

export const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
export const Code = Type.Optional(Type.String({ maxLength: 40 }));
export const Money = Type.Number();
const ErrorSchema = Type.Object({ error: Type.Unknown({ description: 'a message, or {field: [messages]} on 422' }) });
export const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
export const FileAnswer = Type.Unknown({ description: 'text/csv or an XLSX workbook (attachment)' });
export const tags = ['compliance'];

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
