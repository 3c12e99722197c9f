// Request and response schemas of the loans routes (docs/payroll.md, "Loans and salary advances").
// The create body's fields are read and checked by loans.planner.ts (every problem at once, with
// the rule named); the schema documents them and refuses only what no field rule could read.
// Also the tenancy and error answers that loans.routes.ts and loans.actions.routes.ts share.
import { Type } from 'typebox';
import { CompanyIdInput, errorResponses, FieldsError, LaravelPage, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { LOAN_KINDS, LOAN_STATUSES } from './loans.planner.js';
import { LOANS_FORBIDDEN } from './loans.service.js';

/** The tenancy answer of every loans route. */
export const LOANS_TENANCY: TenancyMessages = { forbidden: LOANS_FORBIDDEN };
export const LoanErrors = errorResponses(FieldsError);

const Decimal = (description: string) => Type.String({ description });
const Nullable = (description: string) => Type.Union([Type.Null(), Type.String()], { description });

export const LoanSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    user_id: Type.Integer(),
    kind: Type.Union(
      LOAN_KINDS.map((kind) => Type.Literal(kind)),
      { description: 'loan, or advance (a salary advance: Labour Act s.4)' },
    ),
    principal: Decimal('decimal, NGN'),
    balance: Decimal('decimal, NGN: what is still owed; falls when a paystub repaying it is paid'),
    instalment: Decimal('decimal, NGN: repaid per period (plus interest), capped by net pay'),
    start_period: Type.String({ description: 'YYYY-MM: the first month repaid' }),
    interest_rate_annual: Type.String({ description: 'percent a year, simple interest on the balance monthly (loans only)' }),
    status: Type.Union(LOAN_STATUSES.map((status) => Type.Literal(status))),
    skipped_periods: Type.Array(Type.String(), { description: 'YYYY-MM months without a repayment' }),
    closed_balance: Nullable('settle or write-off: the balance the loan was closed with'),
    closed_at: Nullable('when settle or write-off closed it'),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Loan' },
);

const Loose = (description: string) => Type.Optional(Type.Unknown({ description }));

export const LoanCreateBody = Type.Object({
  company_id: CompanyIdInput,
  kind: Type.Optional(Type.String({ enum: [...LOAN_KINDS], description: 'loan or advance' })),
  principal: Loose('greater than 0, at most 2 decimals; an advance: at most base_salary + allowances'),
  instalment: Loose('greater than 0, at most the principal; an advance: at most a third of the principal'),
  start_period: Type.Optional(Type.String({ maxLength: 7, description: 'YYYY-MM' })),
  interest_rate_annual: Loose('percent a year, 0 to 100, at most 4 decimals (default 0); an advance: 0'),
});

export const SkipBody = Type.Object({
  company_id: CompanyIdInput,
  period: Type.Optional(Type.String({ maxLength: 7, description: 'YYYY-MM: the month without a repayment' })),
});

export const CompanyBody = Type.Object({ company_id: CompanyIdInput });

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const CompanyQuery = Type.Object({ company_id: CompanyBody.properties.company_id });

export const LoanAnswer = Type.Object({ message: Type.String(), loan: Type.Ref('Loan') });

export const LoanListFilters = {
  status: Type.Optional(Type.String({ enum: [...LOAN_STATUSES] })),
  kind: Type.Optional(Type.String({ enum: [...LOAN_KINDS] })),
};

export const LoanUserListQuery = Type.Object({ company_id: CompanyBody.properties.company_id, ...LoanListFilters, ...PageQueryFields });

export const LoanListQuery = Type.Object({
  company_id: CompanyBody.properties.company_id,
  user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  ...LoanListFilters,
  ...PageQueryFields,
});

export const LoanListAnswer = Type.Object({ message: Type.String(), data: LaravelPage(Type.Ref('Loan')) });
