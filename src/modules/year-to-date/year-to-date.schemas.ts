// Request and response schemas of opening year-to-date (docs/payroll.md, "Opening year-to-date").
// The body's figures are read by year-to-date.validation.ts (every problem at once, the users'
// messages); the schema documents them and leaves the reading to it (MoneyInput: no coercion), so
// every field is optional here and required there (all refusals in one answer).
import { Type } from 'typebox';
import { CompanyIdInput, MoneyInput } from '../../platform/schemas.js';

export const OpeningBody = Type.Object({
  company_id: CompanyIdInput,
  gross_pay: Type.Optional(MoneyInput('Gross pay of the year before this service, ≥ 0')),
  taxable_pay: Type.Optional(MoneyInput('Pay chargeable to PAYE before reliefs (the engine’s T plus taxable items), ≥ 0')),
  tax_withheld: Type.Optional(MoneyInput('PAYE withheld, ≥ 0')),
  employee_pension: Type.Optional(MoneyInput('Employee pension contributions, ≥ 0')),
  nhf: Type.Optional(MoneyInput('NHF contributions, ≥ 0')),
  nhis: Type.Optional(MoneyInput('NHIS (employee) contributions, ≥ 0')),
  months: Type.Optional(Type.Unsafe<unknown>({ description: 'Months the figures cover, a whole number 0 to 12 (informational)' })),
});

const Amounts = {
  gross_pay: Type.Number(),
  taxable_pay: Type.Number(),
  tax_withheld: Type.Number(),
  employee_pension: Type.Number(),
  nhf: Type.Number(),
  nhis: Type.Number(),
};

export const YearToDateAnswer = Type.Object({
  message: Type.Optional(Type.String()),
  user_id: Type.Integer(),
  year: Type.Integer(),
  opening: Type.Union(
    [Type.Object({ ...Amounts, months: Type.Integer(), created_at: Type.String(), updated_at: Type.String() }), Type.Null()],
    { description: 'The stored opening figures, or null when none were recorded' },
  ),
  before_service: Type.Object({ ...Amounts, months: Type.Integer() }, { description: 'The opening figures, zeros when none' }),
  paid_since: Type.Object(
    { ...Amounts, paystubs: Type.Integer() },
    { description: 'Sums of the user’s paystubs of the year in the company, except failed and cancelled ones' },
  ),
  total: Type.Object(Amounts, { description: 'before_service + paid_since' }),
});

export const ImportReport = Type.Object({
  status: Type.String({ description: 'success, partial or failed' }),
  message: Type.String(),
  summary: Type.String(),
  successes: Type.Array(Type.Object({ row: Type.Integer(), user_id: Type.Integer(), email: Type.String(), year: Type.Integer() })),
  failures: Type.Array(Type.Object({ row: Type.Integer(), errors: Type.Record(Type.String(), Type.Array(Type.String())) })),
});
