import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createInvoiceViaApi, type InvoiceJson, invoiceBody } from '../../../test/helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { invoicePayments, invoices, outbox, users } from '../../db/schema/index.js';
import { createInvoicesService } from './invoices.service.js';

let ctx: TestContext;
let acme: TestCompany;
let stranger: TestCompany;
let child: TestCompany;
let grandchild: TestCompany;
let employee: { email: string; personalEmail: string; id: number };
let strangerEmployee: { email: string };
let grandchildEmployee: { email: string };

const MANAGER = 'manager@acme.test';
const FINANCE = 'finance@acme.test';

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme' });
  stranger = await createCompany(ctx.db);
  child = await createCompany(ctx.db, { createdBy: acme.id });
  grandchild = await createCompany(ctx.db, { createdBy: child.id });
  [employee] = await createUsers(ctx.db, acme.id, [{ firstName: 'Ada', lastName: 'Obi', personalEmail: 'ada.obi@home.test' }]);
  [strangerEmployee] = await createUsers(ctx.db, stranger.id, [{ firstName: 'Sam' }]);
  [grandchildEmployee] = await createUsers(ctx.db, grandchild.id, [{ firstName: 'Gina' }]);
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: TestCompany, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });
const fresh = (overrides: Record<string, unknown> = {}) => createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email, overrides));
const approve = (id: string, body: Record<string, unknown> = {}) =>
  call(acme, 'PUT', `/api/invoices/${id}/approve`, { manager_email: MANAGER, decision: 'approve', ...body });
const finance = (id: string, body: Record<string, unknown> = {}) =>
  call(acme, 'PUT', `/api/invoices/${id}/finance-approve`, { finance_approver_email: FINANCE, decision: 'approve', ...body });
const pay = (id: string, amount: unknown) => call(acme, 'PUT', `/api/invoices/${id}`, { amount_paid: amount });

async function approvedInvoice(overrides: Record<string, unknown> = {}): Promise<InvoiceJson> {
  const invoice = await fresh(overrides);
  expect((await approve(invoice.transaction_id)).statusCode).toBe(200);
  expect((await finance(invoice.transaction_id)).statusCode).toBe(200);
  return invoice;
}

async function invoiceCount(): Promise<number> {
  const [row] = await ctx.db.select({ value: count() }).from(invoices);
  return row.value;
}

