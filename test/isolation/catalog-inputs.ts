// Requests for every route of the catalog, in company A of the isolation world: a value for each
// path parameter and a valid body where one made from the route's schema alone would be refused
// before reaching the database. Shared by the input-safety probes and the audit coverage walk.
import type { App } from '../../src/app.js';
import { companyBody } from '../helpers/companies.js';
import { createInvoiceViaApi, invoiceBody } from '../helpers/companies-invoices.js';
import { paystubItem } from '../helpers/payroll.js';
import type { World } from './world.js';

export interface CatalogInputs {
  pathValues: Record<string, (url: string) => string>;
  bases: Record<string, Record<string, unknown>>;
}

export async function catalogInputs(app: App, world: World): Promise<CatalogInputs> {
  const { a } = world;
  const invoice = await createInvoiceViaApi(app, a.company, invoiceBody(a.userEmail));
  // A schedule of A's, so that the probes of /api/pay-schedules/{id} reach its body's checks.
  const schedule = (
    await app.inject({
      method: 'POST',
      url: '/api/pay-schedules',
      headers: a.company.auth,
      payload: { name: 'Probe schedule', frequency: 'monthly', pay_day: 'last_working_day', first_period_start: '2032-01-01' },
    })
  ).json().pay_schedule as { id: number };
  const pathValues: CatalogInputs['pathValues'] = {
    id: (url) => String(url.startsWith('/api/companies') ? a.child : url.startsWith('/api/pay-schedules') ? schedule.id : a.userId),
    company_id: () => String(a.company.id),
    contribution_id: () => String(a.contributionId),
    user_id: () => String(a.userId),
    transaction_id: () => invoice.transaction_id,
    delivery_id: () => '1',
    file: () => 'nsitf.csv',
    year: () => '2026',
  };
  const settings = await app.inject({ method: 'GET', url: `/api/contribution-settings/${a.company.id}`, headers: a.company.auth });
  const { id: _id, company_id: _company, created_at: _created, updated_at: _updated, ...settingValues } = settings.json().data;
  // Valid bodies where a body made from the schema alone would be refused before reaching the
  // database; the probes change one field of these.
  const bases: CatalogInputs['bases'] = {
    'users.store': {
      first_name: 'Nula',
      last_name: 'Probe',
      personal_email: 'nula.probe@mail.test',
      domain_name: a.domain,
      user_types: 'Full-time',
      start_date: '2024-01-01',
      title: 'Engineer',
      department: 'Ops',
      office_location: 'Lagos',
      bank_name: 'Bank',
      account_number: '0123456789',
      base_salary: '1000.00',
      allowances: '10.00',
      roles: ['user'],
    },
    'users.update': { first_name: 'Alice', title: 'Engineer', department: 'Ops', office_location: 'Lagos', bank_name: 'Bank' },
    'users.suspend': { suspension_duration_type: 'indefinite', suspension_reason: 'Leave' },
    'users.unsuspend': { unsuspend_option: 'immediately' },
    'users.terminate': { exit_date: '2026-03-31', reason: 'resignation' },
    'users.reinstate': {},
    // Opening year-to-date: each figure as text, so that every one is probed with a NUL.
    'users.year-to-date.update': {
      gross_pay: '1000',
      taxable_pay: '1000',
      tax_withheld: '0',
      employee_pension: '0',
      nhf: '0',
      nhis: '0',
      months: '1',
    },
    'paystubs.store': {
      paystubs: [
        {
          ...paystubItem(a.userId, { pay_period_start: '2025-03-01', pay_period_end: '2025-03-31' }),
          items: [{ type: 'bonus', amount: '10.00', description: 'Probe bonus' }],
        },
      ],
    },
    // An off-cycle run: its pay items' strings (type, description, origin_period) are probed too.
    'payroll-runs.store': {
      kind: 'off_cycle',
      reason: 'bonus',
      payment_date: '2026-03-20',
      users: [{ user_id: a.userId, items: [{ type: 'arrears', amount: '10.00', description: 'Probe', origin_period: '2026-01' }] }],
    },
    'loans.store': { kind: 'loan', principal: '1000', instalment: '100', start_period: '2026-05', interest_rate_annual: '1' },
    'loans.skip': { period: '2026-06' },
    'pay-schedules.store': { name: 'Nul probe', frequency: 'monthly', pay_day: 'last_working_day', first_period_start: '2031-01-01' },
    'pay-schedules.update': { name: 'Nul probe', frequency: 'monthly', pay_day: 'last_working_day', first_period_start: '2032-01-01' },
    'remittances.file': { kind: 'nsitf', month: '2026-03', amount: '1.00', paid_on: '2026-04-01', receipt_reference: 'Nul probe' },
    'pay-item-types.create': { code: 'nul_probe', name: 'Nul probe', treatment: 'earning', pensionable: true },
    'contribution-settings.update': settingValues,
    'custom-contributions.store': {
      name: 'Nul plan',
      type: 'amount',
      apply_to: 'gross_pay',
      responsibility: 'employee',
      employee_value: 10,
      frequency: 'per_paystub',
      user_types: ['Full-time'],
      users: [a.userEmail],
    },
    'custom-contributions.update': { name: 'Renamed plan', user_types: ['Full-time'], users: [a.userEmail] },
    'companies.store': { ...companyBody(), registration_id: 'RC-123' },
    'companies.update': { name: 'Renamed Ltd', address: '2 Marina', phone: '+2348000000000', registration_id: 'RC-456' },
    'invoices.store': invoiceBody(a.userEmail),
    'invoices.update': { description: 'Changed', provider_name: 'Other clinic', comment: 'Note' },
    'invoices.approve': { manager_email: a.userEmail, decision: 'approve', comment: 'ok' },
    'invoices.finance-approve': { finance_approver_email: a.userEmail, decision: 'approve', comment: 'ok' },
    'wallet.top-up': { amount: 2500, customer_email: 'payer@a.test', redirect_url: `https://${a.redirectHost}/done` },
    'webhooks.store': { url: 'https://93.184.215.14/nul', events: ['*'], description: 'Nul hook' },
    'webhooks.update': { url: 'https://93.184.215.14/nul', events: ['*'], description: 'Nul hook' },
  };
  return { pathValues, bases };
}
