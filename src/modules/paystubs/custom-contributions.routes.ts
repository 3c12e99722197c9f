// S6-S10 custom contribution routes. Family `settings`: errors {error: message}, validation 422.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { typed } from '../../platform/deps.js';
import { parseRowId } from '../../platform/input-safety.js';
import { tenantId } from '../../platform/request-context.js';
import { errorResponses, MessageError, MoneyInput } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';
import { CUSTOM_NOT_FOUND, CUSTOM_UPDATE_NOT_FOUND, type createCustomContributionsService } from './custom-contributions.service.js';

const FORBIDDEN = "You do not have permission to access this company's custom contributions.";
const tenancy = (notFound: string): TenancyMessages => ({ source: 'path', pathParam: 'company_id', forbidden: FORBIDDEN, notFound });
/** The config of a route on one contribution: an unknown company and an unknown contribution share the 404. */
const onOne = (notFound: string) => ({ tenancy: tenancy(notFound), notFoundMessage: notFound });

const Literals = <T extends string>(...values: T[]) => Type.Union(values.map((value) => Type.Literal(value)));
const Value = MoneyInput('null for the party that does not pay; at most 2 decimals');

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
  tax_deductible: Type.Optional(Type.Boolean()),
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
    tax_deductible: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
    targets: Type.Array(TargetSchema),
  },
  { $id: 'CustomContribution' },
);

const CompanyParams = Type.Object({ company_id: Type.String() });
const ItemParams = Type.Object({ company_id: Type.String(), contribution_id: Type.String() });
/** A contribution id that is not a positive integer cannot exist: 404 like any unknown id. */
const contributionId = (raw: string) => parseRowId(raw) ?? null;
const One = Type.Object({ message: Type.String(), data: Type.Ref('CustomContribution') });

const errors = errorResponses(MessageError);

export async function customContributionsRoutes(
  root: FastifyInstance,
  service: ReturnType<typeof createCustomContributionsService>,
): Promise<void> {
  const app = typed(root);
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
        response: { 200: Type.Object({ message: Type.String(), data: Type.Array(Type.Ref('CustomContribution')) }), ...errors },
      },
    },
    async (request) => ({
      message: 'Custom contributions retrieved successfully',
      data: await service.list(tenantId(request)),
    }),
  );

  app.get(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.show', family: 'settings', ...onOne(CUSTOM_NOT_FOUND) },
      schema: { tags, summary: 'S7. One custom contribution', params: ItemParams, response: { 200: One, ...errors } },
    },
    async (request) => ({
      message: 'Custom contribution retrieved successfully',
      data: await service.show(tenantId(request), contributionId(request.params.contribution_id)),
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
        response: { 201: One, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: 'Custom contribution created successfully',
        data: await service.create(tenantId(request), request.body),
      }),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/api/custom-contributions/:company_id/:contribution_id',
      {
        config: { name: 'custom-contributions.update', family: 'settings', ...onOne(CUSTOM_UPDATE_NOT_FOUND) },
        schema: {
          tags,
          summary: 'S9. Update a custom contribution; user_types or users replace the targets',
          params: ItemParams,
          body: UpdateBody,
          response: { 200: One, ...errors },
        },
      },
      async (request) => ({
        message: 'Custom contribution updated successfully',
        data: await service.update(tenantId(request), contributionId(request.params.contribution_id), request.body),
      }),
    );
  }

  app.delete(
    '/api/custom-contributions/:company_id/:contribution_id',
    {
      config: { name: 'custom-contributions.destroy', family: 'settings', ...onOne(CUSTOM_NOT_FOUND) },
      schema: {
        tags,
        summary: 'S10. Delete a custom contribution (records already on paystubs stay)',
        params: ItemParams,
        response: { 200: Type.Object({ message: Type.String() }), ...errors },
      },
    },
    async (request) => {
      await service.remove(tenantId(request), contributionId(request.params.contribution_id));
      return { message: 'Custom contribution deleted successfully' };
    },
  );
}