describe('I3 POST /api/invoices', () => {
  it('creates an unpaid, pending invoice whose balance is the amount requested', async () => {
    const res = await call(
      acme,
      'POST',
      '/api/invoices',
      invoiceBody('ADA.OBI@HOME.TEST', { total_amount: 1500.5, amount_requested: '1000' }),
    );
    expect(res.statusCode).toBe(201);
    const { message, invoice } = res.json();
    expect(message).toBe('Invoice created successfully.');
    expect(invoice).toMatchObject({
      company_id: acme.id,
      user_id: employee.id,
      user_email: employee.email,
      description: 'Dental treatment',
      service_date: '2026-01-15',
      provider_name: 'Lagos Dental Clinic',
      total_amount: '1500.50',
      amount_requested: '1000.00',
      amount_paid: '0.00',
      balance: '1000.00',
      status: 'unpaid',
      approval_status: 'pending',
      category_name: 'Health',
      subcategory_name: 'Dental',
      payment_method: 'self',
      relationship_manager_email: 'rm@broker.test',
      finance_approver_email: null,
      approved_by_manager_email: null,
      comment: 'Root canal',
    });
    expect(invoice.transaction_id).toMatch(/^INV-\d{8}-[0-9A-Z]{8}$/);
    const minimal = await call(acme, 'POST', '/api/invoices', {
      user_email: employee.email,
      description: 'Glasses',
      service_date: new Date().toISOString().slice(0, 10),
      provider_name: 'Optics',
      total_amount: '0.01',
      amount_requested: 0.01,
      category_name: 'Vision',
      payment_method: 'provider',
    });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json().invoice).toMatchObject({ subcategory_name: null, comment: null, payment_method: 'provider', balance: '0.01' });
    // Decimal strings beyond float precision are kept to the kobo.
    const big = await call(
      acme,
      'POST',
      '/api/invoices',
      invoiceBody(employee.email, { total_amount: '9999999999999999.99', amount_requested: '1234567890123456.78' }),
    );
    expect(big.json().invoice).toMatchObject({
      total_amount: '9999999999999999.99',
      amount_requested: '1234567890123456.78',
      balance: '1234567890123456.78',
    });
  });

  it('reports every invalid field at once as {error: {field: [message]}}, writing nothing', async () => {
    const before = await invoiceCount();
    const empty = await call(acme, 'POST', '/api/invoices', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      error: {
        user_email: ['The user email field is required.'],
        description: ['The description field is required.'],
        service_date: ['The service date field is required.'],
        provider_name: ['The provider name field is required.'],
        category_name: ['The category name field is required.'],
        total_amount: ['The total amount field is required.'],
        amount_requested: ['The amount requested field is required.'],
      },
    });
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const bad = await call(
      acme,
      'POST',
      '/api/invoices',
      invoiceBody('not-an-email', {
        service_date: future,
        total_amount: '-5',
        amount_requested: '10.005',
        payment_method: 'cash',
        relationship_manager_email: 'nope',
        status: 'paid',
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toEqual({
      status: ['The status field is not allowed.'],
      user_email: ['The user email field must be a valid email address.'],
      service_date: ['The service date field must be a date before or equal to today.'],
      total_amount: ['The total amount field must be greater than 0.'],
      amount_requested: ['The amount requested field must have at most 2 decimal places.'],
      payment_method: ['The selected payment method is invalid.'],
      relationship_manager_email: ['The relationship manager email field must be a valid email address.'],
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ service_date: '2026-02-30' }, 'service_date', 'The service date field must be a valid date in the format YYYY-MM-DD.'],
      [{ service_date: '15/01/2026' }, 'service_date', 'The service date field must be a valid date in the format YYYY-MM-DD.'],
      [{ total_amount: 0 }, 'total_amount', 'The total amount field must be greater than 0.'],
      [{ total_amount: 'ten' }, 'total_amount', 'The total amount field must be a number.'],
      [{ total_amount: '1e5' }, 'total_amount', 'The total amount field must be a number.'],
      [{ total_amount: '99999999999999999' }, 'total_amount', 'The total amount field must not be greater than 9999999999999999.99.'],
      [{ amount_requested: '150000.01' }, 'amount_requested', 'The amount requested field must be less than or equal to the total amount.'],
      [{ description: 'x'.repeat(5001) }, 'description', 'The description field must not be greater than 5000 characters.'],
    ];
    for (const [override, field, message] of cases) {
      const res = await call(acme, 'POST', '/api/invoices', invoiceBody(employee.email, override));
      expect(res.statusCode, JSON.stringify(override)).toBe(422);
      expect(res.json()).toEqual({ error: { [field]: [message] } });
    }
    expect(await invoiceCount()).toBe(before);
  });

  it('requires user_email to be a non-deleted employee of the target company', async () => {
    const [gone] = await createUsers(ctx.db, acme.id, [{ firstName: 'Gone' }]);
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    for (const email of [strangerEmployee.email, gone.email, 'nobody@acme.test']) {
      const res = await call(acme, 'POST', '/api/invoices', invoiceBody(email));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: { user_email: ['The selected user email is invalid.'] } });
    }
  });

  it('creates for a descendant through company_id, never for a stranger', async () => {
    const res = await call(acme, 'POST', '/api/invoices', { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().invoice.company_id).toBe(grandchild.id);
    const refused = await call(acme, 'POST', '/api/invoices', { ...invoiceBody(strangerEmployee.email), company_id: stranger.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: "You do not have permission to access this company's invoices." });
    const upward = await call(child, 'POST', '/api/invoices', { ...invoiceBody(employee.email), company_id: acme.id });
    expect(upward.statusCode).toBe(403);
    expect((await call(acme, 'POST', '/api/invoices', { ...invoiceBody(employee.email), company_id: 'abc' })).statusCode).toBe(400);
  });

  it('replays an Idempotency-Key instead of creating twice', async () => {
    const before = await invoiceCount();
    const headers = { ...acme.auth, 'idempotency-key': `inv-${Date.now()}` };
    const body = invoiceBody(employee.email);
    const first = await ctx.app.inject({ method: 'POST', url: '/api/invoices', headers, payload: body });
    const second = await ctx.app.inject({ method: 'POST', url: '/api/invoices', headers, payload: body });
    expect(second.statusCode).toBe(201);
    expect(second.json().invoice.transaction_id).toBe(first.json().invoice.transaction_id);
    expect(await invoiceCount()).toBe(before + 1);
  });
});

