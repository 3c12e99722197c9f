// S6-S10 custom contribution routes. Family `settings`: errors {error: message}, validation 422.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type AppDeps, typed } from '../../platform/deps.js';
import type { TenancyMessages } from '../../platform/types.js';
import {
  CUSTOM_NOT_FOUND,
  CUSTOM_UPDATE_NOT_FOUND,
  type CustomContributionInput,
  createCustomContributionsService,
} from './custom-contributions.service.js';
import { errorResponses } from './payroll.shared.js';

const FORBIDDEN = "You do not have permission to access this company's custom contributions.";
const tenancy = (notFound: string): TenancyMessages => ({ source: 'path', pathParam: 'company_id', forbidden: FORBIDDEN, notFound });

const Literals = <T extends string>(...values: T[]) => Type.Union(values.map((value) => Type.Literal(value)));
const Value = Type.Union([Type.Null(), Type.Number()]);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: Literals('amount', 'percentage'),
  apply_to: Literals('gross_pay', 'net_pay'),
  responsibility: Literals('employee', 'employer', 'both'),
  employee_value: Type.Optional(Value),
  employer_value: Type.Optional(Value),
  frequency: Literals('per_paystub', 'one_time'),
  user_types: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
  users: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10000 })),
  is_active: Type.Optional(Type.Boolean()),
};
const CreateBody = Type.Object(fields);
const UpdateBody = Type.Object(Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])));

const TargetSchema = Type.Object({
  id: Type.Integer(),
  custom_contribution_id: Type.Integer(),
  user_type_id: Type.Union([Type.Null(), Type.Integer()]),
  user_id: Type.Union([Type.Null(), Type.Integer()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const ValueOut = Type.Union([Type.Null(), Type.Number(), Type.String()]);
const CustomContributionSchema = Type.Object(
  {
    id: Type.Integer(),
    company_id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    apply_to: Type.String(),
    employee_responsibility: Type.Boolean(),
    employer_responsibility: Type.Boolean(),
    employee_value: ValueOut,
    employer_value: ValueOut,
    frequency: Type.Union([Type.Null(), Type.String()]),
    is_active: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
    targets: Type.Array(TargetSchema),
  },
  { $id: 'CustomContribution' },
);

const CompanyParams = Type.Object({ company_id: Type.String() });
const ItemParams = Type.Object({ company_id: Type.String(), contribution_id: Type.String() });
/** A contribution id that is not a positive integer cannot exist: 404 like any unknown id. */
const contributionId = (raw: string) => (/^[0-9]{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null);
const One = Type.Object({ message: Type.String(), data: Type.Ref('CustomContribution') });

export async function customContributionsRoutes(root: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = typed(root);
  const service = createCustomContributionsService(deps);
  app.addSchema(CustomContributionSchema);
  const tags = ['payroll settings'];

  app.get(
    '/api/custom-contributions/:company_id',
    {
      config: { name: 'custom-contributions.index', family: 'settings', tenancy: tenancy('Company not found.') },
      schema: {
        tags,
        summary: 'S6. Custom contributions of a company, with targets',
        params: CompanyParams,
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('CustomContribution')) }), ...errorResponses },
      },
    },
    async (request) => ({
      message: 'Custom contributions retrieved successfully',
      data: await service.list(request.targetCompanyId as number),
    }),
  );

  app.get(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.show', family: 'settings', tenancy: tenancy(CUSTOM_NOT_FOUND) },
      schema: { tags, summary: 'S7. One custom contribution', params: ItemParams, response: { 200: One, ...errorResponses } },
    },
    async (request) => ({
      message: 'Custom contribution retrieved successfully',
      data: await service.show(request.targetCompanyId as number, contributionId(request.params.contribution_id)),
    }),
  );

  app.post(
    '/api/custom-contributions/:company_id',
    {
      config: { name: 'custom-contributions.store', family: 'settings', tenancy: tenancy('Company not found.') },
      schema: {
        tags,
        summary: 'S8. Create a custom contribution (targets by user type name and by company or personal e-mail)',
        params: CompanyParams,
        body: CreateBody,
        response: { 201: One, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'Custom contribution created successfully',
        data: await service.create(request.targetCompanyId as number, request.body as CustomContributionInput),
      }),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/api/custom-contributions/:company_id/:contribution_id',
      {
        config: { name: 'custom-contributions.update', family: 'settings', tenancy: tenancy(CUSTOM_UPDATE_NOT_FOUND) },
        schema: {
          tags,
          summary: 'S9. Update a custom contribution; user_types or users replace the targets',
          params: ItemParams,
          body: UpdateBody,
          response: { 200: One, ...errorResponses },
        },
      },
      async (request) => ({
        message: 'Custom contribution updated successfully',
        data: await service.update(
          request.targetCompanyId as number,
          contributionId(request.params.contribution_id),
          request.body as CustomContributionInput,
        ),
      }),
    );
  }

  app.delete(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.destroy', family: 'settings', tenancy: tenancy(CUSTOM_NOT_FOUND) },
      schema: {
        tags,
        summary: 'S10. Delete a custom contribution (records already on paystubs stay)',
        params: ItemParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses },
      },
    },
    async (request) => {
      await service.remove(request.targetCompanyId as number, contributionId(request.params.contribution_id));
      return { message: 'Custom contribution deleted successfully' };
    },
  );
}
