// Child companies and invoices (docs/companies-invoices.md).
import type { OperationDoc } from './types.js';

export const COMPANIES_OPERATIONS: Record<string, OperationDoc> = {
  'companies.index': {
    description:
      'Companies created by the authenticated company (or by a descendant named in `company_id`), in the Laravel paginator family.',
  },
  'companies.store': {
    description: 'Creates a child company and invites its super admin by e-mail. The domain must not be used by another company.',
    required: ['name', 'first_name', 'last_name', 'personal_email', 'title', 'domain_name', 'email_template', 'payment_frequency'],
    body: {
      name: 'Adebayo Logistics Abuja Ltd',
      address: 'Plot 112 Adetokunbo Ademola Crescent, Wuse II, Abuja',
      phone: '+2348091234567',
      first_name: 'Ngozi',
      last_name: 'Eze',
      personal_email: 'ngozi.eze@example.com',
      title: 'Managing Director',
      domain_name: 'abuja.adebayo-logistics.ng',
      email_template: 'default',
      payment_frequency: 'monthly',
      sector: 'private',
      rc_number: 'RC7654321',
    },
  },
  'companies.show': { description: 'One company below the caller.' },
  'companies.update': {
    description: 'Changes a company below the caller (name, contact details, code, domain, registrations).',
    body: { phone: '+2348097654321', pencom_employer_code: 'PR0000654321' },
  },
  'companies.deactivate': { description: 'Deactivates a company below the caller; its token is refused at once.' },
  'companies.activate': { description: 'Activates (and approves) a company below the caller.' },
  'invoices.index': { description: 'Invoices (claims) of the target company, in the Laravel paginator family.' },
  'invoices.show': { description: 'One invoice with its approval trail and payments.' },
  'invoices.store': {
    description:
      'Creates a claim for an employee; it waits for the manager’s approval, then finance’s. `amount_requested` is at most `total_amount`.',
    required: ['user_email', 'description', 'service_date', 'provider_name', 'total_amount', 'amount_requested', 'category_name'],
    body: {
      user_email: 'chiamaka.okafor@adebayo-logistics.ng',
      description: 'Outpatient consultation at Reddington Hospital',
      service_date: '2025-05-20',
      provider_name: 'Reddington Hospital',
      total_amount: '45000.00',
      amount_requested: '45000.00',
      category_name: 'Medical',
      subcategory_name: 'Consultation',
      payment_method: 'self',
    },
  },
  'invoices.update': {
    description: 'Changes the details while the invoice waits for the manager, or records one payment (`amount_paid`) once it is approved.',
    body: { amount_paid: '45000.00' },
  },
  'invoices.approve': {
    description: 'The manager approves or rejects; with `notify_finance`, the finance approver is e-mailed.',
    required: ['manager_email', 'decision'],
    body: {
      manager_email: 'tunde.adeyemi@adebayo-logistics.ng',
      decision: 'approve',
      comment: 'Receipt checked',
      notify_finance: true,
      finance_approver_email: 'ngozi.eze@adebayo-logistics.ng',
    },
  },
  'invoices.finance-approve': {
    description: 'Finance approves or denies an invoice the manager approved.',
    required: ['finance_approver_email', 'decision'],
    body: { finance_approver_email: 'ngozi.eze@adebayo-logistics.ng', decision: 'approve', comment: 'Pay with the May run' },
  },
  'invoices.destroy': { description: 'Deletes an invoice that is neither paid nor partially paid.' },
};
