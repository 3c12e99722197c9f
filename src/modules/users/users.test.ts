// Users U1-U3 (create, read), U12/U13 templates and the employee sequence. Update is in
// update/users.update.test.ts; activation, deletion and suspension in lifecycle/users.lifecycle.test.ts.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppWithDataDir, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createStaff, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { createUserViaApi, newUserBody } from '../../../test/helpers/users.js';
import { companies, jobs, outbox, users } from '../../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let child: TestCompany;

beforeAll(async () => {
  ctx = await createTestAppWithDataDir();
  acme = await createCompany(ctx.db, { name: 'Acme Ltd' });
  other = await createCompany(ctx.db);
  child = await createCompany(ctx.db, { createdBy: acme.id });
});
afterAll(() => ctx?.close());

type Json = Record<string, unknown>;

const newUser = (overrides: Json = {}, company: TestCompany = acme): Json => newUserBody(company, overrides);
const create = (overrides: Json = {}, company: TestCompany = acme) => createUserViaApi(ctx.app, company, overrides);
const row = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe('U3 create', () => {
  it('creates an inactive user with defaults, derived e-mail, employee id, unique id and an onboarding token', async () => {
    const res = await as(ctx.app, acme).post(
      '/api/users',
      newUser({ first_name: 'Zoë', last_name: "O'Brien-Smith", base_salary: 250000.5, account_number: '0012345671', bank_name: 'GTB' }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('User created successfully');
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'id',
        'first_name',
        'last_name',
        'email',
        'personal_email',
        'company_id',
        'title',
        'department',
        'manager_id',
        'employee_id',
        'unique_id',
        'is_active',
        'onboarding_completed',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(body.user.email).toBe(`zoe.o.brien.smith@${acme.domain}`);
    expect(body.user.employee_id).toMatch(new RegExp(`^${acme.code}-\\d{4}$`));
    expect(body.user.unique_id).toMatch(/^[A-Za-z0-9_-]{12,}$/);
    expect(body.user.is_active).toBe(false);
    expect(body.user.onboarding_completed).toBe(false);
    const stored = await row(body.user.id);
    expect(stored.roles).toEqual(['user']);
    expect(stored.onboardingToken?.length).toBeGreaterThanOrEqual(32);
    const days = ((stored.tokenExpiresAt as Date).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect(stored.baseSalary).toBe('250000.50');
    expect(stored.accountNumber).toBe('0012345671');
    // notify defaults to false: no e-mail.
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail))).toHaveLength(0);
  });

  it('sends the invitation with the onboarding link when notify is true, in the same transaction', async () => {
    const user = await create({ notify: true });
    const stored = await row(user.id);
    const mails = await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`http://payroll.test/onboarding/${stored.onboardingToken}`);
    const [job] = await ctx.db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->'outboxIds' @> ${JSON.stringify([mails[0].id])}::jsonb`);
    expect(job.kind).toBe('mail.deliver');
  });

  it('creates an active user: onboarding completed, no token, welcome e-mail', async () => {
    const user = await create({ is_active: true, notify: true, roles: ['admin', 'finance'] });
    expect(user.is_active).toBe(true);
    expect(user.onboarding_completed).toBe(true);
    const stored = await row(user.id);
    expect(stored.onboardingToken).toBeNull();
    expect(stored.roles).toEqual(['admin', 'finance']);
    const [mail] = await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail));
    expect(mail.subject).toContain('Welcome');
  });

  it('adds a clash number to the company e-mail, across companies and deleted users too', async () => {
    const first = await create({ first_name: 'Chi', last_name: 'Eze' });
    const second = await create({ first_name: 'Chi', last_name: 'Eze' });
    const third = await create({ first_name: 'CHI', last_name: 'eze' });
    expect([first.email, second.email, third.email]).toEqual([
      `chi.eze@${acme.domain}`,
      `chi.eze2@${acme.domain}`,
      `chi.eze3@${acme.domain}`,
    ]);
    await as(ctx.app, acme).delete(`/api/users/${third.id}`);
    expect((await create({ first_name: 'Chi', last_name: 'Eze' })).email).toBe(`chi.eze4@${acme.domain}`);
  });

  it('numbers employees per company without repeats under concurrency', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => as(ctx.app, acme).post('/api/users', newUser({ first_name: 'Par', last_name: 'Allel' }))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const ids = results.map((r) => r.json().user.employee_id);
    const emails = results.map((r) => r.json().user.email);
    expect(new Set(ids).size).toBe(8);
    expect(new Set(emails).size).toBe(8);
  });

  it('makes ONE user from concurrent creates with the same personal e-mail', async () => {
    const body = newUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => as(ctx.app, acme).post('/api/users', body)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    const rows = await ctx.db
      .select()
      .from(users)
      .where(and(eq(users.companyId, acme.id), eq(users.personalEmail, body.personal_email as string)));
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.json().user.id))).toEqual(new Set([rows[0].id]));
  });

  it('updates and re-invites an inactive user with the same personal e-mail (200), refuses an active one (400)', async () => {
    const body = newUser({ title: 'Intern' });
    const first = await create(body);
    const before = await row(first.id);
    const res = await as(ctx.app, acme).post('/api/users', { ...body, title: 'Engineer', notify: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(first.id);
    const after = await row(first.id);
    expect(after.title).toBe('Engineer');
    expect(after.onboardingToken).not.toBe(before.onboardingToken);
    expect(after.employeeId).toBe(before.employeeId);
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, after.personalEmail))).toHaveLength(1);

    await as(ctx.app, acme).patch(`/api/users/${first.id}/activate`);
    const again = await as(ctx.app, acme).post('/api/users', body);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'User already exists and is active.' });
  });

  it('answers every 400 of U3 word for word', async () => {
    const cases: [Json, string][] = [
      [{ domain_name: 'nope.test' }, 'Domain name does not exist for the specified company.'],
      [{ user_types: 'Astronaut' }, 'The user type entered does not exist for the specified company.'],
      [{ manager_email: 'nobody@nowhere.test' }, 'Manager with specified email does not exist.'],
    ];
    for (const [overrides, message] of cases) {
      const res = await as(ctx.app, acme).post('/api/users', newUser(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    // Another company's domain and manager are not ours.
    const foreign = await create({}, other);
    expect((await as(ctx.app, acme).post('/api/users', newUser({ domain_name: other.domain }))).json()).toEqual({
      error: 'Domain name does not exist for the specified company.',
    });
    expect((await as(ctx.app, acme).post('/api/users', newUser({ manager_email: foreign.email }))).json()).toEqual({
      error: 'Manager with specified email does not exist.',
    });
  });

  it('resolves manager_email within the company and shows manager and manager_id', async () => {
    const boss = await create({ first_name: 'Big', last_name: 'Boss' });
    const user = await create({ manager_email: boss.email.toUpperCase() });
    expect(user.manager_id).toBe(boss.id);
    const shown = (await as(ctx.app, acme).get(`/api/users/${user.id}`)).json();
    expect(shown.manager).toBe('Big Boss');
    expect(shown.manager_id).toBe(boss.id);
  });

  it('answers 422 {error: {field: [msg]}} for missing and malformed fields and unknown roles, writing nothing', async () => {
    const before = (await ctx.db.select({ n: sql<number>`count(*)` }).from(users))[0].n;
    const res = await as(ctx.app, acme).post('/api/users', {});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        first_name: ['The first name field is required.'],
        last_name: ['The last name field is required.'],
        personal_email: ['The personal email field is required.'],
        domain_name: ['The domain name field is required.'],
        user_types: ['The user types field is required.'],
        start_date: ['The start date field is required.'],
      },
    });
    const bad = await as(ctx.app, acme).post(
      '/api/users',
      newUser({ personal_email: 'not-an-email', start_date: '2024-02-30', base_salary: '12.345', bank_name: 'GTB' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toEqual({
      personal_email: ['The personal email field must be a valid email address.'],
      start_date: ['The start date field must be a valid date.'],
      base_salary: ['The base salary field must have at most 2 decimal places.'],
      account_number: ['The account number field is required when bank name is present.'],
    });
    const roles = await as(ctx.app, acme).post('/api/users', newUser({ roles: ['user', 'ceo'] }));
    expect(roles.statusCode).toBe(422);
    expect(roles.json()).toEqual({ error: { roles: ['The selected role ceo is invalid.'] } });
    const wrongType = await as(ctx.app, acme).post('/api/users', newUser({ is_active: 'maybe' }));
    expect(wrongType.statusCode).toBe(422);
    expect((await ctx.db.select({ n: sql<number>`count(*)` }).from(users))[0].n).toBe(before);
  });

  it('answers 400 for malformed JSON and 403 for a company that is not ours; acts for a child company', async () => {
    const malformed = await as(ctx.app, acme).post('/api/users', '{"first_name":', { headers: { 'content-type': 'application/json' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed JSON body.' });
    const forbidden = await as(ctx.app, acme).post('/api/users', { ...newUser(), company_id: other.id });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    const missing = await as(ctx.app, acme).post('/api/users', { ...newUser(), company_id: 999999 });
    expect(missing.statusCode).toBe(403);
    const forChild = await as(ctx.app, acme).post('/api/users', { ...newUser({}, child), company_id: child.id });
    expect(forChild.statusCode).toBe(200);
    expect(forChild.json().user.company_id).toBe(child.id);
  });
});

describe('U1/U2 read', () => {
  it('lists only live users of the target company, with both paging styles', async () => {
    const fresh = await createCompany(ctx.db);
    await createStaff(ctx.db, fresh.id, 5);
    const page = await as(ctx.app, fresh).get('/api/users?page=2&per_page=2');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ totalResults: 5, startIndex: 3, itemsPerPage: 2 });
    const scim = (await as(ctx.app, fresh).get('/api/users?startIndex=5&count=10')).json();
    expect(scim.itemsPerPage).toBe(1);
    const both = await as(ctx.app, fresh).get('/api/users?startIndex=1&page=1');
    expect(both.statusCode).toBe(400);
    const tooMany = await as(ctx.app, fresh).get('/api/users?per_page=1001');
    expect(tooMany.statusCode).toBe(422);
  });

  it('answers 404 for another company’s user and 403 for another company id', async () => {
    const foreign = await create({}, other);
    expect((await as(ctx.app, acme).get(`/api/users/${foreign.id}`)).json()).toEqual({ error: 'User not found.' });
    expect((await as(ctx.app, acme).get(`/api/users/${foreign.id}`)).statusCode).toBe(404);
    const forbidden = await as(ctx.app, acme).get(`/api/users?company_id=${other.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
  });
});

