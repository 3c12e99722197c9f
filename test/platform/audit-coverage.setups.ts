// Requests that succeed, for the write routes whose catalog sample cannot: a route that needs a
// resource in a given state (a loan to skip, a failed run to retry, a delivery to retry, a
// terminated employee to reinstate), a file upload, or an approver who is not the employee. Each
// set-up builds what its request needs through the API (or a factory) of a company of its own, and
// answers the request; the audit coverage walk then counts that company's events around the request
// alone, so the set-up's own writes never stand in for the route's.
import type { App } from '../../src/app.js';
import { type Executor, queryRows, sql } from '../../src/db/client.js';
import { validNuban } from '../helpers/banks.js';
import { createApprovers, createInvoiceViaApi, invoiceBody } from '../helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../helpers/factories.js';
import { as } from '../helpers/http.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../helpers/payroll-runs.js';
import { createUserViaApi, generatedUsers, multipart, usersCsv } from '../helpers/users.js';

export interface CoverageRequest {
  company: TestCompany;
  url: string;
  payload?: object | string;
  headers?: Record<string, string>;
}

type Setup = () => Promise<CoverageRequest>;

async function ok(app: App, company: TestCompany, method: 'POST' | 'PUT', url: string, payload: object = {}) {
  const res = await as(app, company).request(method, url, payload);
  if (res.statusCode >= 300) throw new Error(`set-up ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function coverageSetups(app: App, db: Executor): Record<string, Setup> {
  /** A company whose token approves runs, an admin who is not the token, and one salaried employee. */
  async function payingCompany(accountNumber = '0123456789') {
    const company = await createCompany(db, { runApproval: 'token' });
    const [boss] = await createUsers(db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const [staff] = await createUsers(db, company.id, [{ baseSalary: '300000.00' }]);
    await setBankAccounts(db, [staff.id], accountNumber);
    return { company, boss, staff };
  }
  async function draftRun(company: TestCompany): Promise<string> {
    return (await ok(app, company, 'POST', '/api/payroll-runs', runBody())).run.id;
  }
  async function approvedRun(company: TestCompany, boss: { email: string }): Promise<string> {
    const id = await draftRun(company);
    await ok(app, company, 'POST', `/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    return id;
  }
  async function employee() {
    const company = await createCompany(db);
    const [user] = await createUsers(db, company.id, [{ baseSalary: '300000.00' }]);
    return { company, user };
  }
  async function loan() {
    const { company, user } = await employee();
    const body = { kind: 'loan', principal: '1000', instalment: '100', start_period: '2026-05' };
    return { company, id: (await ok(app, company, 'POST', `/api/users/${user.id}/loans`, body)).loan.id as number };
  }
  async function endpoint() {
    const company = await createCompany(db);
    const body = { url: 'https://93.184.215.14/coverage', events: ['*'], description: 'Coverage hook' };
    return { company, id: (await ok(app, company, 'POST', '/api/webhook-endpoints', body)).endpoint.id as number };
  }
  async function invoiceWithApprovers() {
    const company = await createCompany(db);
    const [claimant] = await createUsers(db, company.id, [{}]);
    const manager = `manager.${company.id}@${company.domain}`;
    const finance = `finance.${company.id}@${company.domain}`;
    await createApprovers(db, company.id, [manager, finance]);
    const invoice = await createInvoiceViaApi(app, company, invoiceBody(claimant.email));
    return { company, manager, finance, id: invoice.transaction_id };
  }
  const upload = (company: TestCompany, url: string, field: string, csv: string): CoverageRequest => {
    const { payload, headers } = multipart({}, [{ field, filename: `${field}.csv`, contentType: 'text/csv', data: csv }]);
    return { company, url, payload, headers };
  };

  return {
    'users.update': async () => {
      const { company, user } = await employee();
      return { company, url: `/api/users/${user.id}`, payload: { first_name: 'Renamed', title: 'Lead' } };
    },
    'users.verify-bank-account': async () => {
      const company = await createCompany(db);
      const user = await createUserViaApi(app, company, { bank_name: 'GTBank', account_number: validNuban('058') });
      return { company, url: `/api/users/${user.id}/bank-account/verify` };
    },
    'users.bulk-create': async () => {
      const company = await createCompany(db);
      return upload(company, '/api/users/bulk-create', 'users_csv', usersCsv(generatedUsers(2, company.domain)));
    },
    'users.bulk-update': async () => {
      const { company, user } = await employee();
      return upload(company, '/api/users/bulk-update', 'users_csv', usersCsv([{ email: user.email, title: 'Lead' }], { update: true }));
    },
    'users.terminate': async () => {
      const { company, user } = await employee();
      return { company, url: `/api/users/${user.id}/terminate`, payload: { exit_date: '2026-03-31', reason: 'resignation' } };
    },
    'users.reinstate': async () => {
      const { company, user } = await employee();
      await ok(app, company, 'POST', `/api/users/${user.id}/terminate`, { exit_date: '2026-03-31', reason: 'resignation' });
      return { company, url: `/api/users/${user.id}/reinstate`, payload: {} };
    },
    'users.year-to-date.import': async () => {
      const { company, user } = await employee();
      const csv = `email,year,gross_pay,taxable_pay,tax_withheld,employee_pension,nhf,nhis,months\n${user.email},2026,1000,1000,0,0,0,0,1\n`;
      return upload(company, '/api/year-to-date/import', 'year_to_date_csv', csv);
    },
    'loans.skip': async () => {
      const { company, id } = await loan();
      return { company, url: `/api/loans/${id}/skip`, payload: { period: '2026-06' } };
    },
    'loans.settle': async () => {
      const { company, id } = await loan();
      return { company, url: `/api/loans/${id}/settle`, payload: {} };
    },
    'loans.write-off': async () => {
      const { company, id } = await loan();
      return { company, url: `/api/loans/${id}/write-off`, payload: {} };
    },
    'invoices.approve': async () => {
      const { company, manager, id } = await invoiceWithApprovers();
      return { company, url: `/api/invoices/${id}/approve`, payload: { manager_email: manager, decision: 'approve', comment: 'ok' } };
    },
    'invoices.finance-approve': async () => {
      const { company, manager, finance, id } = await invoiceWithApprovers();
      await ok(app, company, 'PUT', `/api/invoices/${id}/approve`, { manager_email: manager, decision: 'approve', comment: 'ok' });
      const payload = { finance_approver_email: finance, decision: 'approve', comment: 'ok' };
      return { company, url: `/api/invoices/${id}/finance-approve`, payload };
    },
    'payroll-runs.store': async () => {
      const { company } = await payingCompany();
      return { company, url: '/api/payroll-runs', payload: runBody() };
    },
    'payroll-runs.approve': async () => {
      const { company, boss } = await payingCompany();
      return { company, url: `/api/payroll-runs/${await draftRun(company)}/approve`, payload: { approver_email: boss.email } };
    },
    'payroll-runs.pay': async () => {
      const { company, boss } = await payingCompany();
      const id = await approvedRun(company, boss);
      await fundWallet(app, db, company, 1_000_000);
      return { company, url: `/api/payroll-runs/${id}/pay`, payload: {} };
    },
    'payroll-runs.retry': async () => {
      // The sandbox refuses accounts that start with 999: the run fails, and retry sends again.
      const { company, boss } = await payingCompany('999000001');
      const id = await approvedRun(company, boss);
      await fundWallet(app, db, company, 1_000_000);
      await ok(app, company, 'POST', `/api/payroll-runs/${id}/pay`);
      await drainJobs(app);
      return { company, url: `/api/payroll-runs/${id}/retry`, payload: {} };
    },
    'payroll-runs.cancel': async () => {
      const { company } = await payingCompany();
      return { company, url: `/api/payroll-runs/${await draftRun(company)}/cancel`, payload: {} };
    },
    'webhooks.update': async () => {
      const { company, id } = await endpoint();
      return { company, url: `/api/webhook-endpoints/${id}`, payload: { description: 'Changed' } };
    },
    'webhooks.destroy': async () => {
      const { company, id } = await endpoint();
      return { company, url: `/api/webhook-endpoints/${id}` };
    },
    'webhooks.rotate-secret': async () => {
      const { company, id } = await endpoint();
      return { company, url: `/api/webhook-endpoints/${id}/rotate-secret`, payload: {} };
    },
    'webhooks.test': async () => {
      const { company, id } = await endpoint();
      return { company, url: `/api/webhook-endpoints/${id}/test`, payload: {} };
    },
    'webhooks.retry': async () => {
      const { company, id } = await endpoint();
      const { event_id } = await ok(app, company, 'POST', `/api/webhook-endpoints/${id}/test`);
      const [delivery] = await queryRows<{ id: number }>(db, sql`SELECT id FROM webhook_deliveries WHERE event_id = ${event_id}`);
      return { company, url: `/api/webhook-endpoints/${id}/deliveries/${delivery.id}/retry`, payload: {} };
    },
  };
}