describe('I2 and I1', () => {
  it('I2 shows an invoice; unknown and other companies’ ids are 404', async () => {
    const invoice = await fresh();
    const res = await call(acme, 'GET', `/api/invoices/${invoice.transaction_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invoice retrieved successfully.', invoice });
    for (const [who, id] of [
      [stranger, invoice.transaction_id],
      [child, invoice.transaction_id],
      [acme, 'INV-00000000-NOPE'],
    ] as const) {
      const miss = await call(who, 'GET', `/api/invoices/${id}`);
      expect(miss.statusCode).toBe(404);
      expect(miss.json()).toEqual({ error: 'Invoice not found.' });
    }
    // The parent finds the child's invoice only when it targets the child.
    const gc = await createInvoiceViaApi(ctx.app, acme, { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    expect((await call(acme, 'GET', `/api/invoices/${gc.transaction_id}`)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/api/invoices/${gc.transaction_id}?company_id=${grandchild.id}`)).statusCode).toBe(200);
  });

  it('I1 filters, sorts over the allow-list, pages and reports meta', async () => {
    const company = await createCompany(ctx.db);
    const [worker] = await createUsers(ctx.db, company.id, [{}]);
    const made: InvoiceJson[] = [];
    for (const amount of ['300.00', '100.00', '200.00']) {
      made.push(await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email, { total_amount: amount, amount_requested: amount })));
    }
    const list = (query: string) => call(company, 'GET', `/api/invoices${query}`);
    const all = await list('');
    expect(all.statusCode).toBe(200);
    expect(all.json().message).toBe('Invoices retrieved successfully.');
    expect(all.json().invoices.map((i: InvoiceJson) => i.transaction_id)).toEqual(made.map((i) => i.transaction_id).reverse());
    expect(all.json().meta).toEqual({ current_page: 1, per_page: 10, total: 3, last_page: 1 });

    const byAmount = await list('?sort=total_amount&order=asc');
    expect(byAmount.json().invoices.map((i: InvoiceJson) => i.total_amount)).toEqual(['100.00', '200.00', '300.00']);
    const paged = await list('?sort=total_amount&order=desc&per_page=2&page=2');
    expect(paged.json().invoices.map((i: InvoiceJson) => i.total_amount)).toEqual(['100.00']);
    expect(paged.json().meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });

    const one = await list(`?transaction_id=${made[1].transaction_id}`);
    expect(one.json().invoices).toHaveLength(1);
    expect(one.json().meta.total).toBe(1);
    expect((await list('?status=paid')).json().invoices).toEqual([]);
    expect((await list('?status=unpaid')).json().meta.total).toBe(3);
    expect((await list('?approval_status=pending')).json().meta.total).toBe(3);

    const cases: [string, string, string][] = [
      ['?sort=password', 'sort', 'The selected sort is invalid.'],
      ['?sort=created_at;DROP TABLE invoices', 'sort', 'The selected sort is invalid.'],
      ['?order=sideways', 'order', 'The selected order is invalid.'],
      ['?status=lost', 'status', 'The selected status is invalid.'],
      ['?per_page=101', 'per_page', 'The per page field must not be greater than 100.'],
      ['?per_page=0', 'per_page', 'The per page field must be at least 1.'],
      ['?page=0', 'page', 'The page field must be at least 1.'],
    ];
    for (const [query, field, message] of cases) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toEqual({ error: { [field]: [message] } });
    }
    expect(await invoiceCount()).toBeGreaterThan(3);
  });

  it('I1 targets descendants through company_id and refuses strangers', async () => {
    const res = await call(acme, 'GET', `/api/invoices?company_id=${grandchild.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoices.every((i: InvoiceJson) => i.company_id === grandchild.id)).toBe(true);
    expect(res.json().meta.total).toBeGreaterThan(0);
    for (const [who, target] of [
      [acme, stranger],
      [grandchild, child],
      [child, acme],
    ] as const) {
      const refused = await call(who, 'GET', `/api/invoices?company_id=${target.id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: "You do not have permission to access this company's invoices." });
    }
    expect((await call(acme, 'GET', '/api/invoices?company_id=99999999')).statusCode).toBe(403);
  });
});

