import type { TextTimestamps } from '../../db/prepared.js';
import { isoTimestamp } from '../../platform/format.js';
import type { CompanyRow } from './companies.repo.js';
import { serializeCompanyStatutory } from './companies.statutory.service.js';

/** The Company resource of the published interface (plus created_at/updated_at); timestamps as Dates or PostgreSQL's text. */
export function serializeCompany(company: TextTimestamps<CompanyRow>) {
  return {
    id: company.id,
    name: company.name,
    code: company.code,
    address: company.address,
    phone: company.phone,
    registration_id: company.registrationId,
    email_template: company.emailTemplate,
    payment_frequency: company.paymentFrequency,
    created_by: company.createdBy,
    status: company.status,
    domain: company.domain,
    is_active: company.isActive,
    run_approval: company.runApproval,
    ...serializeCompanyStatutory(company),
    created_at: isoTimestamp(company.createdAt) as string,
    updated_at: isoTimestamp(company.updatedAt) as string,
  };
}
