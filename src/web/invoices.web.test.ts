// The console's money pages over inject, on the demo company of a first run (seedDemo): invoices
// decided in the console (a manager's approval, finance's approval by another person, payments up
// to the balance, reject and deny), each behind a confirmation page; the wallet's payroll debit
// linking to its run and the page refreshing while a top-up is pending; the demo's complete
// compliance schedules; another company reaching none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';
import { type DemoSeed, lastMonth, seedDemo } from '../seed.js';

let ctx: TestContext;
let demo: DemoSeed;
let maker: WebClient;
let approver: WebClient;
let stranger: WebClient;
let invoiceIds: string[];

beforeAll(async () => {
  ctx = await createTestApp({ walletVerifyDelaySeconds: 120 });
  demo = (await seedDemo(ctx.app)) as DemoSeed;
  maker = await signIn(ctx.app, demo.adminEmail, demo.adminPassword);
  approver = await signIn(ctx.app, demo.approverEmail, demo.approverPassword);
  const other = await createCompany(ctx.db, { name: 'Other Money Ltd' });
  stranger = await signIn(ctx.app, (await createAdmin(ctx.db, other.id)).email);
  invoiceIds = (await ctx.app.services.invoices.invoices.awaitingApproval(demo.companyId, 10)).map((i) => i.transaction_id);
}, 240_000);
afterAll(() => ctx?.close());

const show = (id: string) => ctx.app.services.invoices.invoices.show(demo.companyId, id).then((r) => r.invoice);

