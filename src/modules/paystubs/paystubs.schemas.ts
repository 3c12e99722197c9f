// The schemas the P1/P2 paystub routes (paystubs.routes.ts) and the S4/S5 contribution routes
// (contributions.routes.ts) share: the paystub, its items and contribution records (registered once,
// by $id, in paystubsRoutes), a listed paystub, the contributions' paging and answer, and the
// `{error: message}` responses of both.
import { Type } from 'typebox';
import { errorResponses, LaravelPage, MessageError, NullableString } from '../../platform/schemas.js';

const Money = Type.Number();
const Timestamp = Type.String();
export const RecordSchema = Type.Object(
  {
    id: Type.Integer(),
    contribution_id: Type.Integer(),
    custom_contribution_id: Type.Union([Type.Null(), Type.Integer()]),
    user_id: Type.Integer(),
    name: Type.String(),
    employee_contribution: Money,
    employer_contribution: Money,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'CustomContributionRecord' },
);
export const PaystubItemSchema = Type.Object(
  {
    type: Type.String({ description: 'the item type code (GET /api/pay-item-types)' }),
    name: Type.String(),
    amount: Money,
    taxable_amount: Type.Number({ description: 'the part PAYE counted' }),
    taxable: Type.Boolean(),
    pensionable: Type.Boolean(),
    regular: Type.Boolean(),
    cash: Type.Boolean(),
    treatment: Type.String({ description: 'earning or deduction' }),
    description: NullableString,
    origin_period: NullableString,
    loan_id: Type.Union([Type.Integer(), Type.Null()], { description: 'a loan_repayment or advance_recovery: the loan it repays' }),
    loan_balance_after: Type.Union([Type.Number(), Type.Null()], {
      description: "a repayment: the loan's balance once this paystub is paid (earlier failed or cancelled paystubs not counted)",
    }),
  },
  { $id: 'PaystubItem' },
);
const paystubFields = {
  id: Type.Integer(),
  user_id: Type.Integer(),
  company_id: Type.Integer(),
  pay_period_start: Type.String(),
  pay_period_end: Type.String(),
  taxable_income: Money,
  reimbursements: Money,
  other_allowances: Money,
  gross_pay: Money,
  net_pay: Money,
  tax_withheld: Money,
  tax_true_up: Type.Number({
    description:
      'the year-end true-up included in tax_withheld (annualised tax, the last regular paystub of the year): negative = a refund',
  }),
  pension_contribution: Money,
  nhf_contribution: Money,
  nhis_contribution: Money,
  other_deductions: Money,
  paye_state: Type.Union([
    Type.Null(),
    Type.String({
      description:
        'the state (code of GET /api/states) whose revenue service this PAYE goes to: the employee’s state of residence on 1 January of the period’s year; null when unknown',
    }),
  ]),
  regular_gross: Money,
  irregular_gross: Type.Number({ description: 'cash earnings of irregular items (bonus, 13th month, arrears, …)' }),
  off_cycle: Type.Boolean({ description: 'paid by an off-cycle run (items only, no salary)' }),
  items: Type.Array(Type.Ref('PaystubItem')),
  status: Type.String({ description: 'unpaid, held, processing, paid, failed or cancelled' }),
  transaction_id: Type.String(),
  paid_at: Type.Union([Type.Null(), Timestamp]),
  payment_reference: NullableString,
  failure_reason: NullableString,
  hold_reason: Type.Union([Type.Null(), Type.String({ description: 'why a held paystub waits for approval' })]),
  payment_destination: Type.Union([
    Type.Null(),
    Type.Object(
      {
        bank_code: NullableString,
        bank_name: NullableString,
        account_last4: NullableString,
        account_name: NullableString,
      },
      { description: 'the account approval fixed for this paystub (null until its run is approved)' },
    ),
  ]),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const PaystubSchema = Type.Object(paystubFields, { $id: 'Paystub' });
const statutory = {
  employee_pension_contribution: Money,
  employer_pension_contribution: Money,
  nhf_contribution: Money,
  pit_contribution: Money,
  nhis_employee_contribution: Money,
  nhis_employer_contribution: Money,
  employer_cost: Money,
  tax_regime: Type.String(),
};
export const ContributionSchema = Type.Object(
  {
    id: Type.Integer(),
    paystub_id: Type.Integer(),
    employee_id: Type.Integer(),
    company_id: Type.Integer(),
    pay_period_start: Type.String(),
    pay_period_end: Type.String(),
    ...statutory,
    custom_contribution_records: Type.Array(Type.Ref('CustomContributionRecord')),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Contribution' },
);
const EmbeddedUser = Type.Object({
  id: Type.Integer(),
  employee_id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  personal_email: Type.String(),
  unique_id: Type.String(),
  user_types: NullableString,
  title: NullableString,
  department: NullableString,
  level: NullableString,
  office_location: NullableString,
  payment_frequency: NullableString,
  is_active: Type.Boolean(),
  company_id: Type.Integer(),
  deleted_at: NullableString,
});
export const ListedPaystub = Type.Object({
  ...paystubFields,
  user: Type.Union([Type.Null(), EmbeddedUser]),
  contribution: Type.Union([Type.Null(), Type.Ref('Contribution')]),
});
/** P1's answer (the paystubs route; paystubs.json.test.ts compiles its serializer to compare the database's text with it). */
export const PaystubsPage = Type.Object({ message: Type.String(), data: LaravelPage(ListedPaystub) });
const ContributionDetails = Type.Object({
  id: Type.Integer(),
  paystub_id: Type.Integer(),
  employee_id: Type.Integer(),
  pay_period_start: Type.String(),
  pay_period_end: Type.String(),
  contribution_details: Type.String(),
  custom_contribution_records: Type.Array(Type.Ref('CustomContributionRecord')),
  created_at: Timestamp,
});

/** S4/S5 paging (contributions.paging.validation.ts): checked there, so a bad value is the settings family's 422. */
export const ContributionsQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'from 1; default 1' })),
  per_page: Type.Optional(Type.String({ description: 'from 1 to 1000; default 1000' })),
});
export const ContributionsResponse = Type.Object({
  message: Type.String(),
  data: Type.Array(ContributionDetails),
  meta: Type.Object({ current_page: Type.Integer(), per_page: Type.Integer(), has_more: Type.Boolean() }),
});

export const errors = errorResponses(MessageError);
