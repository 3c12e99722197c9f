// /api/payroll-runs (docs/payroll-runs.md): create from salaries, list, show, approve, pay, retry,
// cancel. Errors are {error: message}; validation 422 {error: {field: [message]}}; a state that does
// not allow the action 409 {error}; an unaffordable pay or retry 409 adds required/available/shortfall.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { RouteName } from '../../platform/auth/tokens.js';
import { typed } from '../../platform/deps.js';
import { recoverAnswer } from '../../platform/idempotency-claims.js';
import { tenantId } from '../../platform/request-context.js';
import { LaravelPage, MoneyInput, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { OFF_CYCLE_REASONS } from './off-cycle.planner.js';
import type { createFunding } from './payroll-runs.funding.js';
import { type createPayrollRunsService, MESSAGES, RUN_NOT_FOUND, RUN_STATUSES, RUNS_FORBIDDEN } from './payroll-runs.service.js';

const LIST_TENANCY: TenancyMessages = { forbidden: RUNS_FORBIDDEN };
const RUN_TENANCY: TenancyMessages = { forbidden: RUNS_FORBIDDEN, notFound: RUN_NOT_FOUND };

const CompanyId = Type.Optional(Type.Union([Type.Integer(), Type.String()]));
const DateText = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
const Money = Type.Number();
const NullableString = Type.Union([Type.Null(), Type.String()]);
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

const RunSchema = Type.Object(
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
const RunAnswer = Type.Object({ message: Type.String(), run: Type.Ref('PayrollRun') });
const ApprovalRequested = Type.Object({
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
const errors = { '4xx': ErrorSchema, '5xx': ErrorSchema };
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const CompanyBody = Type.Object({ company_id: CompanyId });
/** pay, retry and cancel need no body: an absent one is an empty one. */
const emptyBody = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export function payrollRunsRoutes(services: {
  runs: ReturnType<typeof createPayrollRunsService>;
  funding: ReturnType<typeof createFunding>;
}) {
  const { runs, funding } = services;
  /** After a crash lost a run action's answer: its status and message, with the run as it is now (docs/decisions.md). */
  const recovered = (status: number, message: string) => ({
    recover: recoverAnswer(status, (request, id) => runs.recoverAnswer(tenantId(request), id, message)),
  });
  return async (root: FastifyInstance): Promise<void> => {
    const app = typed(root);
    app.addSchema(RunSchema);

    app.post(
      '/api/payroll-runs',
      {
        config: { name: 'payroll-runs.store', family: 'plain', tenancy: LIST_TENANCY, idempotency: recovered(201, MESSAGES.created) },
        schema: {
          tags: ['payroll runs'],
          summary: "Create a run from the employees' salaries, or an off-cycle run of pay items (draft)",
          body: Type.Object({
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
          }),
          response: { 201: RunAnswer, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send(await runs.create(tenantId(request), request.body)),
    );

    app.get(
      '/api/payroll-runs',
      {
        config: { name: 'payroll-runs.index', family: 'plain', tenancy: LIST_TENANCY },
        schema: {
          tags: ['payroll runs'],
          summary: 'List runs, newest first (period filters: start on or after, end on or before)',
          querystring: Type.Object({
            company_id: CompanyId,
            status: Type.Optional(Type.Union(RUN_STATUSES.map((status) => Type.Literal(status)))),
            kind: Type.Optional(Type.Union([Type.Literal('regular'), Type.Literal('off_cycle')])),
            pay_period_start: Type.Optional(DateText),
            pay_period_end: Type.Optional(DateText),
            ...PageQueryFields,
          }),
          response: {
            200: Type.Object({
              message: Type.String(),
              data: LaravelPage(Type.Ref('PayrollRun')),
            }),
            ...errors,
          },
        },
      },
      async (request) => runs.list(tenantId(request), request.query, request.query),
    );

    app.get(
      '/api/payroll-runs/:id',
      {
        config: { name: 'payroll-runs.show', family: 'plain', tenancy: RUN_TENANCY, notFoundMessage: RUN_NOT_FOUND },
        schema: {
          tags: ['payroll runs'],
          summary: 'One run with its totals and paystub counts',
          params: IdParams,
          querystring: Type.Object({ company_id: CompanyId }),
          response: { 200: RunAnswer, ...errors },
        },
      },
      async (request) => runs.show(tenantId(request), request.params.id),
    );

    app.post(
      '/api/payroll-runs/:id/approve',
      {
        config: {
          name: 'payroll-runs.approve',
          family: 'plain',
          tenancy: RUN_TENANCY,
          notFoundMessage: RUN_NOT_FOUND,
          idempotency: recovered(200, MESSAGES.approved),
        },
        preValidation: emptyBody,
        schema: {
          tags: ['payroll runs'],
          summary: 'Approve a draft run (run_approval token: 200) or ask an administrator to approve it in the console (person: 202)',
          description:
            "The approver is an active administrator of the company other than the run's creator (compared as users). " +
            "With the company's run_approval `person` (the default) the run stays draft, the approver is e-mailed a link to the run's " +
            'console page (72 hours) and approves there, signed in as themselves.',
          params: IdParams,
          // approver_email is checked by the service after the run is found, so an unknown run is a 404
          // whatever the body (as for every route with an id).
          body: Type.Object({ company_id: CompanyId, approver_email: Type.Optional(Type.String({ maxLength: 254 })) }),
          response: { 200: RunAnswer, 202: ApprovalRequested, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await runs.approve(tenantId(request), request.params.id, request.body?.approver_email);
        return reply.status('approval_request' in answer ? 202 : 200).send(answer);
      },
    );

    type Action = (companyId: number, id: string) => Promise<{ message: string; run: unknown }>;
    const action = (path: string, name: RouteName, summary: string, status: 200 | 202, run: Action, message: string) =>
      app.post(
        `/api/payroll-runs/:id/${path}`,
        {
          config: { name, family: 'plain', tenancy: RUN_TENANCY, notFoundMessage: RUN_NOT_FOUND, idempotency: recovered(status, message) },
          preValidation: emptyBody,
          schema: {
            tags: ['payroll runs'],
            summary,
            params: IdParams,
            body: CompanyBody,
            response: { [status]: RunAnswer, ...errors },
          },
        },
        async (request, reply) => reply.status(status).send((await run(tenantId(request), request.params.id)) as never),
      );
    action('pay', 'payroll-runs.pay', 'Pay an approved run from the wallet (202: transfers under way)', 202, funding.pay, MESSAGES.paying);
    action('retry', 'payroll-runs.retry', "Send a run's failed paystubs again, funding only those", 202, funding.retry, MESSAGES.paying);
    action(
      'cancel',
      'payroll-runs.cancel',
      'Cancel a draft or approved run (its paystubs become cancelled)',
      200,
      runs.cancel,
      MESSAGES.cancelled,
    );
  };
}
