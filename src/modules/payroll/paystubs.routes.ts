// P1/P2 paystubs and S4/S5 contributions. Paystub errors are {error: message}; schema failures of
// the P1 query are 400 (family `paystubs`), of the P2 envelope `400 {error: "Bad Request"}`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import { badRequest } from '../../platform/errors.js';
import type { TenancyMessages } from '../../platform/types.js';
import { errorResponses } from './payroll.shared.js';
import { createPaystubsService, PAYSTUBS_FORBIDDEN, PAYSTUBS_NOT_FOUND, USER_NOT_FOUND } from './paystubs.service.js';

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
  pension_contribution: Money,
  nhf_contribution: Money,
  nhis_contribution: Money,
  other_deductions: Money,
  status: Type.String(),
  transaction_id: Type.String(),
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
const NullableString = Type.Union([Type.Null(), Type.String()]);
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
const NullableUrl = Type.Union([Type.Null(), Type.String()]);
const NullableInt = Type.Union([Type.Null(), Type.Integer()]);
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

const CompanyIdInput = Type.Optional(Type.Union([Type.Integer(), Type.String()]));

/** Runs before schema validation, which would coerce a lone object into an array. */
async function checkEnvelope(request: FastifyRequest) {
  const body = request.body as { paystubs?: unknown } | undefined;
  const items = body && typeof body === 'object' && !Array.isArray(body) ? body.paystubs : undefined;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) throw badRequest('Bad Request');
}

export async function paystubsRoutes(root: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = typed(root);
  const service = createPaystubsService(deps);
  app.addSchema(RecordSchema);
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
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            data: Type.Object({
              current_page: Type.Integer(),
              data: Type.Array(ListedPaystub),
              first_page_url: Type.String(),
              from: NullableInt,
              last_page: Type.Integer(),
              last_page_url: Type.String(),
              next_page_url: NullableUrl,
              path: Type.String(),
              per_page: Type.Integer(),
              prev_page_url: NullableUrl,
              to: NullableInt,
              total: Type.Integer(),
            }),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => service.list(request.targetCompanyId as number, request.query, request.query as Record<string, unknown>),
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
          ...errorResponses,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createRun(request.targetCompanyId as number, request.body.paystubs)),
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
        summary: "S4. Every contribution record of a company's paystubs",
        params: Type.Object({ company_id: Type.String() }),
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(ContributionDetails) }), ...errorResponses },
      },
    },
    async (request) => ({
      message: 'Contributions retrieved successfully',
      data: await service.companyContributions(request.targetCompanyId as number),
    }),
  );

  app.get(
    '/api/contributions/user/:user_id',
    {
      config: { name: 'contributions.user', family: 'settings', tenancy: { forbidden: CONTRIBUTIONS_FORBIDDEN } },
      schema: {
        tags: ['payroll settings'],
        summary: "S5. One user's contribution records (optional company_id for a child company's user)",
        params: Type.Object({ user_id: Type.String() }),
        querystring: Type.Object({ company_id: CompanyIdInput }),
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(ContributionDetails) }), ...errorResponses },
      },
    },
    async (request) => {
      const raw = request.params.user_id;
      const userId = /^[0-9]{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
      return {
        message: 'User contributions retrieved successfully',
        data: await service.userContributions(request.targetCompanyId as number, userId),
      };
    },
  );
}

export { USER_NOT_FOUND };