describe('U12/U13 templates', () => {
  it('serves the import and update templates byte for byte', async () => {
    const header =
      'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number' +
      // Bank fields, then statutory data: bank_code, then the statutory columns, after the existing
      // ones.
      ',bank_code,annual_rent_paid,life_assurance_premium,nin (11 digits),tax_id,state_of_residence (code of GET /api/states),' +
      'rsa_pin (PEN + 12 digits),pfa_code (code of GET /api/pfas),nhf_number,nhf_opt_in (true/false),gender (male/female),is_expatriate (true/false),' +
      'pension_exempt (true/false),pension_exempt_reason';
    const instruction =
      'Instructions: start_date must use the format YYYY-MM-DD; format the account_number column as text to keep leading zeros.';
    const res = await as(ctx.app, acme).get('/api/users/import-template');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="users_import_template.csv"');
    expect(res.body).toBe(`${instruction}\r\n${header}\r\n`);
    const update = await as(ctx.app, acme).get('/api/users/update-template');
    expect(update.headers['content-disposition']).toBe('attachment; filename="users_update_template.csv"');
    expect(update.body).toBe(`${instruction}\r\nemail,${header}\r\n`);
    expect((await as(ctx.app, acme).get(`/api/users/import-template?company_id=${other.id}`)).statusCode).toBe(403);
  });
});

describe('employee sequence', () => {
  it('continues from companies.employee_seq', async () => {
    const company = await createCompany(ctx.db);
    await ctx.db.update(companies).set({ employeeSeq: 41 }).where(eq(companies.id, company.id));
    const user = await create({}, company);
    expect(user.employee_id).toBe(`${company.code}-0042`);
  });
});
