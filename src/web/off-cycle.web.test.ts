// Payroll → New off-cycle run over inject (no browser): the form lists the active employees and the
// item types (built-ins and the company's own, arrears left to the API), a post creates a draft
// off-cycle run whose page shows its kind, regular and irregular gross and each paystub's items;
// refusals keep what was typed with each message on its field or row; no CSRF token is a 403; another
// company sees neither the run nor the employees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, formBody, signIn, type WebClient } from '../../test/helpers/web.js';

const PATH = '/console/payroll/off-cycle/new';
let ctx: TestContext;
let acme: TestCompany;
let maker: WebClient;
let stranger: WebClient;
let staff: Awaited<ReturnType<typeof createUsers>>;
let runId = '';

/** One row per employee given, in that order (rows the test leaves out are simply not on the form). */
const rows = (entries: [userId: number, type: string, amount: string, description?: string][]) => ({
  user_id: entries.map(([id]) => String(id)),
  type: entries.map(([, type]) => type),
  amount: entries.map(([, , amount]) => amount),
  description: entries.map(([, , , description]) => description ?? ''),
});
const offCycleRuns = async () =>
  (await ctx.app.services.payrollRuns.runs.list(acme.id, { kind: 'off_cycle', page: 1, per_page: 50 }, {})).data.data.length;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Acme Foods' });
  const makerUser = await createAdmin(ctx.db, acme.id, { firstName: 'Ada', lastName: 'Maker' });
  staff = await createUsers(ctx.db, acme.id, [
    { firstName: 'Chidi', lastName: 'Paid', baseSalary: '300000.00' },
    { firstName: 'Ngozi', lastName: 'Paid', baseSalary: '250000.50' },
    { firstName: 'Idle', lastName: 'Person', baseSalary: '100000.00', isActive: false },
  ]);
  await ctx.app.services.payItems.payItemTypes.create(acme.id, { code: 'night_shift', name: 'Night shift pay', treatment: 'earning' });
  const other = await createCompany(ctx.db, { name: 'Other Ltd' });
  const otherAdmin = await createAdmin(ctx.db, other.id);
  maker = await signIn(ctx.app, makerUser.email);
  stranger = await signIn(ctx.app, otherAdmin.email);
}, 180_000);
afterAll(() => ctx?.close());

