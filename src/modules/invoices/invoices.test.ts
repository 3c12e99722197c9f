// Invoices I1-I3, tenant isolation and the console's awaiting-approval list. The approval and
// payment lifecycle (I4-I7), approvers and concurrency are in invoices.lifecycle.test.ts.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createApprovers, createInvoiceViaApi, type InvoiceJson, invoiceBody } from '../../../test/helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as, type Method } from '../../../test/helpers/http.js';
import { invoices, users } from '../../db/schema/index.js';
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
  // I5/I6 accept only active users of the invoice's company or of a company above it as approvers.
  await createApprovers(ctx.db, acme.id, [MANAGER, FINANCE, 'cfo@acme.test', 'quiet@acme.test', 'm1@acme.test', 'm2@acme.test']);
});
afterAll(() => ctx.close());

const fresh = (overrides: Record<string, unknown> = {}) => createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email, overrides));

async function invoiceCount(): Promise<number> {
  const [row] = await ctx.db.select({ value: count() }).from(invoices);
  return row.value;
}

describe('I3 POST /api/invoices', () => {
  it('creates an unpaid, pending invoice whose balance is the amount requested', async () => {
    const res = await as(ctx.app, acme).post(
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
    const minimal = await as(ctx.app, acme).post('/api/invoices', {
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
    const big = await as(ctx.app, acme).post(
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
    const empty = await as(ctx.app, acme).post('/api/invoices', {});
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
    const bad = await as(ctx.app, acme).post(
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
      const res = await as(ctx.app, acme).post('/api/invoices', invoiceBody(employee.email, override));
      expect(res.statusCode, JSON.stringify(override)).toBe(422);
      expect(res.json()).toEqual({ error: { [field]: [message] } });
    }
    expect(await invoiceCount()).toBe(before);
  });

  it('requires user_email to be a non-deleted employee of the target company', async () => {
    const [gone] = await createUsers(ctx.db, acme.id, [{ firstName: 'Gone' }]);
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));
    for (const email of [strangerEmployee.email, gone.email, 'nobody@acme.test']) {
      const res = await as(ctx.app, acme).post('/api/invoices', invoiceBody(email));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: { user_email: ['The selected user email is invalid.'] } });
    }
  });

  it('creates for a descendant through company_id, never for a stranger', async () => {
    const res = await as(ctx.app, acme).post('/api/invoices', { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().invoice.company_id).toBe(grandchild.id);
    const refused = await as(ctx.app, acme).post('/api/invoices', { ...invoiceBody(strangerEmployee.email), company_id: stranger.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: "You do not have permission to access this company's invoices." });
    const upward = await as(ctx.app, child).post('/api/invoices', { ...invoiceBody(employee.email), company_id: acme.id });
    expect(upward.statusCode).toBe(403);
    expect((await as(ctx.app, acme).post('/api/invoices', { ...invoiceBody(employee.email), company_id: 'abc' })).statusCode).toBe(400);
  });

  it('replays an Idempotency-Key instead of creating twice', async () => {
    const before = await invoiceCount();
    const keyed = as(ctx.app, acme, { headers: { 'idempotency-key': `inv-${Date.now()}` } });
    const body = invoiceBody(employee.email);
    const first = await keyed.post('/api/invoices', body);
    const second = await keyed.post('/api/invoices', body);
    expect(second.statusCode).toBe(201);
    expect(second.json().invoice.transaction_id).toBe(first.json().invoice.transaction_id);
    expect(await invoiceCount()).toBe(before + 1);
  });
});

describe('I2 and I1', () => {
  it('I2 shows an invoice; unknown and other companies’ ids are 404', async () => {
    const invoice = await fresh();
    const res = await as(ctx.app, acme).get(`/api/invoices/${invoice.transaction_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invoice retrieved successfully.', invoice });
    for (const [who, id] of [
      [stranger, invoice.transaction_id],
      [child, invoice.transaction_id],
      [acme, 'INV-00000000-NOPE'],
    ] as const) {
      const miss = await as(ctx.app, who).get(`/api/invoices/${id}`);
      expect(miss.statusCode).toBe(404);
      expect(miss.json()).toEqual({ error: 'Invoice not found.' });
    }
    // The parent finds the child's invoice only when it targets the child.
    const gc = await createInvoiceViaApi(ctx.app, acme, { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    expect((await as(ctx.app, acme).get(`/api/invoices/${gc.transaction_id}`)).statusCode).toBe(404);
    expect((await as(ctx.app, acme).get(`/api/invoices/${gc.transaction_id}?company_id=${grandchild.id}`)).statusCode).toBe(200);
  });

  it('I1 filters, sorts over the allow-list, pages and reports meta', async () => {
    const company = await createCompany(ctx.db);
    const [worker] = await createUsers(ctx.db, company.id, [{}]);
    const made: InvoiceJson[] = [];
    for (const amount of ['300.00', '100.00', '200.00']) {
      made.push(await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email, { total_amount: amount, amount_requested: amount })));
    }
    const list = (query: string) => as(ctx.app, company).get(`/api/invoices${query}`);
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

  it('I1 refuses Object.prototype names as sort columns (422, not a 500)', async () => {
    const company = await createCompany(ctx.db);
    for (const sort of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) {
      const res = await as(ctx.app, company).get(`/api/invoices?sort=${sort}`);
      expect([res.statusCode, res.json()], sort).toEqual([422, { error: { sort: ['The selected sort is invalid.'] } }]);
    }
  });

  it('I1 targets descendants through company_id and refuses strangers', async () => {
    const res = await as(ctx.app, acme).get(`/api/invoices?company_id=${grandchild.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoices.every((i: InvoiceJson) => i.company_id === grandchild.id)).toBe(true);
    expect(res.json().meta.total).toBeGreaterThan(0);
    for (const [who, target] of [
      [acme, stranger],
      [grandchild, child],
      [child, acme],
    ] as const) {
      const refused = await as(ctx.app, who).get(`/api/invoices?company_id=${target.id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: "You do not have permission to access this company's invoices." });
    }
    expect((await as(ctx.app, acme).get('/api/invoices?company_id=99999999')).statusCode).toBe(403);
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
        const res = await as(ctx.app, who).request(method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ error: 'Invoice not found.' });
      }
      const list = await as(ctx.app, who).get(`/api/invoices?transaction_id=${id}`);
      expect(list.json().invoices).toEqual([]);
    }
    const after = await as(ctx.app, acme).get(`/api/invoices/${id}`);
    expect(after.json().invoice).toEqual(invoice);
  });

  it('the parent manages a grandchild’s invoice end to end through company_id', async () => {
    const gc = await createInvoiceViaApi(ctx.app, acme, { ...invoiceBody(grandchildEmployee.email), company_id: grandchild.id });
    const q = `?company_id=${grandchild.id}`;
    expect(
      (await as(ctx.app, acme).put(`/api/invoices/${gc.transaction_id}/approve${q}`, { manager_email: MANAGER, decision: 'approve' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await as(ctx.app, acme).put(`/api/invoices/${gc.transaction_id}/finance-approve`, {
          company_id: grandchild.id,
          finance_approver_email: FINANCE,
          decision: 'approve',
        })
      ).statusCode,
    ).toBe(200);
    expect((await as(ctx.app, acme).put(`/api/invoices/${gc.transaction_id}${q}`, { amount_paid: '5' })).json().invoice.status).toBe(
      'partially_paid',
    );
    // The grandchild sees it as its own; a sibling branch never does.
    expect((await as(ctx.app, grandchild).get(`/api/invoices/${gc.transaction_id}`)).statusCode).toBe(200);
    expect((await as(ctx.app, stranger).get(`/api/invoices/${gc.transaction_id}`)).statusCode).toBe(404);
  });
});

describe('awaitingApproval (web console)', () => {
  it('lists pending and manager-approved invoices of one company, oldest first', async () => {
    const company = await createCompany(ctx.db);
    const [worker, boss] = await createUsers(ctx.db, company.id, [{}, {}]);
    const a = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    const b = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    const c = await createInvoiceViaApi(ctx.app, company, invoiceBody(worker.email));
    await as(ctx.app, company).put(`/api/invoices/${b.transaction_id}/approve`, { manager_email: boss.email, decision: 'approve' });
    await as(ctx.app, company).put(`/api/invoices/${c.transaction_id}/approve`, { manager_email: boss.email, decision: 'reject' });
    const service = createInvoicesService(ctx.app.deps);
    const queue = await service.awaitingApproval(company.id);
    expect(queue.map((i) => [i.transaction_id, i.approval_status])).toEqual([
      [a.transaction_id, 'pending'],
      [b.transaction_id, 'manager_approved'],
    ]);
  });
});
