// Request and response schemas of the S6-S10 custom contribution routes (docs/reference.md), with
// the route options both registrars share. Family `settings`: errors {error: message}, validation 422.
import { Type } from 'typebox';
import { parseRowId } from '../../platform/input-safety.js';
import { errorResponses, MessageError, MoneyInput } from '../../platform/schemas.js';
import type { TenancyMessages } from '../../platform/types.js';

const FORBIDDEN = "You do not have permission to access this company's custom contributions.";
export const tenancy = (notFound: string): TenancyMessages => ({ source: 'path', pathParam: 'company_id', forbidden: FORBIDDEN, notFound });
/** The config of a route on one contribution: an unknown company and an unknown contribution share the 404. */
export const onOne = (notFound: string) => ({ tenancy: tenancy(notFound), notFoundMessage: notFound });

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
export const CreateBody = Type.Object(fields);
export const UpdateBody = Type.Object(Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)])));

const TargetSchema = Type.Object({
  id: Type.Integer(),
  custom_contribution_id: Type.Integer(),
  user_type_id: Type.Union([Type.Null(), Type.Integer()]),
  user_id: Type.Union([Type.Null(), Type.Integer()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const ValueOut = Type.Union([Type.Null(), Type.Number(), Type.String()]);
export const CustomContributionSchema = Type.Object(
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

export const CompanyParams = Type.Object({ company_id: Type.String() });
export const ItemParams = Type.Object({ company_id: Type.String(), contribution_id: Type.String() });
/** A contribution id that is not a positive integer cannot exist: 404 like any unknown id. */
export const contributionId = (raw: string) => parseRowId(raw) ?? null;
export const One = Type.Object({ message: Type.String(), data: Type.Ref('CustomContribution') });

export const errors = errorResponses(MessageError);
export const tags = ['payroll settings'];
