// The operator's view of a company: the Company resource of the published interface plus what only
// the operator manages (plan, API access, vocabularies).
import { Type } from 'typebox';
import { isoTimestamp } from '../../platform/format.js';
import { NullableString } from '../../platform/schemas.js';
import { type CompanyProfile, CompanyStatutoryProperties, serializeCompanyStatutory } from '../companies/index.js';

export const AdminCompanySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    address: NullableString,
    phone: NullableString,
    registration_id: NullableString,
    email_template: NullableString,
    payment_frequency: Type.String(),
    created_by: Type.Union([Type.Null(), Type.Integer()]),
    status: Type.String(),
    domain: Type.String(),
    is_active: Type.Boolean(),
    api_access: Type.Boolean(),
    run_approval: Type.String({ description: 'Who approves payroll runs: person or token' }),
    ...CompanyStatutoryProperties,
    plan: Type.String(),
    domains: Type.Array(Type.String()),
    user_types: Type.Array(Type.String()),
    roles: Type.Array(Type.String()),
    redirect_domains: Type.Array(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'AdminCompany' },
);

export function serializeAdminCompany(profile: CompanyProfile) {
  const c = profile.company;
  return {
    id: c.id,
    name: c.name,
    code: c.code,
    address: c.address,
    phone: c.phone,
    registration_id: c.registrationId,
    email_template: c.emailTemplate,
    payment_frequency: c.paymentFrequency,
    created_by: c.createdBy,
    status: c.status,
    domain: c.domain,
    is_active: c.isActive,
    api_access: c.apiAccess,
    run_approval: c.runApproval,
    ...serializeCompanyStatutory(c),
    plan: c.plan,
    domains: profile.domains,
    user_types: profile.userTypes,
    roles: profile.roles,
    redirect_domains: profile.redirectDomains,
    created_at: isoTimestamp(c.createdAt) as string,
    updated_at: isoTimestamp(c.updatedAt) as string,
  };
}
