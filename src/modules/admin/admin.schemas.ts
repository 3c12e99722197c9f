// Request and response schemas of the operator API (/admin, admin.routes.ts). The AdminCompany
// resource itself is in admin.serializer.ts.
import { Type } from 'typebox';
import { CompanyStatutoryBodyProperties } from '../companies/index.js';
import { PAYMENT_FREQUENCIES } from './admin.service.js';

const Strings = (maxItems = 100) => Type.Array(Type.String({ maxLength: 255 }), { maxItems });
const Plan = Type.Union([Type.Literal('standard'), Type.Literal('premium'), Type.Literal('enterprise')]);
const RunApprovalField = Type.Optional(
  Type.String({ maxLength: 20, description: 'Who approves payroll runs: person (default: an administrator in the console) or token' }),
);

export const IdParams = Type.Object({ id: Type.String() });
export const TokenBody = Type.Object({ token: Type.String(), expires_at: Type.String(), scopes: Type.Array(Type.String()) });

export const CompanyCreateBody = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    domain: Type.String({ maxLength: 253 }),
    plan: Type.Optional(Plan),
    payment_frequency: Type.Optional(Type.Union(PAYMENT_FREQUENCIES.map((value) => Type.Literal(value)))),
    run_approval: RunApprovalField,
    user_types: Type.Optional(Strings()),
    roles: Type.Optional(Strings()),
    redirect_domains: Type.Optional(Strings()),
    scopes: Type.Optional(Strings()),
  },
  { additionalProperties: false },
);

export const CompanyCreatedAnswer = Type.Object({
  company: Type.Ref('AdminCompany'),
  token: Type.String(),
  expires_at: Type.String(),
  scopes: Type.Array(Type.String()),
});

export const CompanyUpdateBody = Type.Object(
  {
    plan: Type.Optional(Plan),
    api_access: Type.Optional(Type.Boolean()),
    add_domains: Type.Optional(Strings()),
    add_user_types: Type.Optional(Strings()),
    add_roles: Type.Optional(Strings()),
    redirect_domains: Type.Optional(Strings()),
    run_approval: RunApprovalField,
    ...CompanyStatutoryBodyProperties,
  },
  { additionalProperties: false },
);

export const TokenRequestBody = Type.Object({ scopes: Type.Optional(Strings()) }, { additionalProperties: false });

export const OutboxListQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 320 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

export const OutboxAnswer = Type.Object({
  messages: Type.Array(
    Type.Object({
      id: Type.Integer(),
      to: Type.String(),
      subject: Type.String(),
      text: Type.String(),
      created_at: Type.String(),
      sent_at: Type.Union([Type.Null(), Type.String()]),
    }),
  ),
});