describe('the approval and payment lifecycle', () => {
  it('goes pending → manager_approved → approved → partially_paid → paid, e-mailing finance', async () => {
    const invoice = await fresh({ total_amount: '1000.00', amount_requested: '100.00' });
    const id = invoice.transaction_id;
    const managed = await approve(id, { comment: 'Looks right', notify_finance: true, finance_approver_email: 'CFO@Acme.test' });
    expect(managed.statusCode).toBe(200);
    expect(managed.json().message).toBe('Invoice approval updated successfully.');
    expect(managed.json().invoice).toMatchObject({
      approval_status: 'manager_approved',
      approved_by_manager_email: MANAGER,
      finance_approver_email: 'cfo@acme.test',
      manager_comment: 'Looks right',
      status: 'unpaid',
    });
    const mails = await ctx.db.select().from(outbox).where(eq(outbox.to, 'cfo@acme.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Invoice ${id} awaits your finance approval`);
    expect(mails[0].text).toContain('NGN 100.00');

    const financed = await finance(id, { finance_approver_email: 'cfo@acme.test', comment: 'OK to pay' });
    expect(financed.statusCode).toBe(200);
    expect(financed.json().invoice).toMatchObject({
      approval_status: 'approved',
      status: 'pending',
      finance_comment: 'OK to pay',
      balance: '100.00',
    });

    const first = await pay(id, '40.10');
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe('Invoice updated successfully.');
    expect(first.json().invoice).toMatchObject({ status: 'partially_paid', amount_paid: '40.10', balance: '59.90' });
    const over = await pay(id, 59.91);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ error: { amount_paid: ['The amount paid must not be greater than the balance of 59.90.'] } });
    const rest = await pay(id, 59.9);
    expect(rest.json().invoice).toMatchObject({ status: 'paid', amount_paid: '100.00', balance: '0.00' });
    const again = await pay(id, '1');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Invoice is already fully paid.' });
    expect((await pay(id, '0')).json()).toEqual({ error: { amount_paid: ['The amount paid field must be greater than 0.'] } });

    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, id));
    const payments = await ctx.db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, row.id));
    expect(payments.map((p) => p.amount).sort()).toEqual(['40.10', '59.90']);

    const removed = await call(acme, 'DELETE', `/api/invoices/${id}/destroy`);
    expect(removed.statusCode).toBe(409);
    expect(removed.json()).toEqual({ error: 'Paid or partially paid invoices cannot be deleted.' });
  });

  it('does not e-mail finance unless asked, or on rejection', async () => {
    const a = await fresh();
    expect((await approve(a.transaction_id, { finance_approver_email: 'quiet@acme.test' })).json().invoice.finance_approver_email).toBe(
      'quiet@acme.test',
    );
    const b = await fresh();
    const rejected = await approve(b.transaction_id, {
      decision: 'reject',
      notify_finance: true,
      finance_approver_email: 'quiet@acme.test',
    });
    expect(rejected.json().invoice).toMatchObject({ approval_status: 'rejected', approved_by_manager_email: MANAGER });
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, 'quiet@acme.test'))).toHaveLength(0);
  });

  it('refuses the state machine’s forbidden moves', async () => {
    const pending = await fresh();
    const early = await finance(pending.transaction_id);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: 'Invoice must be approved by a manager before finance approval.' });
    const unpaidPay = await pay(pending.transaction_id, '10');
    expect(unpaidPay.statusCode).toBe(409);
    expect(unpaidPay.json()).toEqual({ error: 'Payments can only be recorded on invoices approved by finance.' });

    const rejected = await fresh();
    await approve(rejected.transaction_id, { decision: 'reject' });
    expect((await finance(rejected.transaction_id)).json()).toEqual({
      error: 'Invoice must be approved by a manager before finance approval.',
    });
    const twice = await approve(rejected.transaction_id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ error: 'Invoice has already been reviewed by a manager.' });

    const managed = await fresh();
    await approve(managed.transaction_id);
    expect((await pay(managed.transaction_id, '10')).statusCode).toBe(409);
    const locked = await call(acme, 'PUT', `/api/invoices/${managed.transaction_id}`, { description: 'Changed later' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json()).toEqual({ error: 'Invoice details can only be changed while the invoice is pending manager approval.' });

    const denied = await fresh();
    await approve(denied.transaction_id);
    expect((await finance(denied.transaction_id, { decision: 'deny' })).json().invoice).toMatchObject({
      approval_status: 'denied',
      status: 'unpaid',
    });
    const late = await finance(denied.transaction_id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'Finance approval has already been decided for this invoice.' });
    expect((await pay(denied.transaction_id, '10')).statusCode).toBe(409);

    const done = await approvedInvoice();
    expect((await finance(done.transaction_id, { decision: 'deny' })).json()).toEqual({
      error: 'Finance approval has already been decided for this invoice.',
    });
    expect((await call(acme, 'PUT', `/api/invoices/${done.transaction_id}`, { total_amount: '1' })).statusCode).toBe(409);
  });

  it('validates approval bodies and keeps four eyes on every claim', async () => {
    const invoice = await fresh();
    const id = invoice.transaction_id;
    expect((await call(acme, 'PUT', `/api/invoices/${id}/approve`, {})).json()).toEqual({
      error: { manager_email: ['The manager email field is required.'], decision: ['The decision field is required.'] },
    });
    expect((await approve(id, { decision: 'maybe', manager_email: 'x' })).json()).toEqual({
      error: { manager_email: ['The manager email field must be a valid email address.'], decision: ['The selected decision is invalid.'] },
    });
    expect((await approve(id, { notify_finance: true })).json()).toEqual({
      error: { finance_approver_email: ['The finance approver email field is required when notify finance is true.'] },
    });
    const self = await approve(id, { manager_email: employee.email.toUpperCase() });
    expect(self.statusCode).toBe(422);
    expect(self.json()).toEqual({ error: { manager_email: ['The manager email must not be the email of the invoice’s employee.'] } });
    await approve(id);
    expect((await finance(id, { decision: 'approve it' })).json()).toEqual({ error: { decision: ['The selected decision is invalid.'] } });
    expect((await finance(id, { finance_approver_email: MANAGER })).json()).toEqual({
      error: { finance_approver_email: ['The finance approver must be a different person from the approving manager.'] },
    });
    expect((await finance(id, { finance_approver_email: employee.email })).statusCode).toBe(422);
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, id));
    expect(row.approvalStatus).toBe('manager_approved');
  });

  it('I4 edits details while pending and keeps amounts consistent', async () => {
    const invoice = await fresh();
    const id = invoice.transaction_id;
    const [other] = await createUsers(ctx.db, acme.id, [{ firstName: 'Bola' }]);
    const res = await call(acme, 'PUT', `/api/invoices/${id}`, {
      description: 'Dental and X-ray',
      amount_requested: '120000',
      user_email: other.email,
      comment: null,
      subcategory_name: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().invoice).toMatchObject({
      description: 'Dental and X-ray',
      amount_requested: '120000.00',
      balance: '120000.00',
      total_amount: '150000.00',
      user_email: other.email,
      user_id: other.id,
      comment: null,
      subcategory_name: null,
    });
    const tooMuch = await call(acme, 'PUT', `/api/invoices/${id}`, { total_amount: '100000' });
    expect(tooMuch.json()).toEqual({
      error: { amount_requested: ['The amount requested field must be less than or equal to the total amount.'] },
    });
    const badFields = await call(acme, 'PUT', `/api/invoices/${id}`, {
      description: '',
      status: 'paid',
      balance: '0',
      user_email: strangerEmployee.email,
    });
    expect(badFields.json()).toEqual({
      error: {
        status: ['The status field is not allowed.'],
        balance: ['The balance field is not allowed.'],
        description: ['The description field is required.'],
      },
    });
    expect((await call(acme, 'PUT', `/api/invoices/${id}`, { user_email: strangerEmployee.email })).json()).toEqual({
      error: { user_email: ['The selected user email is invalid.'] },
    });
    const same = await call(acme, 'PUT', `/api/invoices/${id}`, {});
    expect(same.statusCode).toBe(200);
    expect(same.json().invoice.description).toBe('Dental and X-ray');
  });

  it('I7 deletes unpaid (also denied or awaiting payment) invoices, which then vanish', async () => {
    const invoice = await fresh();
    const res = await call(acme, 'DELETE', `/api/invoices/${invoice.transaction_id}/destroy`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invoice deleted successfully.' });
    expect((await call(acme, 'GET', `/api/invoices/${invoice.transaction_id}`)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/api/invoices?transaction_id=${invoice.transaction_id}`)).json().invoices).toEqual([]);
    const again = await call(acme, 'DELETE', `/api/invoices/${invoice.transaction_id}/destroy`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Invoice not found.' });
    const awaiting = await approvedInvoice();
    expect((await call(acme, 'DELETE', `/api/invoices/${awaiting.transaction_id}/destroy`)).statusCode).toBe(200);
    const partial = await approvedInvoice();
    await pay(partial.transaction_id, '1');
    expect((await call(acme, 'DELETE', `/api/invoices/${partial.transaction_id}/destroy`)).json()).toEqual({
      error: 'Paid or partially paid invoices cannot be deleted.',
    });
  });
});

describe('concurrency: state changes are guarded in the database', () => {
  it('two concurrent manager approvals: one wins', async () => {
    const invoice = await fresh();
    const results = await Promise.all([
      approve(invoice.transaction_id, { manager_email: 'm1@acme.test' }),
      approve(invoice.transaction_id, { manager_email: 'm2@acme.test', decision: 'reject' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)?.json().invoice;
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, invoice.transaction_id));
    expect(row.approvedByManagerEmail).toBe(winner.approved_by_manager_email);
    expect(row.approvalStatus).toBe(winner.approval_status);
  });

  it('two concurrent finance decisions: one wins', async () => {
    const invoice = await fresh();
    await approve(invoice.transaction_id);
    const results = await Promise.all([finance(invoice.transaction_id), finance(invoice.transaction_id, { decision: 'deny' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('concurrent payments never exceed the balance', async () => {
    const invoice = await approvedInvoice({ total_amount: '100.00', amount_requested: '100.00' });
    const results = await Promise.all([
      pay(invoice.transaction_id, '60.00'),
      pay(invoice.transaction_id, '60.00'),
      pay(invoice.transaction_id, '60.00'),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, invoice.transaction_id));
    expect(row).toMatchObject({ amountPaid: '60.00', balance: '40.00', status: 'partially_paid' });
    const payments = await ctx.db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, row.id));
    expect(payments).toHaveLength(1);
    // Exactly paying off from two sides: both fit only one at a time.
    const both = await Promise.all([pay(invoice.transaction_id, '40.00'), pay(invoice.transaction_id, '40.00')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('a delete racing a payment leaves a consistent invoice', async () => {
    const invoice = await approvedInvoice();
    const [paid, removed] = await Promise.all([
      pay(invoice.transaction_id, '10'),
      call(acme, 'DELETE', `/api/invoices/${invoice.transaction_id}/destroy`),
    ]);
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, invoice.transaction_id));
    if (paid.statusCode === 200) {
      expect(removed.statusCode).toBe(409);
      expect(row.deletedAt).toBeNull();
    } else {
      expect(paid.statusCode).toBe(404);
      expect(removed.statusCode).toBe(200);
      expect(row.amountPaid).toBe('0.00');
    }
  });
});

describe('tenant isolation', () => {
  it('every invoice route answers another company’s invoice with 404 and changes nothing', async () => {
    const invoice = await fresh();
    const id = invoice.transaction_id;
    const requests: [Method, string, unknown?][] = [
      ['GET', `/api/invoices/${id}`],
      ['PUT', `/api/invoices/${id}`, { description: 'hijack' }],
      ['PUT', `/api/invoices/${id}`, { amount_paid: '1' }],
      ['PUT', `/api/invoices/${id}/approve`, { manager_email: 'x@y.test', decision: 'approve' }],
      ['PUT', `/api/invoices/${id}/finance-approve`, { finance_approver_email: 'x@y.test', decision: 'approve' }],
      ['DELETE', `/api/invoices/${id}/destroy`],
    ];
    for (const who of [stranger, child]) {
      for (const [method, url, payload] of requests) {
        const res = await call(who, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Invoice not found.' });
      }
      const list = await call(who, 'GET', `/api/invoices?transaction_id=${id}`);
      expect(list.json().invoices).toEqual([]);
    }
    const after = await call(acme, 'GET', `/api/invoices/${id}`);
    expect(after.json().invoice).toEqual(invoice);
  });

  it('the parent manages a grandchild’s invoice end to end through company_id', async () => {
    const gc = await createInvoiceViaApi(ctx.app, acme, { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    const q = `?company_id=${grandchild.id}`;
    expect(
      (await call(acme, 'PUT', `/api/invoices/${gc.transaction_id}/approve${q}`, { manager_email: MANAGER, decision: 'approve' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await call(acme, 'PUT', `/api/invoices/${gc.transaction_id}/finance-approve`, {
          company_id: grandchild.id,
          finance_approver_email: FINANCE,
          decision: 'approve',
        })
      ).statusCode,
    ).toBe(200);
    expect((await call(acme, 'PUT', `/api/invoices/${gc.transaction_id}${q}`, { amount_paid: '5' })).json().invoice.status).toBe(
      'partially_paid',
    );
    // The grandchild sees it as its own; a sibling branch never does.
    expect((await call(grandchild, 'GET', `/api/invoices/${gc.transaction_id}`)).statusCode).toBe(200);
    expect((await call(stranger, 'GET', `/api/invoices/${gc.transaction_id}`)).statusCode).toBe(404);
  });
});

describe('awaitingApproval (web console)', () => {
  it('lists pending and manager-approved invoices of one company, oldest first', async () => {
    const company = await createCompany(ctx.db);
    const [worker] = await createUsers(ctx.db, company.id, [{}]);
    const a = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    const b = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    const c = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    await call(company, 'PUT', `/api/invoices/${b.transaction_id}/approve`, { manager_email: MANAGER, decision: 'approve' });
    await call(company, 'PUT', `/api/invoices/${c.transaction_id}/approve`, { manager_email: MANAGER, decision: 'reject' });
    const service = createInvoicesService(ctx.app.deps);
    const queue = await service.awaitingApproval(company.id);
    expect(queue.map((i) => [i.transaction_id, i.approval_status])).toEqual([
      [a.transaction_id, 'pending'],
      [b.transaction_id, 'manager_approved'],
    ]);
  });
});
