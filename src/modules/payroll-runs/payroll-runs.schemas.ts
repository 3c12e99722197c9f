// Request and response schemas of the /api/payroll-runs routes (docs/payroll-runs.md), with the
// route options both registrars share (tenancy messages, the error body, the empty-body hook).
import { Type } from 'typebox';
import { LaravelPage, MoneyInput, NullableString, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { OFF_CYCLE_REASONS } from './off-cycle/off-cycle.planner.js';
import { RUN_NOT_FOUND, RUN_STATUSES, RUNS_FORBIDDEN } from './payroll-runs.service.js';

export const LIST_TENANCY: TenancyMessages = { forbidden: RUNS_FORBIDDEN };
export const RUN_TENANCY: TenancyMessages = { forbidden: RUNS_FORBIDDEN, notFound: RUN_NOT_FOUND };

const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
const DateText = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
const Money = Type.Number();
const Amount = Type.Optional(MoneyInput('at least 0, at most 2 decimals'));
/** Pay items of a request: checked field by field by the service (422 naming `…items.N.field`). */
const PayItemsInput = Type.Optional(
  Type.Array(
    Type.Object({
      type: Type.Unknown({ description: 'an item type code (GET /api/pay-item-types)' }),
      amount: Type.Unknown({ description: 'greater than 0, at most 2 decimals' }),
      description: Type.Optional(Type.Unknown({ description: 'at most 200 characters' })),
      origin_period: Type.Optional(Type.Unknown({ description: 'YYYY-MM: the period arrears belong to (arrears only)' })),
    }),
    { maxItems: 50 },
  ),
);

export const RunSchema = Type.Object(
  {
    id: Type.String(),
    company_id: Type.Integer(),
    status: Type.Union(RUN_STATUSES.map((status) => Type.Literal(status))),
    kind: Type.Union([Type.Literal('regular'), Type.Literal('off_cycle')], {
      description: 'off_cycle: pays items only (bonus, correction, final pay)',
    }),
    reason: Type.Union([Type.Null(), ...OFF_CYCLE_REASONS.map((reason) => Type.Literal(reason))], {
      description: "an off-cycle run's reason",
    }),
    schedule_id: Type.Union([Type.Null(), Type.Integer()], {
      description: 'the pay schedule that created the run (GET /api/pay-schedules/{id})',
    }),
    pay_period_start: Type.String(),
    pay_period_end: Type.String(),
    payment_date: NullableString,
    created_by_email: NullableString,
    created_by_user_id: Type.Union([Type.Null(), Type.Integer()], { description: 'the user created_by_email names' }),
    approved_by_email: NullableString,
    approved_by_user_id: Type.Union([Type.Null(), Type.Integer()], { description: 'the administrator who approved' }),
    approved_via: Type.Union([Type.Null(), Type.Literal('console'), Type.Literal('email_link'), Type.Literal('token')], {
      description: 'console (signed in), email_link (signed in, from the approval e-mail) or token (run_approval: token)',
    }),
    approved_at: NullableString,
    paid_at: NullableString,
    cancelled_at: NullableString,
    created_at: Type.String(),
    updated_at: Type.String(),
    totals: Type.Object({
      employees: Type.Integer(),
      gross_pay: Money,
      regular_gross: Money,
      irregular_gross: Type.Number({ description: 'cash earnings of irregular pay items (bonus, 13th month, arrears, …)' }),
      tax_withheld: Money,
      tax_true_up: Type.Number({ description: 'the year-end true-ups included in tax_withheld (negative: refunds)' }),
      employee_pension: Money,
      employer_pension: Money,
      nhf: Money,
      nhis_employee: Money,
      nhis_employer: Money,
      other_deductions: Money,
      reimbursements: Money,
      net_pay: Money,
      employer_cost: Money,
    }),
    counts: Type.Object({
      unpaid: Type.Integer(),
      held: Type.Integer({ description: 'bank account changed after approval: waiting for approval of the new one' }),
      processing: Type.Integer(),
      paid: Type.Integer(),
      failed: Type.Integer(),
      cancelled: Type.Integer(),
    }),
    skipped: Type.Array(Type.Object({ user_id: Type.Integer(), reason: Type.String() })),
  },
  { $id: 'PayrollRun' },
);
export const RunAnswer = Type.Object({ message: Type.String(), run: Type.Ref('PayrollRun') });
export const ApprovalRequested = Type.Object({
  message: Type.String(),
  run: Type.Ref('PayrollRun'),
  approval_request: Type.Object({ approver_email: Type.String(), expires_at: Type.String() }),
});
const Overlap = Type.Object({
  paystub_id: Type.Integer(),
  user_id: Type.Integer(),
  other_paystub_id: Type.Integer(),
  period: Type.Object({ pay_period_start: Type.String(), pay_period_end: Type.String() }, { description: 'the other paystub' }),
});
const ErrorSchema = Type.Object({
  error: Type.Unknown({ description: 'a message, or {field: [messages]} on 422' }),
  required: Type.Optional(Type.String()),
  available: Type.Optional(Type.String()),
  shortfall: Type.Optional(Type.String()),
  paystub_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'paystubs waiting for approval of a new bank account' })),
  overlaps: Type.Optional(Type.Array(Overlap, { description: 'approve: paystubs that would be a second regular salary for a period' })),
});
export const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const CompanyBody = Type.Object({ company_id: CompanyId });
/** pay, retry and cancel need no body: an absent one is an empty one. */
export const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export const CreateBody = Type.Object({
  company_id: CompanyId,
  kind: Type.Optional(Type.Union([Type.Literal('regular'), Type.Literal('off_cycle')])),
  reason: Type.Optional(Type.String({ maxLength: 32, description: 'off_cycle: bonus, correction, final_pay or other' })),
  pay_period_start: Type.Optional(DateText),
  pay_period_end: Type.Optional(DateText),
  payment_date: Type.Optional(DateText),
  users: Type.Optional(
    Type.Array(Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), items: PayItemsInput }), {
      maxItems: 10_000,
      description: 'off_cycle: who is paid, and their items',
    }),
  ),
  user_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 10_000 })),
  items: Type.Optional(
    Type.Array(
      Type.Object({
        user_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
        taxable_income: Amount,
        other_allowances: Amount,
        reimbursements: Amount,
        items: PayItemsInput,
      }),
      { maxItems: 10_000 },
    ),
  ),
  created_by_email: Type.Optional(Type.String({ maxLength: 254 })),
});

export const ListQuery = Type.Object({
  company_id: CompanyId,
  status: Type.Optional(Type.Union(RUN_STATUSES.map((status) => Type.Literal(status)))),
  kind: Type.Optional(Type.Union([Type.Literal('regular'), Type.Literal('off_cycle')])),
  pay_period_start: Type.Optional(DateText),
  pay_period_end: Type.Optional(DateText),
  ...PageQueryFields,
});
export const RunsPage = Type.Object({
  message: Type.String(),
  data: LaravelPage(Type.Ref('PayrollRun')),
});
export const CompanyQuery = Type.Object({ company_id: CompanyId });
// approver_email is checked by the service after the run is found, so an unknown run is a 404
// whatever the body (as for every route with an id).
export const ApproveBody = Type.Object({ company_id: CompanyId, approver_email: Type.Optional(Type.String({ maxLength: 254 })) });
