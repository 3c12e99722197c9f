// Request and response schemas of the /api/companies routes (docs/reference.md, C1-C6). The bodies
// are read and checked by companies.validation.ts (every problem at once); these document them.
import { Type } from 'typebox';
import { CompaniesError, CompanyIdInput, errorResponses } from '../../platform/schemas.js';
import { CompanyStatutoryBodyProperties, CompanyStatutoryProperties } from './companies.statutory.service.js';

const Nullable = (description?: string) => Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 255, description })]));
const Text = (description: string, maxLength = 255) => Type.Optional(Type.String({ maxLength, description }));
const RunApprovalText = Text("Who approves the child's payroll runs: person (default) or token", 20);

export const CompanySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    address: Type.Union([Type.Null(), Type.String()]),
    phone: Type.Union([Type.Null(), Type.String()]),
    registration_id: Type.Union([Type.Null(), Type.String()]),
    email_template: Type.Union([Type.Null(), Type.String()]),
    payment_frequency: Type.String(),
    created_by: Type.Union([Type.Null(), Type.Integer()]),
    status: Type.String(),
    domain: Type.String(),
    is_active: Type.Boolean(),
    run_approval: Type.Union([Type.Literal('person'), Type.Literal('token')], {
      description: "Who approves payroll runs: 'person' (a token's approve asks an administrator, who approves in the console) or 'token'",
    }),
    ...CompanyStatutoryProperties,
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Company' },
);

export const IdParams = Type.Object({ id: Type.String({ description: 'Company id' }) });
export const errors = errorResponses(CompaniesError);
export const family = 'companies' as const;

export const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  company_id: CompanyIdInput,
});
export const CompaniesPage = Type.Object({
  data: Type.Array(Type.Ref('Company')),
  current_page: Type.Integer(),
  per_page: Type.Integer(),
  last_page: Type.Integer(),
  total: Type.Integer(),
});

export const CreateBody = Type.Object({
  name: Text('Company name (required)'),
  address: Nullable(),
  phone: Nullable(),
  registration_id: Nullable('Unique across companies'),
  first_name: Text('Super admin first name (required)'),
  last_name: Text('Super admin last name (required)'),
  personal_email: Text('Super admin personal e-mail, unique among all users (required)'),
  title: Text('Super admin title (required)'),
  domain_name: Text('Company e-mail domain, unique among companies (required)'),
  email_template: Text('Required', 65_535),
  payment_frequency: Text('weekly, bi-weekly or monthly (required)'),
  run_approval: RunApprovalText,
  ...CompanyStatutoryBodyProperties,
});

export const UpdateBody = Type.Object({
  name: Text('Company name'),
  address: Nullable(),
  phone: Nullable(),
  registration_id: Nullable('Unique across companies; null clears it'),
  email_template: Text('E-mail template', 65_535),
  code: Text('2 to 20 letters or digits, unique (stored upper-case)'),
  domain: Text('Unique among companies'),
  payment_frequency: Text('weekly, bi-weekly or monthly'),
  run_approval: RunApprovalText,
  ...CompanyStatutoryBodyProperties,
});

export const MessageAnswer = Type.Object({ message: Type.String() });