describe('console invoices', () => {
  it('lists the invoices awaiting a decision, each linking to its page', async () => {
    const res = await maker.get('/console/invoices');
    expect(res.statusCode).toBe(200);
    expect(invoiceIds).toHaveLength(2);
    for (const id of invoiceIds) expect(res.body).toContain(`href="/console/invoices/${id}" aria-label="Invoice ${id} of `);
    expect(res.body).toContain('No approved invoice is waiting for payment.');
  });

  it('approves (manager, then finance by another person) and records payments, each after a confirmation', async () => {
    const [id] = invoiceIds;
    let res = await maker.get(`/console/invoices/${id}`);
    expect(res.body).toContain(`href="/console/invoices/${id}/approve">Approve as manager…</a>`);
    expect(res.body).toContain(`href="/console/invoices/${id}/reject">Reject…</a>`);

    // Without the confirmation nothing is recorded: the POST leads to the confirmation page.
    res = await maker.post(`/console/invoices/${id}/approve`, { stage: 'manager' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/invoices/${id}/approve`);
    expect((await show(id)).approval_status).toBe('pending');
    res = await maker.get(`/console/invoices/${id}/approve`);
    expect(res.body).toContain('Yes, approve as manager');
    expect(res.body).toContain('name="stage" value="manager"');

    res = await maker.post(`/console/invoices/${id}/approve`, { confirm: 'yes', stage: 'manager', comment: 'Fine <ok>' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/console/invoices/${id}?done=approve`);
    expect(await show(id)).toMatchObject({ approval_status: 'manager_approved', approved_by_manager_email: demo.adminEmail });
    res = await maker.get(`/console/invoices/${id}?done=approve`);
    expect(res.body).toContain('Invoice approved.');
    expect(res.body).toContain('Fine &lt;ok&gt;');

    // A stale manager form after the decision is refused, nothing recorded, and the page says so.
    res = await maker.post(`/console/invoices/${id}/reject`, { confirm: 'yes', stage: 'manager' });
    expect(res.headers.location).toBe(`/console/invoices/${id}?refused=reject`);
    expect((await maker.get(res.headers.location as string)).body).toContain('Nothing was recorded');

    // Four eyes: the approving manager cannot also approve for finance (422, the form kept).
    res = await maker.post(`/console/invoices/${id}/approve`, { confirm: 'yes', stage: 'finance', comment: 'me again' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('must be a different person from the approving manager');
    expect(res.body).toContain('value="me again"');

    res = await approver.post(`/console/invoices/${id}/approve`, { confirm: 'yes', stage: 'finance' });
    expect(res.headers.location).toBe(`/console/invoices/${id}?done=approve`);
    const approved = await show(id);
    expect(approved).toMatchObject({ approval_status: 'approved', finance_approver_email: demo.approverEmail, status: 'pending' });
    expect((await approver.get('/console/invoices')).body).toContain('Approved by finance, not fully paid');

    // Payments: above the balance is refused with the amount kept; then a part, then the rest.
    res = await approver.get(`/console/invoices/${id}/pay`);
    expect(res.body).toContain(`value="${approved.balance}"`);
    res = await approver.post(`/console/invoices/${id}/pay`, { confirm: 'yes', amount_paid: '999,999,999' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('must not be greater than the balance');
    expect(res.body).toContain('value="999,999,999"');
    res = await approver.post(`/console/invoices/${id}/pay`, { confirm: 'yes', amount_paid: '50,000.00' });
    expect(res.headers.location).toBe(`/console/invoices/${id}?done=pay`);
    expect(await show(id)).toMatchObject({ status: 'partially_paid', amount_paid: '50000.00' });
    res = await approver.post(`/console/invoices/${id}/pay`, { confirm: 'yes', amount_paid: '100000' });
    expect(await show(id)).toMatchObject({ status: 'paid', balance: '0.00' });
    // Paid: no decision is open any more, and its confirmation page leads back to the invoice.
    expect((await approver.get(`/console/invoices/${id}`)).body).toContain('No decision is open on this invoice.');
    res = await approver.get(`/console/invoices/${id}/pay`);
    expect(res.statusCode).toBe(303);
  });

  it('rejects as manager, or denies for finance', async () => {
    const [, id] = invoiceIds;
    let res = await approver.post(`/console/invoices/${id}/approve`, { confirm: 'yes', stage: 'manager' });
    expect(res.headers.location).toBe(`/console/invoices/${id}?done=approve`);
    res = await maker.get(`/console/invoices/${id}`);
    expect(res.body).toContain(`href="/console/invoices/${id}/deny">Deny…</a>`);
    res = await maker.get(`/console/invoices/${id}/deny`);
    expect(res.body).toContain('Yes, deny');
    res = await maker.post(`/console/invoices/${id}/deny`, { confirm: 'yes', stage: 'finance', comment: 'Not covered' });
    expect(res.headers.location).toBe(`/console/invoices/${id}?done=deny`);
    expect(await show(id)).toMatchObject({ approval_status: 'denied', finance_comment: 'Not covered' });

    const created = await ctx.app.services.invoices.invoices.create(demo.companyId, {
      user_email: demo.approverEmail,
      description: 'Taxi to the client',
      service_date: new Date().toISOString().slice(0, 10),
      provider_name: 'Bolt',
      total_amount: 12_000,
      amount_requested: 12_000,
      category_name: 'Transport',
    });
    const third = created.invoice.transaction_id;
    res = await maker.post(`/console/invoices/${third}/reject`, { confirm: 'yes', stage: 'manager', comment: 'Personal trip' });
    expect(res.headers.location).toBe(`/console/invoices/${third}?done=reject`);
    expect(await show(third)).toMatchObject({ approval_status: 'rejected', manager_comment: 'Personal trip' });
  });

  it("another company's administrator, forged CSRF and unknown actions reach nothing", async () => {
    const [id] = invoiceIds;
    expect((await stranger.get(`/console/invoices/${id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/console/invoices/${id}/approve`)).statusCode).toBe(404);
    expect((await stranger.post(`/console/invoices/${id}/pay`, { confirm: 'yes', amount_paid: '1' })).statusCode).toBe(404);
    expect((await stranger.get('/console/invoices')).body).not.toContain(id);
    expect((await maker.get(`/console/invoices/${id}/archive`)).statusCode).toBe(404);
    const forged = await maker.post(`/console/invoices/${invoiceIds[1]}/approve`, { confirm: 'yes', _csrf: 'forged' });
    expect(forged.statusCode).toBe(403);
  });
});

describe('console wallet and compliance on the demo', () => {
  it('links the payroll debit to its run and refreshes while a top-up is pending', async () => {
    let res = await maker.get('/console/wallet');
    expect(res.body).toMatch(
      new RegExp(
        `<a href="/console/payroll/${demo.transactionId}" aria-label="Payroll run ${demo.transactionId}, paid by debit ${demo.transactionId}-A1">`,
      ),
    );
    expect(res.body).not.toContain('http-equiv="refresh"');
    const started = await maker.post('/console/wallet/top-up', { amount: '10000', customer_email: demo.adminEmail });
    expect(started.statusCode).toBe(303);
    res = await maker.get('/console/wallet');
    expect(res.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(res.body).toContain('A top-up is pending');
    // Paid at the sandbox checkout: credited at once, so the page stops refreshing.
    const checkout = new URL(started.headers.location as string);
    const paid = await as(ctx.app, anonymous).post(`${checkout.pathname}${checkout.search}`, 'outcome=success', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode).toBe(303);
    res = await maker.get(`/console/wallet?${new URL(paid.headers.location as string).searchParams}`);
    expect(res.body).toContain('is paid and credited');
    expect(res.body).not.toContain('http-equiv="refresh"');
  });

  it("the demo's schedules are complete: no missing data, every PAYE state with its payer ID", async () => {
    const month = lastMonth().start.toISOString().slice(0, 7);
    const res = await maker.get(`/console/compliance?month=${month}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Every paid employee has what the schedules need.');
    expect(res.body).not.toContain('data-total="missing"');
    expect(res.body).not.toContain('not set');
    for (const state of ['LA', 'FC', 'RI']) expect(res.body).toContain(`data-schedule="paye-${state}"`);
  });
});
