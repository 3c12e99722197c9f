// P1/P2 paystubs and S4/S5 contributions. Paystub errors are {error: message}; schema failures of
// the P1 query are 400 (family `paystubs`), of the P2 envelope `400 {error: "Bad Request"}`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { badRequest } from '../../platform/errors.js';
import { isRecord } from '../../platform/guards.js';
import { parseRowId } from '../../platform/input-safety.js';
import { tenantId } from '../../platform/request-context.js';
import { CompanyIdInput, errorResponses, LaravelPage, MessageError, NullableString, PageQueryFields } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { type createPaystubsService, PAYSTUBS_FORBIDDEN, PAYSTUBS_NOT_FOUND, USER_NOT_FOUND } from './paystubs.service.js';

const PAYSTUBS_TENANCY: TenancyMessages = { forbidden: PAYSTUBS_FORBIDDEN, notFound: PAYSTUBS_NOT_FOUND };
const CONTRIBUTIONS_FORBIDDEN = "You do not have permission to access this company's contributions.";
export const MAX_ITEMS = 1000;

const Money = Type.Number();
const Timestamp = Type.String();
const RecordSchema = Type.Object(
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
const PaystubItemSchema = Type.Object(
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
const PaystubSchema = Type.Object(paystubFields, { $id: 'Paystub' });
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
const ContributionSchema = Type.Object(
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
const ListedPaystub = Type.Object({
  ...paystubFields,
  user: Type.Union([Type.Null(), EmbeddedUser]),
  contribution: Type.Union([Type.Null(), Type.Ref('Contribution')]),
});
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

// S4/S5 paging (contributions.paging.validation.ts): checked there, so a bad value is the settings family's 422.
const ContributionsQuery = Type.Object({
  page: Type.Optional(Type.String({ description: 'from 1; default 1' })),
  per_page: Type.Optional(Type.String({ description: 'from 1 to 1000; default 1000' })),
});
const ContributionsResponse = Type.Object({
  message: Type.String(),
  data: Type.Array(ContributionDetails),
  meta: Type.Object({ current_page: Type.Integer(), per_page: Type.Integer(), has_more: Type.Boolean() }),
});

/** Runs before schema validation, which would coerce a lone object into an array. */
async function checkEnvelope(request: FastifyRequest) {
  const items = isRecord(request.body) ? request.body.paystubs : undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) throw badRequest('Bad Request');
}

const errors = errorResponses(MessageError);

export async function paystubsRoutes(root: FastifyInstance, service: ReturnType<typeof createPaystubsService>): Promise<void> {
  const app = typed(root);
  app.addSchema(RecordSchema);
  app.addSchema(PaystubItemSchema);
  app.addSchema(PaystubSchema);
  app.addSchema(ContributionSchema);

  app.get(
    '/api/paystubs',
    {
      config: { name: 'paystubs.index', family: 'paystubs', tenancy: PAYSTUBS_TENANCY },
      schema: {
        tags: ['paystubs'],
        summary: 'P1. List paystubs, newest first (filters combine)',
        querystring: Type.Object({
          company_id: CompanyIdInput,
          user_id: Type.Optional(Type.Integer({ minimum: 1 })),
          transaction_id: Type.Optional(Type.String({ maxLength: 64 })),
          status: Type.Optional(Type.String({ maxLength: 32 })),
          ...PageQueryFields,
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            data: LaravelPage(ListedPaystub),
          }),
          ...errors,
        },
      },
    },
    async (request) => service.list(tenantId(request), request.query, request.query),
  );

  app.post(
    '/api/paystubs',
    {
      config: { name: 'paystubs.store', family: 'paystubs', sensitive: true, tenancy: PAYSTUBS_TENANCY, badRequestMessage: 'Bad Request' },
      preValidation: checkEnvelope,
      schema: {
        tags: ['paystubs'],
        summary: 'P2. Create a payroll run (1 to 1,000 paystubs; each item succeeds or fails on its own)',
        body: Type.Object({
          company_id: CompanyIdInput,
          paystubs: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_ITEMS }),
        }),
        response: {
          201: Type.Object({
            message: Type.String(),
            transaction_id: Type.String(),
            created_paystubs: Type.Array(
              Type.Object({ paystub: Type.Ref('Paystub'), custom_contributions: Type.Array(Type.Ref('CustomContributionRecord')) }),
            ),
            failed_paystubs: Type.Array(Type.Object({ id: Type.Unknown(), errors: Type.Record(Type.String(), Type.Array(Type.String())) })),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createRun(tenantId(request), request.body.paystubs)),
  );

  app.get(
    '/api/contributions/:company_id',
    {
      config: {
        name: 'contributions.company',
        family: 'settings',
        tenancy: { source: 'path', pathParam: 'company_id', forbidden: CONTRIBUTIONS_FORBIDDEN, notFound: 'Company not found.' },
      },
      schema: {
        tags: ['payroll settings'],
        summary: "S4. A company's contribution records, in pages of up to 1000 (all of them when it has no more)",
        params: Type.Object({ company_id: Type.String() }),
        querystring: ContributionsQuery,
        response: { 200: ContributionsResponse, ...errors },
      },
    },
    async (request) => ({
      message: 'Contributions retrieved successfully',
      ...(await service.companyContributions(tenantId(request), request.query)),
    }),
  );

  app.get(
    '/api/contributions/user/:user_id',
    {
      config: {
        name: 'contributions.user',
        family: 'settings',
        tenancy: { forbidden: CONTRIBUTIONS_FORBIDDEN },
        notFoundMessage: USER_NOT_FOUND,
      },
      schema: {
        tags: ['payroll settings'],
        summary: "S5. One user's contribution records (optional company_id for a child company's user)",
        params: Type.Object({ user_id: Type.String() }),
        querystring: Type.Object({ company_id: CompanyIdInput, ...ContributionsQuery.properties }),
        response: { 200: ContributionsResponse, ...errors },
      },
    },
    async (request) => {
      const raw = request.params.user_id;
      const userId = parseRowId(raw) ?? null;
      return {
        message: 'User contributions retrieved successfully',
        ...(await service.userContributions(tenantId(request), userId, request.query)),
      };
    },
  );
}

export { USER_NOT_FOUND };
