// Console: an employee's loans and opening figures (docs/console.md, "Employees"): the employee page
// links both; a loan is recorded only after its confirm step (post/redirect/get with a notice), an
// advance above a month's wages is refused with the API's message; skip, settle and write-off each
// confirm first; opening figures are shown beside what the service paid, set after a confirm step,
// and refused with the API's messages. Another company's employee or loan is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { as } from '../../test/helpers/http.js';
import { createAdmin, signIn, type WebClient } from '../../test/helpers/web.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let web: WebClient;
let user: { id: number };
let stranger: { id: number };

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Loans' });
  other = await createCompany(ctx.db, { name: 'Other Loans' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'loans.admin@personal.test' });
  web = await signIn(ctx.app, admin.email);
  [user] = await createUsers(ctx.db, acme.id, [{ firstName: 'Kemi', lastName: 'Borrower', baseSalary: '300000.00' }]);
  [stranger] = await createUsers(ctx.db, other.id, [{ firstName: 'Not', lastName: 'Ours' }]);
}, 180_000);
afterAll(() => ctx?.close());

const loansOf = async () => (await as(ctx.app, acme).get(`/api/users/${user.id}/loans`)).json().data.data;

describe('Loans and advances page', () => {
  it('is linked from the employee page and lists nothing at first', async () => {
    const employee = await web.get(`/console/employees/${user.id}/statutory`);
    expect(employee.body).toContain(`href="/console/employees/${user.id}/loans"`);
    expect(employee.body).toContain(`href="/console/employees/${user.id}/year-to-date"`);
    const page = await web.get(`/console/employees/${user.id}/loans`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Loans and advances of Kemi Borrower');
    expect(page.body).toContain('No loans or advances.');
  });

  it('records a loan after the confirm step, then redirects with a notice', async () => {
    const form = { kind: 'loan', principal: '120000', instalment: '40000', start_period: '2026-03', interest_rate_annual: '12' };
    const confirm = await web.post(`/console/employees/${user.id}/loans`, form);
    expect(confirm.statusCode, confirm.body.slice(0, 400)).toBe(200);
    expect(confirm.body).toContain('Confirm the loan');
    expect(confirm.body).toContain('₦120,000.00');
    expect(await loansOf()).toEqual([]);
    const done = await web.post(`/console/employees/${user.id}/loans`, { ...form, confirm: 'yes' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/console/employees/${user.id}/loans?done=created`);
    const after = await web.get(done.headers.location as string);
    expect(after.body).toContain('Recorded. Repayments start');
    expect(after.body).toContain('₦40,000.00');
    expect(await loansOf()).toMatchObject([
      { principal: '120000.00', instalment: '40000.00', interest_rate_annual: '12', status: 'active' },
    ]);
  });

  it('refuses an advance above a month of wages with the rule, writing nothing (422)', async () => {
    const res = await web.post(`/console/employees/${user.id}/loans`, {
      kind: 'advance',
      principal: '400000',
      instalment: '100000',
      start_period: '2026-03',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('(Labour Act s.4)');
    expect(res.body).toContain('value="400000"');
    expect(await loansOf()).toHaveLength(1);
  });

  it('skips a period, settles and writes off, each after a confirm step', async () => {
    const [loan] = await loansOf();
    const skipConfirm = await web.post(`/console/loans/${loan.id}/skip`, { period: '2026-04' });
    expect(skipConfirm.body).toContain(`Skip loan #${loan.id}?`);
    expect((await loansOf())[0].skipped_periods).toEqual([]);
    const skipped = await web.post(`/console/loans/${loan.id}/skip`, { period: '2026-04', confirm: 'yes' });
    expect(skipped.headers.location).toBe(`/console/employees/${user.id}/loans?done=skipped`);
    expect((await loansOf())[0].skipped_periods).toEqual(['2026-04']);
    const twice = await web.post(`/console/loans/${loan.id}/skip`, { period: '2026-04', confirm: 'yes' });
    expect(twice.statusCode).toBe(422);
    expect(twice.body).toContain('The period is already skipped.');

    expect((await web.post(`/console/loans/${loan.id}/settle`, {})).body).toContain(`Settle loan #${loan.id}?`);
    const settled = await web.post(`/console/loans/${loan.id}/settle`, { confirm: 'yes' });
    expect(settled.headers.location).toBe(`/console/employees/${user.id}/loans?done=settled`);
    expect((await web.get(settled.headers.location as string)).body).toContain('Loan settled');
    expect((await loansOf())[0]).toMatchObject({ status: 'paid_off', balance: '0.00', closed_balance: '120000.00' });
    const closed = await web.post(`/console/loans/${loan.id}/write-off`, { confirm: 'yes' });
    expect(closed.statusCode).toBe(409);
    expect(closed.body).toContain('Only an active loan can be changed.');

    const second = await as(ctx.app, acme).post(`/api/users/${user.id}/loans`, {
      kind: 'loan',
      principal: '5000',
      instalment: '1000',
      start_period: '2026-05',
    });
    const id = second.json().loan.id;
    expect((await web.post(`/console/loans/${id}/write-off`, {})).body).toContain(`Write off loan #${id}?`);
    expect((await web.post(`/console/loans/${id}/write-off`, { confirm: 'yes' })).headers.location).toBe(
      `/console/employees/${user.id}/loans?done=written-off`,
    );
    expect((await as(ctx.app, acme).get(`/api/loans/${id}`)).json().loan.status).toBe('written_off');
  });

  it("another company's employee and loan are not found", async () => {
    expect((await web.get(`/console/employees/${stranger.id}/loans`)).statusCode).toBe(404);
    const theirs = await as(ctx.app, other).post(`/api/users/${stranger.id}/loans`, {
      kind: 'loan',
      principal: '5000',
      instalment: '1000',
      start_period: '2026-05',
    });
    expect((await web.post(`/console/loans/${theirs.json().loan.id}/settle`, { confirm: 'yes' })).statusCode).toBe(404);
    expect((await as(ctx.app, other).get(`/api/loans/${theirs.json().loan.id}`)).json().loan.status).toBe('active');
  });
});

describe('Opening year-to-date page', () => {
  const figures = {
    gross_pay: '3000000',
    taxable_pay: '3000000',
    tax_withheld: '396120',
    employee_pension: '216000',
    nhf: '0',
    nhis: '0',
    months: '6',
  };

  it('shows none, then sets the figures after a confirm step, shown beside what the service paid', async () => {
    const page = await web.get(`/console/employees/${user.id}/year-to-date?year=2026`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No opening figures recorded for this year.');
    const confirm = await web.post(`/console/employees/${user.id}/year-to-date`, { year: '2026', ...figures });
    expect(confirm.statusCode, confirm.body.slice(0, 400)).toBe(200);
    expect(confirm.body).toContain('Confirm the opening figures of Kemi Borrower for 2026');
    expect(confirm.body).toContain('₦396,120.00');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}/year-to-date/2026`)).json().opening).toBeNull();
    const done = await web.post(`/console/employees/${user.id}/year-to-date`, { year: '2026', ...figures, confirm: 'yes' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/console/employees/${user.id}/year-to-date?year=2026&done=saved`);
    const after = await web.get(done.headers.location as string);
    expect(after.body).toContain('Opening figures saved.');
    expect(after.body).toContain('Recorded, 6 months before this service.');
    expect(after.body).toContain('₦3,000,000.00');
    expect((await as(ctx.app, acme).get(`/api/users/${user.id}/year-to-date/2026`)).json().opening).toMatchObject({
      tax_withheld: 396120,
      months: 6,
    });
  });

  it("refuses what the API refuses, with its messages (422), and another company's employee is not found", async () => {
    const bad = await web.post(`/console/employees/${user.id}/year-to-date`, {
      year: '2026',
      ...figures,
      tax_withheld: '-1',
      months: '13',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('The months field must be a whole number between 0 and 12.');
    expect(bad.body).toContain('value="-1"');
    const year = await web.post(`/console/employees/${user.id}/year-to-date`, { year: '1999', ...figures });
    expect(year.statusCode).toBe(422);
    expect(year.body).toContain('The year must be a year between 2021 and 2100.');
    expect((await web.get(`/console/employees/${stranger.id}/year-to-date`)).statusCode).toBe(404);
  });
});
