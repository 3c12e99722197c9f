// Console pages over inject: onboarding, settings, overview pages and payroll runs. Sign-in and
// sessions are in web.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, csrfOf, formBody, mergeCookies, signIn } from '../../test/helpers/web.js';
import { users } from '../db/schema/index.js';
import { naira } from '../tax-engine/money.js';

let ctx: TestContext;
let acme: TestCompany;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  ctx = await createTestApp({ walletVerifyDelaySeconds: 0 });
  acme = await createCompany(ctx.db, { name: 'Acme <b>Foods</b>' });
  admin = await createAdmin(ctx.db, acme.id, { firstName: 'Ada', lastName: 'Obi', personalEmail: 'ada@personal.test' });
}, 180_000); // the machine is shared: opening PGlite and migrating can be slow under load
afterAll(() => ctx?.close());

async function loginPage(remoteAddress = '127.0.0.1') {
  const res = await as(ctx.app, anonymous).get('/console/login', { remoteAddress });
  return { cookie: mergeCookies('', res.headers['set-cookie']), csrf: csrfOf(res.body), res };
}

describe('onboarding page', () => {
  async function invite(token: string, options: { expiresInMs?: number; roles?: string[] } = {}) {
    const [user] = await ctx.db
      .update(users)
      .set({
        onboardingToken: token,
        tokenExpiresAt: new Date(Date.now() + (options.expiresInMs ?? 7 * 86_400_000)),
        onboardingCompleted: false,
        isActive: false,
        passwordHash: null,
      })
      .where(eq(users.id, (await createAdmin(ctx.db, acme.id, { roles: options.roles ?? ['super-admin'], isActive: false })).id))
      .returning();
    return user;
  }

  async function openLink(token: string) {
    const res = await as(ctx.app, anonymous).get(`/onboarding/${token}`);
    return { res, cookie: mergeCookies('', res.headers['set-cookie']), csrf: res.statusCode === 200 ? csrfOf(res.body) : '' };
  }

  const submit = (token: string, cookie: string, form: Record<string, string>) =>
    as(ctx.app, anonymous).post(`/onboarding/${token}`, formBody(form), {
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('sets the password, activates the user, completes onboarding, and the admin can sign in', async () => {
    const token = 'onb_ok_0123456789abcdefghijklmnopqrstuv';
    const user = await invite(token);
    const { res, cookie, csrf } = await openLink(token);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Set your password');
    expect(res.body).toContain(user.email);
    expect(res.headers['referrer-policy']).toBe('same-origin');

    const weak = await submit(token, cookie, { _csrf: csrf, password: 'short', password_confirmation: 'other' });
    expect(weak.statusCode).toBe(422);
    expect(weak.body).toContain('The password field must be at least 12 characters.');
    expect(weak.body).toContain('The password field must contain at least one uppercase letter.');
    expect(weak.body).toContain('The password field must contain at least one symbol.');
    expect(weak.body).toContain('The password field confirmation does not match.');

    const forged = await submit(token, cookie, {
      _csrf: 'forged',
      password: 'New-Password-2026!',
      password_confirmation: 'New-Password-2026!',
    });
    expect(forged.statusCode).toBe(403);
    const [still] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(still.isActive).toBe(false);

    const done = await submit(token, cookie, { _csrf: csrf, password: 'New-Password-2026!', password_confirmation: 'New-Password-2026!' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are all set');
    const [after] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after.isActive).toBe(true);
    expect(after.onboardingCompleted).toBe(true);
    expect(after.onboardingToken).toBeNull();
    expect(after.passwordHash?.startsWith('$argon2id$')).toBe(true);

    // Used links get a clear page, and the new password signs the super admin in.
    const again = await openLink(token);
    expect(again.res.statusCode).toBe(404);
    expect(again.res.body).toContain('may have been used already');
    const resubmit = await submit(token, cookie, {
      _csrf: csrf,
      password: 'New-Password-2026!',
      password_confirmation: 'New-Password-2026!',
    });
    expect(resubmit.statusCode).toBe(404);
    expect((await signIn(ctx.app, user.email, 'New-Password-2026!')).csrf).toBeTruthy();
  });

  it('answers expired links with 410 and unknown ones with 404, never a 500', async () => {
    const token = 'onb_old_0123456789abcdefghijklmnopqrstu';
    await invite(token, { expiresInMs: -1000 });
    const expired = await openLink(token);
    expect(expired.res.statusCode).toBe(410);
    expect(expired.res.body).toContain('This onboarding link has expired');
    const { cookie, csrf } = await loginPage();
    const post = await submit(token, cookie, { _csrf: csrf, password: 'New-Password-2026!', password_confirmation: 'New-Password-2026!' });
    expect(post.statusCode).toBe(410);

    for (const bad of ['nope', 'x'.repeat(90), '%3Cscript%3E']) {
      const res = await as(ctx.app, anonymous).get(`/onboarding/${bad}`);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).not.toContain('<script>');
    }
  });
});

describe('settings', () => {
  it('manages e-mail domains, user types, roles and redirect domains through the vocabulary service', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const client = await signIn(ctx.app, owner.email);
    let res = await client.get('/console/settings');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(company.domain);
    expect(res.body).toContain('primary');
    for (const name of ['Full-time', 'Intern', 'super-admin', 'finance']) expect(res.body).toContain(name);

    for (const [kind, value] of [
      ['domains', 'Staff.Example.NG'],
      ['user-types', 'Consultant'],
      ['roles', 'auditor'],
      ['redirect-domains', 'pay.example.com'],
    ]) {
      res = await client.post('/console/settings/vocabulary/add', { kind, value });
      expect(res.statusCode).toBe(303);
    }
    res = await client.get('/console/settings?done=added');
    for (const value of ['staff.example.ng', 'Consultant', 'auditor', 'pay.example.com', 'Added.']) expect(res.body).toContain(value);

    res = await client.post('/console/settings/vocabulary/add', { kind: 'domains', value: 'not a domain' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('is not a valid host name.');
    res = await client.post('/console/settings/vocabulary/add', { kind: 'domains', value: acme.domain });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('is already used by another company.');
    res = await client.post('/console/settings/vocabulary/add', { kind: 'roles', value: '   ' });
    expect(res.statusCode).toBe(422);
    res = await client.post('/console/settings/vocabulary/add', { kind: 'planets', value: 'x' });
    expect(res.statusCode).toBe(400);

    expect((await client.post('/console/settings/vocabulary/remove', { kind: 'user-types', value: 'Intern' })).statusCode).toBe(303);
    expect(
      (await client.post('/console/settings/vocabulary/remove', { kind: 'redirect-domains', value: 'pay.example.com' })).statusCode,
    ).toBe(303);
    res = await client.post('/console/settings/vocabulary/remove', { kind: 'user-types', value: 'Full-time' });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('cannot be removed');
    res = await client.post('/console/settings/vocabulary/remove', { kind: 'roles', value: 'admin' });
    expect(res.statusCode).toBe(409);
    res = await client.post('/console/settings/vocabulary/remove', { kind: 'domains', value: company.domain });
    expect(res.statusCode).toBe(409);
    res = await client.get('/console/settings');
    expect(res.body).not.toContain('>Intern<');
    expect(res.body).not.toContain('pay.example.com');

    // Another company's vocabulary is untouched.
    const other = await signIn(ctx.app, admin.email);
    expect((await other.get('/console/settings')).body).not.toContain('staff.example.ng');
    expect((await client.post('/console/settings/vocabulary/add', { _csrf: other.csrf, kind: 'roles', value: 'x' })).statusCode).toBe(403);
  });

  it('edits payroll contribution settings with explanations, and refuses invalid values without saving', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const client = await signIn(ctx.app, owner.email);
    let res = await client.get('/console/settings');
    expect(res.body).toContain('Pension Reform Act 2014');
    expect(res.body).toMatch(/id="basic_percentage" name="basic_percentage" type="text" inputmode="decimal" value="40"/);

    expect(res.body).toMatch(/<option value="annualised" selected>/);
    expect(res.body).toMatch(/<option value="gross" selected>/);

    res = await client.post('/console/settings/payroll', {
      tax_regime: 'nta2025',
      tax_method: 'cumulative',
      nsitf_base: 'basic_housing_transport',
      basic_percentage: '50',
      nhis_enabled: 'true',
      nhf_rate: '2.50',
    });
    expect(res.statusCode).toBe(303);
    const settings = await as(ctx.app, company).get(`/api/contribution-settings/${company.id}`);
    expect(settings.json().data).toMatchObject({
      tax_regime: 'nta2025',
      tax_method: 'cumulative',
      nsitf_base: 'basic_housing_transport',
      basic_percentage: '50',
      nhis_enabled: 'true',
      nhf_rate: '2.5',
    });
    res = await client.get('/console/settings');
    expect(res.body).toMatch(/<option value="cumulative" selected>/);
    expect(res.body).toMatch(/<option value="basic_housing_transport" selected>/);
    res = await client.post('/console/settings/payroll', { tax_method: 'monthly' });
    expect(res.statusCode).toBe(422);

    res = await client.post('/console/settings/payroll', { basic_percentage: 'abc', tax_regime: 'pita' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The basic_percentage must be a number from 0 to 100');
    expect(res.body).toContain('value="abc"');
    res = await client.post('/console/settings/payroll', { housing_percentage: '45' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('must not add up to more than 100');
    const after = await as(ctx.app, company).get(`/api/contribution-settings/${company.id}`);
    expect(after.json().data).toMatchObject({ tax_regime: 'nta2025', basic_percentage: '50', housing_percentage: '30' });
  });
});

describe('overview pages', () => {
  it('lists employees with paging and status badges, only of the signed-in company', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id, { firstName: 'Olu', lastName: 'Owner' });
    await createUsers(
      ctx.db,
      company.id,
      Array.from({ length: 27 }, (_, i) => ({ firstName: `Worker${i}`, lastName: 'Zed', isActive: i % 3 !== 0, baseSalary: '1234567.89' })),
    );
    const [suspended] = await createUsers(ctx.db, company.id, [{ firstName: 'Sus', lastName: 'Pended' }]);
    await ctx.db.update(users).set({ isSuspended: true }).where(eq(users.id, suspended.id));
    await createUsers(ctx.db, acme.id, [{ firstName: 'Foreign', lastName: 'Person' }]);
    const client = await signIn(ctx.app, owner.email);

    let res = await client.get('/console/employees');
    expect(res.statusCode).toBe(200);
    expect((res.body.match(/<tr><td>/g) ?? []).length).toBe(25);
    expect(res.body).toContain('Page 1 of 2 · 29 employees');
    expect(res.body).toContain('₦1,234,567.89');
    expect(res.body).toContain('badge ok">Active');
    expect(res.body).toContain('badge warn">Invited');
    expect(res.body).not.toContain('Foreign');
    res = await client.get('/console/employees?page=2');
    expect((res.body.match(/<tr><td>/g) ?? []).length).toBe(4);
    expect(res.body).toContain('badge bad">Suspended');
    expect((await client.get('/console/employees?page=0')).statusCode).toBe(400);

    // Search by name, e-mail or employee number, and by status; % and _ are literal.
    res = await client.get('/console/employees?q=worker1');
    expect(res.body).toContain('Employees matching the search (11)');
    res = await client.get(`/console/employees?q=${encodeURIComponent('sus pended')}`);
    expect((res.body.match(/<tr><td>/g) ?? []).length).toBe(1);
    res = await client.get('/console/employees?q=OLU.OWNER');
    expect(res.body).toContain('Olu Owner');
    res = await client.get('/console/employees?status=suspended');
    expect((res.body.match(/<tr><td>/g) ?? []).length).toBe(1);
    res = await client.get('/console/employees?status=invited&q=worker');
    expect(res.body).toContain('Employees matching the search (9)');
    expect(res.body).toContain('value="invited" selected');
    res = await client.get('/console/employees?q=%25');
    expect(res.body).toContain('No employees match this search.');
    res = await client.get('/console/employees?q=Foreign');
    expect(res.body).toContain('No employees match this search.');
    expect((await client.get('/console/employees?status=deleted')).statusCode).toBe(400);
    res = await client.get('/console/employees?q=worker&page=2');
    expect(res.body).toContain('href="/console/employees?q=worker&amp;page=1"');
    expect((await client.get('/console')).body).toContain('<p class="figure">29</p>');
  });

  it('sorts employees by name or employee number, either way, across pages and with the search kept', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id, { firstName: 'Ada', lastName: 'Admin' });
    await createUsers(ctx.db, company.id, [
      { firstName: 'Zainab', lastName: 'Bello' },
      { firstName: 'Musa', lastName: 'Yusuf' },
      { firstName: 'Chioma', lastName: 'Okafor' },
      { firstName: 'Bola', lastName: 'Bello' },
    ]);
    const client = await signIn(ctx.app, owner.email);
    const names = (body: string) => [...body.matchAll(/aria-label="Edit ([^"]+)"/g)].map((m) => m[1]);

    const byName = await client.get('/console/employees?sort=name&order=asc');
    expect(byName.statusCode).toBe(200);
    expect(names(byName.body)).toEqual(['Ada Admin', 'Bola Bello', 'Zainab Bello', 'Chioma Okafor', 'Musa Yusuf']);
    expect(byName.body).toContain('aria-sort="ascending"');
    expect(byName.body).toContain('Employees, by name');
    // The sorted header's link turns the order round; the other header starts ascending.
    expect(byName.body).toContain('href="/console/employees?sort=name&amp;order=desc"');
    expect(byName.body).toContain('href="/console/employees?sort=employee_id&amp;order=asc"');
    const desc = await client.get('/console/employees?sort=name&order=desc');
    expect(names(desc.body)).toEqual(['Musa Yusuf', 'Chioma Okafor', 'Zainab Bello', 'Bola Bello', 'Ada Admin']);
    expect(desc.body).toContain('aria-sort="descending"');

    const byNumber = names((await client.get('/console/employees?sort=employee_id&order=desc')).body);
    const ascending = names((await client.get('/console/employees')).body);
    expect(byNumber).toEqual([...ascending].reverse());
    // A search keeps its sort, and the sort keeps the search.
    const searched = await client.get('/console/employees?q=bello&sort=name&order=desc');
    expect(names(searched.body)).toEqual(['Zainab Bello', 'Bola Bello']);
    expect(searched.body).toContain('href="/console/employees?q=bello&amp;sort=name&amp;order=asc"');
    expect((await client.get('/console/employees?sort=salary')).statusCode).toBe(400);
    expect((await client.get('/console/employees?sort=name&order=up')).statusCode).toBe(400);
  });

  it('tops up the wallet through the sandbox checkout and shows balance and ledger in naira', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const client = await signIn(ctx.app, owner.email);
    let res = await client.get('/console/wallet');
    expect(res.body).toContain('₦0.00');

    res = await client.post('/console/wallet/top-up', { amount: '50', customer_email: owner.email });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('value="50"');
    res = await client.post('/console/wallet/top-up', { amount: '1,500,000.50', customer_email: 'nope' });
    expect(res.statusCode).toBe(422);

    res = await client.post('/console/wallet/top-up', { amount: '1,500,000.50', customer_email: owner.email });
    expect(res.statusCode).toBe(303);
    const checkout = res.headers.location as string;
    expect(checkout).toMatch(/^http:\/\/payroll\.test\/sandbox\/checkout\/WT-[0-9A-F]{24}\?secret=[A-Za-z0-9_-]{32}$/);
    const reference = new URL(checkout).pathname.split('/').pop() as string;
    res = await client.get('/console/wallet');
    expect(res.body).toContain(reference);
    expect(res.body).toContain('badge warn">Pending');

    const pay = await as(ctx.app, anonymous).post(new URL(checkout).pathname + new URL(checkout).search, 'outcome=success', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(pay.headers.location).toBe(`http://payroll.test/console/wallet?reference=${reference}`);
    await ctx.app.deps.jobs.runDue();
    res = await client.get(`/console/wallet?reference=${reference}`);
    expect(res.body).toContain(`Top-up ${reference} is paid and credited.`);
    expect(res.body).toContain('₦1,500,000.50');
    expect(res.body).toContain('badge ok">Paid');
    // Sandbox money is marked as such: on the balance, the ledger entry and the top-up.
    expect(res.body).toContain('₦1,500,000.50 of it is sandbox test money');
    expect(res.body.match(/badge info">Sandbox/g)?.length).toBe(3);

    // Another company's reference is not found.
    const stranger = await signIn(ctx.app, admin.email);
    expect((await stranger.get(`/console/wallet?reference=${reference}`)).body).toContain('was not found for this company');
  });

  it('lists invoices awaiting approval with naira amounts', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const [employee] = await createUsers(ctx.db, company.id, [{ firstName: 'Claim', lastName: 'Ant' }]);
    const created = await as(ctx.app, company).post('/api/invoices', {
      user_email: employee.email,
      description: 'Dental <care>',
      service_date: '2026-01-10',
      provider_name: 'Smile Clinic',
      total_amount: 250000.5,
      amount_requested: 200000,
      category_name: 'Health',
    });
    expect(created.statusCode).toBe(201);
    const client = await signIn(ctx.app, owner.email);
    const res = await client.get('/console/invoices');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(created.json().invoice.transaction_id);
    expect(res.body).toContain('Dental &lt;care&gt;');
    expect(res.body).toContain('₦250,000.50');
    expect(res.body).toContain('₦200,000.00');
    expect(res.body).toContain('Waiting for manager');
    expect((await client.get('/console')).body).toContain('₦0.00');
  });
});

describe('payroll runs', () => {
  it('lists runs with exact totals and shows a run with its paystubs; other companies get 404', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id);
    const staff = await createUsers(ctx.db, company.id, [
      { firstName: 'Pay', lastName: 'One' },
      { firstName: 'Pay', lastName: 'Two' },
    ]);
    const run = await as(ctx.app, company).post('/api/paystubs', {
      paystubs: staff.map((user) => ({
        id: String(user.id),
        pay_period_start: '2026-01-01',
        pay_period_end: '2026-01-31',
        taxable_income: 500000,
        reimbursements: 1000.5,
        other_allowances: 20000,
      })),
    });
    expect(run.statusCode).toBe(201);
    const created = run.json().created_paystubs as { paystub: { transaction_id: string; gross_pay: number; net_pay: number } }[];
    expect(created).toHaveLength(2);
    const transactionId = created[0].paystub.transaction_id;
    const client = await signIn(ctx.app, owner.email);

    let res = await client.get('/console/payroll');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(transactionId);
    expect(res.body).toContain(naira(String(created[0].paystub.gross_pay * 2)));

    res = await client.get(`/console/payroll/${transactionId}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Pay One');
    expect(res.body).toContain('2026-01-01<br>to 2026-01-31');
    expect(res.body).toContain('Run totals');
    expect(res.body).toContain(naira((created[0].paystub.net_pay * 2).toFixed(2)));

    const stranger = await signIn(ctx.app, admin.email);
    res = await stranger.get(`/console/payroll/${transactionId}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('There is no payroll run with that id in your company.');
    expect((await stranger.get('/console/payroll')).body).not.toContain(transactionId);
  });
});
