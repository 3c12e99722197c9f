// Invoices: the approval and payment lifecycle, who may approve (I5, I6), and state changes guarded
// in the database under concurrency. Create and read are in invoices.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createApprovers, createInvoiceViaApi, type InvoiceJson, invoiceBody } from '../../../test/helpers/companies-invoices.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { invoicePayments, invoices, outbox, users } from '../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let stranger: TestCompany;
let child: TestCompany;
let employee: { email: string; personalEmail: string; id: number };
let strangerEmployee: { email: string };

const MANAGER = 'manager@acme.test';
const FINANCE = 'finance@acme.test';

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme' });
  stranger = await createCompany(ctx.db);
  child = await createCompany(ctx.db, { createdBy: acme.id });
  [employee] = await createUsers(ctx.db, acme.id, [{ firstName: 'Ada', lastName: 'Obi', personalEmail: 'ada.obi@home.test' }]);
  [strangerEmployee] = await createUsers(ctx.db, stranger.id, [{ firstName: 'Sam' }]);
  // I5/I6 accept only active users of the invoice's company or of a company above it as approvers.
  await createApprovers(ctx.db, acme.id, [MANAGER, FINANCE, 'cfo@acme.test', 'quiet@acme.test', 'm1@acme.test', 'm2@acme.test']);
});
afterAll(() => ctx.close());

const fresh = (overrides: Record<string, unknown> = {}) => createInvoiceViaApi(ctx.app, acme, invoiceBody(employee.email, overrides));
const approve = (id: string, body: Record<string, unknown> = {}) =>
  as(ctx.app, acme).put(`/api/invoices/${id}/approve`, { manager_email: MANAGER, decision: 'approve', ...body });
const finance = (id: string, body: Record<string, unknown> = {}) =>
  as(ctx.app, acme).put(`/api/invoices/${id}/finance-approve`, { finance_approver_email: FINANCE, decision: 'approve', ...body });
const pay = (id: string, amount: unknown) => as(ctx.app, acme).put(`/api/invoices/${id}`, { amount_paid: amount });

async function approvedInvoice(overrides: Record<string, unknown> = {}): Promise<InvoiceJson> {
  const invoice = await fresh(overrides);
  expect((await approve(invoice.transaction_id)).statusCode).toBe(200);
  expect((await finance(invoice.transaction_id)).statusCode).toBe(200);
  return invoice;
}

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

    const removed = await as(ctx.app, acme).delete(`/api/invoices/${id}/destroy`);
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
    const locked = await as(ctx.app, acme).put(`/api/invoices/${managed.transaction_id}`, { description: 'Changed later' });
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
    expect((await as(ctx.app, acme).put(`/api/invoices/${done.transaction_id}`, { total_amount: '1' })).statusCode).toBe(409);
  });

  it('validates approval bodies and keeps four eyes on every claim', async () => {
    const invoice = await fresh();
    const id = invoice.transaction_id;
    expect((await as(ctx.app, acme).put(`/api/invoices/${id}/approve`, {})).json()).toEqual({
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
    const res = await as(ctx.app, acme).put(`/api/invoices/${id}`, {
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
    const tooMuch = await as(ctx.app, acme).put(`/api/invoices/${id}`, { total_amount: '100000' });
    expect(tooMuch.json()).toEqual({
      error: { amount_requested: ['The amount requested field must be less than or equal to the total amount.'] },
    });
    const badFields = await as(ctx.app, acme).put(`/api/invoices/${id}`, {
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
    expect((await as(ctx.app, acme).put(`/api/invoices/${id}`, { user_email: strangerEmployee.email })).json()).toEqual({
      error: { user_email: ['The selected user email is invalid.'] },
    });
    const same = await as(ctx.app, acme).put(`/api/invoices/${id}`, {});
    expect(same.statusCode).toBe(200);
    expect(same.json().invoice.description).toBe('Dental and X-ray');
  });

  it('I7 deletes unpaid (also denied or awaiting payment) invoices, which then vanish', async () => {
    const invoice = await fresh();
    const res = await as(ctx.app, acme).delete(`/api/invoices/${invoice.transaction_id}/destroy`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invoice deleted successfully.' });
    expect((await as(ctx.app, acme).get(`/api/invoices/${invoice.transaction_id}`)).statusCode).toBe(404);
    expect((await as(ctx.app, acme).get(`/api/invoices?transaction_id=${invoice.transaction_id}`)).json().invoices).toEqual([]);
    const again = await as(ctx.app, acme).delete(`/api/invoices/${invoice.transaction_id}/destroy`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'Invoice not found.' });
    const awaiting = await approvedInvoice();
    expect((await as(ctx.app, acme).delete(`/api/invoices/${awaiting.transaction_id}/destroy`)).statusCode).toBe(200);
    const partial = await approvedInvoice();
    await pay(partial.transaction_id, '1');
    expect((await as(ctx.app, acme).delete(`/api/invoices/${partial.transaction_id}/destroy`)).json()).toEqual({
      error: 'Paid or partially paid invoices cannot be deleted.',
    });
  });
});

describe('approvers are active users of the invoice’s company or of a company above it (I5, I6)', () => {
  const NOT_MANAGER = 'The manager email must be the company e-mail of an active user of this company or of a company above it.';
  const NOT_FINANCE = 'The finance approver email must be the company e-mail of an active user of this company or of a company above it.';

  it('refuses a manager_email that is nobody, a stranger’s, a child’s, an inactive or a suspended user, writing nothing', async () => {
    const [childUser] = await createUsers(ctx.db, child.id, [{}]);
    const [inactive, suspended] = await createUsers(ctx.db, acme.id, [{ isActive: false }, {}]);
    await ctx.db.update(users).set({ isSuspended: true }).where(eq(users.id, suspended.id));
    const invoice = await fresh();
    for (const manager of ['nobody@acme.test', strangerEmployee.email, childUser.email, inactive.email, suspended.email]) {
      const res = await approve(invoice.transaction_id, { manager_email: manager, notify_finance: true, finance_approver_email: FINANCE });
      expect(res.statusCode, manager).toBe(422);
      expect(res.json(), manager).toEqual({ error: { manager_email: [NOT_MANAGER] } });
    }
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, invoice.transaction_id));
    expect(row.approvalStatus).toBe('pending');
    expect(row.approvedByManagerEmail).toBeNull();
    expect(
      await ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.subject, `Invoice ${invoice.transaction_id} awaits your finance approval`)),
    ).toEqual([]);
  });

  it('notify_finance mails only a colleague: an outside finance_approver_email is 422 and nothing is sent', async () => {
    const invoice = await fresh();
    const res = await approve(invoice.transaction_id, { notify_finance: true, finance_approver_email: 'victim@elsewhere.test' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { finance_approver_email: [NOT_FINANCE] } });
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, 'victim@elsewhere.test'))).toEqual([]);
    expect((await approve(invoice.transaction_id, { notify_finance: true, finance_approver_email: FINANCE })).statusCode).toBe(200);
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, FINANCE))).not.toEqual([]);
  });

  it('I6 refuses a finance approver who is not a user of the company or above it', async () => {
    const invoice = await fresh();
    await approve(invoice.transaction_id);
    const res = await finance(invoice.transaction_id, { finance_approver_email: strangerEmployee.email });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { finance_approver_email: [NOT_FINANCE] } });
    const [row] = await ctx.db.select().from(invoices).where(eq(invoices.transactionId, invoice.transaction_id));
    expect(row.approvalStatus).toBe('manager_approved');
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
      as(ctx.app, acme).delete(`/api/invoices/${invoice.transaction_id}/destroy`),
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
