// The operator API (docs/decisions.md, Operator API and CLI), keyed by operationId: its routes have no name.
import type { OperationDoc } from './types.js';

export const ADMIN_OPERATIONS: Record<string, OperationDoc> = {
  postAdminCompanies: {
    description: 'Creates a root company with its API token (shown once). Unknown fields are 422; a domain in use is 409.',
    body: {
      name: 'Adebayo Logistics Ltd',
      domain: 'adebayo-logistics.ng',
      plan: 'standard',
      payment_frequency: 'monthly',
      user_types: ['Full-time', 'Contract'],
      roles: ['user', 'admin'],
    },
  },
  patchAdminCompaniesById: {
    description: 'Changes a company’s plan, API access, domains, user types, roles, redirect domains, sector or registrations.',
    body: { plan: 'premium', add_domains: ['adebayo.com.ng'], redirect_domains: ['adebayo-logistics.ng'] },
  },
  postAdminCompaniesByIdToken: {
    description: 'Issues a new API token (shown once); the previous one stops working at once.',
    body: { scopes: ['users.*', 'payroll-runs.*', 'paystubs.index'] },
  },
  deleteAdminCompaniesByIdToken: { description: 'Revokes the company’s API token.' },
  getAdminOutbox: { description: 'E-mails in the outbox, newest first: without SMTP_URL, the outbox row is the delivery.' },
};
