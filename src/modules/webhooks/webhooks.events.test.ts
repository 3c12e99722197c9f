// Events wired into the features, end to end through the API: each change announces itself with
// `data` equal to what the API answers for the resource, and a bulk upload announces itself once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { companyBody } from '../../../test/helpers/companies.js';
import { createApprovers, createInvoiceViaApi, type InvoiceJson, invoiceBody } from '../../../test/helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { drainJobs, fundWallet, runBody, setBankAccounts } from '../../../test/helpers/payroll-runs.js';
import { generatedUsers, multipart, newUserBody, usersCsv } from '../../../test/helpers/users.js';
import { type Receiver, startReceiver, verified, webhookTestConfig } from '../../../test/helpers/webhooks.js';
import { queryRows, sql } from '../../db/client.js';

let ctx: TestContext;
let receiver: Receiver;
let acme: TestCompany;
let secret: string;

beforeAll(async () => {
  ctx = await createTestApp({ ...webhookTestConfig, sandboxTransferDelaySeconds: 0 });
  receiver = await startReceiver();
  acme = await createCompany(ctx.db, { name: 'Evented Ltd' });
  const res = await as(ctx.app, acme).post('/api/webhook-endpoints', { url: receiver.url('/all'), events: ['*'], include_children: true });
  secret = res.json().secret;
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

/** Delivers what is due and answers the verified bodies received since `from`. */
async function delivered(from: number) {
  await ctx.app.services.webhooks.deliveries.drain();
  return receiver
    .on('/all')
    .slice(from)
    .map((request) => verified(secret, request));
}

describe('wired events', () => {
  it('user.created, user.updated, user.deactivated, user.activated, user.deleted carry the user as the API shows it', async () => {
    const start = receiver.on('/all').length;
    const created = await as(ctx.app, acme).post('/api/users', newUserBody(acme));
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().user.id;
    const patched = await as(ctx.app, acme).request('PUT', `/api/users/${id}`, { title: 'Lead' });
    expect(patched.statusCode, patched.body).toBe(200);
    await as(ctx.app, acme).patch(`/api/users/${id}/deactivate`);
    await as(ctx.app, acme).patch(`/api/users/${id}/activate`);
    const shown = (await as(ctx.app, acme).get(`/api/users/${id}`)).json();
    await as(ctx.app, acme).delete(`/api/users/${id}`);
    const bodies = await delivered(start);
    expect(bodies.map((b) => b.type).sort()).toEqual(
      ['user.activated', 'user.created', 'user.deactivated', 'user.deleted', 'user.updated'].sort(),
    );
    const updated = bodies.find((b) => b.type === 'user.updated');
    expect(updated?.data).toMatchObject({ id, title: 'Lead' });
    const activated = bodies.find((b) => b.type === 'user.activated');
    const { updated_at: _u, ...stable } = shown.data ?? shown.user ?? shown;
    expect(activated?.data).toMatchObject({ id, email: stable.email });
  });

  it('a bulk upload of many rows announces users.import.completed once, never one event per row', async () => {
    const start = receiver.on('/all').length;
    const csv = usersCsv(generatedUsers(250, acme.domain));
    const form = multipart({}, [{ field: 'users_csv', filename: 'users.csv', contentType: 'text/csv', data: csv }]);
    const res = await as(ctx.app, acme).post('/api/users/bulk-create', form.payload, { headers: form.headers });
    expect(res.statusCode, res.body).toBe(200);
    const bodies = await delivered(start);
    expect(bodies.map((b) => b.type)).toEqual(['users.import.completed']);
    expect(bodies[0].data).toMatchObject({ operation: 'create', status: 'success', succeeded: 250, failed: 0 });
    expect(bodies[0].data.user_ids).toHaveLength(250);
  });

  it('invoice.approved (finance approval), invoice.rejected (manager or finance) and invoice.paid carry the invoice as the API answers it', async () => {
    const [employee] = await createUsers(ctx.db, acme.id, [{ firstName: 'Ann', lastName: 'Approved' }]);
    await createApprovers(ctx.db, acme.id, ['boss@evented.test', 'money@evented.test']);
    const manager = { manager_email: 'boss@evented.test', decision: 'approve' };
    const financeOk = { finance_approver_email: 'money@evented.test', decision: 'approve' };
    const start = receiver.on('/all').length;
    const paid = await createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email));
    expect((await as(ctx.app, acme).put(`/api/invoices/${paid.transaction_id}/approve`, manager)).statusCode).toBe(200);
    const approved = await as(ctx.app, acme).put(`/api/invoices/${paid.transaction_id}/finance-approve`, financeOk);
    expect(approved.statusCode, approved.body).toBe(200);
    const settled = await as(ctx.app, acme).put(`/api/invoices/${paid.transaction_id}`, { amount_paid: approved.json().invoice.balance });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().invoice.status).toBe('paid');
    const refused = await createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email));
    const rejected = await as(ctx.app, acme).put(`/api/invoices/${refused.transaction_id}/approve`, { ...manager, decision: 'reject' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const denied = await createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email));
    expect((await as(ctx.app, acme).put(`/api/invoices/${denied.transaction_id}/approve`, manager)).statusCode).toBe(200);
    const deniedByFinance = await as(ctx.app, acme).put(`/api/invoices/${denied.transaction_id}/finance-approve`, {
      ...financeOk,
      decision: 'deny',
    });
    expect(deniedByFinance.statusCode, deniedByFinance.body).toBe(200);

    const bodies = (await delivered(start)).filter((b) => b.type !== 'invoice.created');
    const of = (type: string, id: string) => bodies.filter((b) => b.type === type && (b.data as InvoiceJson).transaction_id === id);
    expect(of('invoice.approved', paid.transaction_id).map((b) => b.data)).toEqual([approved.json().invoice]);
    expect(of('invoice.paid', paid.transaction_id).map((b) => b.data)).toEqual([settled.json().invoice]);
    expect(of('invoice.rejected', refused.transaction_id).map((b) => b.data)).toEqual([rejected.json().invoice]);
    expect(of('invoice.rejected', denied.transaction_id).map((b) => b.data)).toEqual([deniedByFinance.json().invoice]);
    expect(bodies).toHaveLength(4);
  });

  it('company.created (reaching the parent through include_children), company.deactivated and company.activated', async () => {
    const start = receiver.on('/all').length;
    const made = await as(ctx.app, acme).post('/api/companies', companyBody({ name: 'Evented Child' }));
    expect(made.statusCode, made.body).toBe(201);
    const child = made.json().company;
    await as(ctx.app, acme).patch(`/api/companies/${child.id}/activate`);
    await as(ctx.app, acme).patch(`/api/companies/${child.id}/deactivate`);
    const bodies = await delivered(start);
    expect(bodies.map((b) => b.type)).toEqual(expect.arrayContaining(['company.created', 'company.activated', 'company.deactivated']));
    const created = bodies.find((b) => b.type === 'company.created');
    expect(created).toMatchObject({ company_id: child.id, data: { id: child.id, name: 'Evented Child' } });
  });

  it('invoice.created and invoice.deleted carry the invoice as I2 answers it', async () => {
    const [employee] = await createUsers(ctx.db, acme.id, [{ firstName: 'Ivy', lastName: 'Invoice' }]);
    const start = receiver.on('/all').length;
    const made = await as(ctx.app, acme).post('/api/invoices', invoiceBody(employee.email));
    expect(made.statusCode, made.body).toBe(201);
    const invoice = made.json().invoice;
    const removed = await as(ctx.app, acme).delete(`/api/invoices/${invoice.transaction_id}/destroy`);
    expect(removed.statusCode, removed.body).toBe(200);
    const bodies = await delivered(start);
    expect(bodies.map((b) => b.type)).toEqual(expect.arrayContaining(['invoice.created', 'invoice.deleted']));
    expect(bodies.find((b) => b.type === 'invoice.created')?.data).toEqual(invoice);
  });

  it('a paid run: wallet.credited, payroll_run.created and .approved, wallet.debited, one paystub.paid per paystub, payroll_run.paid', async () => {
    // A child of acme: its events reach acme's endpoint through include_children.
    const company = await createCompany(ctx.db, { name: 'Payday Ltd', createdBy: acme.id, runApproval: 'token' });
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(ctx.db, company.id, [{ baseSalary: '300000' }, { baseSalary: '450000' }]);
    await setBankAccounts(
      ctx.db,
      staff.map((u) => u.id),
    );
    const start = receiver.on('/all').length;
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    const created = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().run.id as string;
    const approved = await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect(approved.statusCode, approved.body).toBe(200);
    const paid = await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`);
    expect(paid.statusCode, paid.body).toBe(202);
    await drainJobs(ctx.app);
    const run = (await as(ctx.app, company).get(`/api/payroll-runs/${id}`)).json().run;
    expect(run.status).toBe('paid');

    const bodies = (await delivered(start)).filter((b) => b.company_id === company.id);
    const types = bodies.map((b) => b.type);
    expect(types.filter((t) => t !== 'paystub.paid').sort()).toEqual(
      ['payroll_run.approved', 'payroll_run.created', 'payroll_run.paid', 'wallet.credited', 'wallet.debited'].sort(),
    );
    const stubs = bodies.filter((b) => b.type === 'paystub.paid');
    expect(stubs).toHaveLength(staff.length);
    for (const stub of stubs) expect(stub.data).toMatchObject({ run_id: id, status: 'paid', failure_reason: null });
    expect(bodies.find((b) => b.type === 'payroll_run.created')?.data).toMatchObject({ id, status: 'draft' });
    expect(bodies.find((b) => b.type === 'payroll_run.paid')?.data).toEqual(run);
    expect(bodies.find((b) => b.type === 'wallet.credited')?.data).toMatchObject({ type: 'top_up', amount: '5000000.00' });
    expect(bodies.find((b) => b.type === 'wallet.debited')?.data).toMatchObject({ type: 'payroll_debit' });
  });

  it('a P2 call makes a run and announces it: payroll_run.created with the run GET /api/payroll-runs/{id} answers', async () => {
    const company = await createCompany(ctx.db, { name: 'Adhoc Ltd', createdBy: acme.id });
    const [worker] = await createUsers(ctx.db, company.id, [{ baseSalary: '300000' }]);
    const start = receiver.on('/all').length;
    const created = await as(ctx.app, company).post('/api/paystubs', {
      paystubs: [
        {
          id: String(worker.id),
          pay_period_start: '2026-01-01',
          pay_period_end: '2026-01-31',
          taxable_income: 300000,
          reimbursements: 0,
          other_allowances: 0,
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const runs = (await as(ctx.app, company).get('/api/payroll-runs')).json().data.data;
    expect(runs).toHaveLength(1);
    const run = (await as(ctx.app, company).get(`/api/payroll-runs/${runs[0].id}`)).json().run;
    const bodies = (await delivered(start)).filter((b) => b.company_id === company.id);
    expect(bodies.map((b) => b.type)).toEqual(['payroll_run.created']);
    expect(bodies[0].data).toEqual(run);
  });

  it('a partly paid run (paystub.failed, the refund as wallet.credited, payroll_run.partially_paid), a cancelled run, a suspension', async () => {
    const company = await createCompany(ctx.db, { name: 'Halfpay Ltd', createdBy: acme.id, runApproval: 'token' });
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const [payable, refused] = await createUsers(ctx.db, company.id, [{ baseSalary: '300000' }, { baseSalary: '450000' }]);
    await setBankAccounts(ctx.db, [payable.id]);
    await setBankAccounts(ctx.db, [refused.id], '9990001112'); // the sandbox refuses "999…"
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    await ctx.app.services.webhooks.deliveries.drain(); // the top-up's wallet.credited goes out before `start`
    const start = receiver.on('/all').length;
    const created = await as(ctx.app, company).post('/api/payroll-runs', runBody());
    const id = created.json().run.id as string;
    await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    const draft = await as(ctx.app, company).post(
      '/api/payroll-runs',
      runBody({ pay_period_start: '2026-04-01', pay_period_end: '2026-04-30', payment_date: '2026-04-28' }),
    );
    const draftId = draft.json().run.id as string;
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${draftId}/cancel`)).statusCode).toBe(200);
    expect(
      (await as(ctx.app, company).post(`/api/users/${payable.id}/suspend`, { suspension_duration_type: 'indefinite' })).statusCode,
    ).toBe(200);
    expect((await as(ctx.app, company).post(`/api/users/${payable.id}/unsuspend`, { unsuspend_option: 'immediately' })).statusCode).toBe(
      200,
    );

    const bodies = (await delivered(start)).filter((b) => b.company_id === company.id);
    const of = (type: string) => bodies.filter((b) => b.type === type);
    expect(of('paystub.paid')).toHaveLength(1);
    expect(of('paystub.failed')).toHaveLength(1);
    expect(of('paystub.failed')[0].data).toMatchObject({ run_id: id, status: 'failed', failure_reason: expect.any(String) });
    expect(of('payroll_run.partially_paid')[0]?.data).toMatchObject({ id, status: 'partially_paid' });
    expect(of('wallet.credited').map((b) => b.data.type)).toEqual(['payroll_refund']);
    expect(of('payroll_run.cancelled')[0]?.data).toMatchObject({ id: draftId, status: 'cancelled' });
    expect(of('user.suspended')[0]?.data).toMatchObject({ id: payable.id, is_suspended: true });
    expect(of('user.unsuspended')[0]?.data).toMatchObject({ id: payable.id, is_suspended: false });
  });

  it('a run none of whose transfers succeed: paystub.failed for each, two refunds, payroll_run.failed with the run', async () => {
    const company = await createCompany(ctx.db, { name: 'Nopay Ltd', createdBy: acme.id, runApproval: 'token' });
    const [boss] = await createUsers(ctx.db, company.id, [{ firstName: 'Boss', lastName: 'Admin', roles: ['admin'], baseSalary: '0' }]);
    const staff = await createUsers(ctx.db, company.id, [{ baseSalary: '300000' }, { baseSalary: '450000' }]);
    await setBankAccounts(
      ctx.db,
      staff.map((u) => u.id),
      '9990001112', // the sandbox refuses "999…"
    );
    await fundWallet(ctx.app, ctx.db, company, 5_000_000);
    await ctx.app.services.webhooks.deliveries.drain();
    const start = receiver.on('/all').length;
    const id = (await as(ctx.app, company).post('/api/payroll-runs', runBody())).json().run.id as string;
    await as(ctx.app, company).post(`/api/payroll-runs/${id}/approve`, { approver_email: boss.email });
    expect((await as(ctx.app, company).post(`/api/payroll-runs/${id}/pay`)).statusCode).toBe(202);
    await drainJobs(ctx.app);
    const run = (await as(ctx.app, company).get(`/api/payroll-runs/${id}`)).json().run;
    expect(run.status).toBe('failed');

    const bodies = (await delivered(start)).filter((b) => b.company_id === company.id);
    const of = (type: string) => bodies.filter((b) => b.type === type);
    expect(of('paystub.failed')).toHaveLength(staff.length);
    expect(of('paystub.paid')).toHaveLength(0);
    expect(of('wallet.credited').map((b) => b.data.type)).toEqual(['payroll_refund', 'payroll_refund']);
    expect(of('payroll_run.failed').map((b) => b.data)).toEqual([run]);
  });

  it('a failed change announces nothing', async () => {
    const before = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM webhook_events`);
    const refused = await as(ctx.app, acme).post('/api/users', { first_name: 'Only' });
    expect(refused.statusCode).toBe(422);
    const after = await queryRows<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM webhook_events`);
    expect(after[0].n).toBe(before[0].n);
  });
});