describe('console: New off-cycle run', () => {
  it('is linked from the payroll page and lists the active employees and the item types', async () => {
    expect((await maker.get('/console/payroll')).body).toContain(`href="${PATH}"`);
    const res = await maker.get(PATH);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Chidi Paid');
    expect(res.body).not.toContain('Idle Person');
    expect(res.body).toContain('<option value="bonus">Bonus</option>');
    expect(res.body).toContain('<option value="deduction">Deduction (deduction)</option>');
    expect(res.body).toContain('<optgroup label="Your company\'s types"><option value="night_shift">Night shift pay</option>');
    expect(res.body).not.toContain('value="arrears"');
    for (const reason of ['bonus', 'correction', 'final_pay', 'other']) expect(res.body).toContain(`<option value="${reason}">`);
    expect(res.body).toContain(`aria-label="Amount for Chidi Paid"`);
  });

  it('refuses without the CSRF token, and creates nothing', async () => {
    const form = { reason: 'bonus', payment_date: '2026-12-15', ...rows([[staff[0].id, 'bonus', '1000']]) };
    const bare = await as(ctx.app, anonymous).post(PATH, formBody(form), {
      headers: { cookie: maker.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bare.statusCode).toBe(403);
    expect((await maker.post(PATH, { ...form, _csrf: 'forged' })).statusCode).toBe(403);
    expect(await offCycleRuns()).toBe(0);
  });

  it('keeps what was typed and shows each message next to its field', async () => {
    // An amount without a type: asked about on that row before anything is sent.
    let res = await maker.post(PATH, { reason: 'bonus', payment_date: '2026-12-15', ...rows([[staff[1].id, '', '100']]) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(`<p class="field-error" id="type-${staff[1].id}-error">Choose an item type for this amount.</p>`);
    expect(res.body).toContain(`id="amount-${staff[1].id}" aria-label="Amount for Ngozi Paid" value="100"`);

    // The service's refusal: users.0.items.0.amount lands on Chidi's row, the payment date next to its field.
    res = await maker.post(PATH, {
      reason: 'bonus',
      payment_date: '',
      ...rows([
        [staff[0].id, 'bonus', '12.345', 'Too precise'],
        [staff[1].id, 'no_such_type', '500'],
      ]),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The off-cycle run was not created: check the fields marked below.');
    expect(res.body).toContain('<p class="field-error" id="payment_date-error">The payment date field is required.</p>');
    expect(res.body).toContain(
      `<p class="field-error" id="amount-${staff[0].id}-error">The amount field must have at most 2 decimal places.</p>`,
    );
    expect(res.body).toContain(`value="12.345" aria-invalid="true" aria-describedby="amount-${staff[0].id}-error"`);
    expect(res.body).toContain('value="Too precise"');
    expect(res.body).toContain('<option value="bonus" selected>Bonus</option>');
    expect(res.body).toContain(`id="amount-${staff[1].id}" aria-label="Amount for Ngozi Paid" value="500"`);
    expect(res.body).not.toContain('users.0');
    // Types are resolved once the fields are well formed: the second employee sent, on Ngozi's row.
    res = await maker.post(PATH, {
      reason: 'bonus',
      payment_date: '2026-12-15',
      ...rows([
        [staff[0].id, 'bonus', '12.34'],
        [staff[1].id, 'no_such_type', '500'],
      ]),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(`<p class="field-error" id="type-${staff[1].id}-error">The selected type is invalid.</p>`);
    expect(res.body).not.toContain('users.1');

    // Nobody filled in, and a reason that is not one of the four.
    res = await maker.post(PATH, { reason: 'holiday', payment_date: '2026-12-15', ...rows([[staff[0].id, '', '']]) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Give at least one employee an item type and an amount.');
    res = await maker.post(PATH, { reason: 'holiday', payment_date: '2026-12-15', ...rows([[staff[0].id, 'bonus', '5']]) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      '<p class="field-error" id="reason-error">The reason must be one of bonus, correction, final_pay, other.</p>',
    );
    expect(await offCycleRuns()).toBe(0);
  });

  it('creates a draft off-cycle run with the items, shown on the run page and in the list', async () => {
    const res = await maker.post(PATH, {
      reason: 'bonus',
      payment_date: '2026-12-15',
      ...rows([
        [staff[0].id, 'bonus', '50,000.00', 'Q4 performance'],
        [staff[1].id, '', ''],
      ]),
    });
    expect(res.statusCode).toBe(303);
    runId = /^\/console\/payroll\/(PR-[\w-]+)\?done=off_cycle_created$/.exec(res.headers.location as string)?.[1] ?? '';
    expect(runId).not.toBe('');

    const { run } = await ctx.app.services.payrollRuns.runs.show(acme.id, runId);
    expect(run).toMatchObject({ kind: 'off_cycle', reason: 'bonus', status: 'draft', payment_date: '2026-12-15' });
    expect(run.totals).toMatchObject({ employees: 1, gross_pay: 50000, irregular_gross: 50000, regular_gross: 0 });
    const stubs = (await ctx.app.services.paystubs.paystubs.runPaystubs(acme.id, runId)).data.data;
    expect(
      stubs.map((stub) => [stub.user_id, stub.off_cycle, stub.items.map((item) => [item.type, item.amount, item.description])]),
    ).toEqual([[staff[0].id, true, [['bonus', 50000, 'Q4 performance']]]]);

    const runPage = (await maker.get(res.headers.location as string)).body;
    expect(runPage).toContain('Off-cycle draft run created');
    expect(runPage).toContain('<dd data-run-kind>Off-cycle: bonus</dd>');
    expect(runPage).toContain('<dt>Regular gross</dt><dd>₦0.00</dd>');
    expect(runPage).toContain('<dt>Irregular gross</dt><dd>₦50,000.00</dd>');
    expect(runPage).toContain('<li>Bonus: <span class="nowrap">₦50,000.00</span> <span class="muted">(Q4 performance)</span></li>');
    expect((await maker.get('/console/payroll')).body).toContain('<td>Off-cycle: bonus</td>');
  });

  it("another company's session sees neither the run nor the employees, and cannot pay them", async () => {
    expect((await stranger.get(`/console/payroll/${runId}`)).statusCode).toBe(404);
    expect((await stranger.get('/console/payroll')).body).not.toContain(runId);
    const form = await stranger.get(PATH);
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('Chidi Paid');
    const res = await stranger.post(PATH, { reason: 'bonus', payment_date: '2026-12-15', ...rows([[staff[0].id, 'bonus', '1000']]) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('No paystub could be made for this run. User not found.');
    expect(await offCycleRuns()).toBe(1);
  });
});
