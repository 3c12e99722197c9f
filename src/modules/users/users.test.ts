import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { multipart } from '../../../test/helpers/users.js';
import { companies, jobs, outbox, users } from '../../db/schema/index.js';
import { verifyPassword } from './users.passwords.js';

let ctx: TestContext;
let acme: TestCompany;
let other: TestCompany;
let child: TestCompany;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-test-'));
  ctx = await createTestApp({ dataDir });
  acme = await createCompany(ctx.db, { name: 'Acme Ltd' });
  other = await createCompany(ctx.db);
  child = await createCompany(ctx.db, { createdBy: acme.id });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: Json, company: TestCompany = acme) =>
  ctx.app.inject({ method, url, headers: company.auth, ...(body ? { payload: body } : {}) });

let seq = 0;
function newUser(overrides: Json = {}, company: TestCompany = acme): Json {
  seq += 1;
  return {
    first_name: 'Ada',
    last_name: 'Obi',
    personal_email: `ada.${seq}.${process.pid}@personal.test`,
    domain_name: company.domain,
    user_types: 'Full-time',
    start_date: '2024-01-15',
    ...overrides,
  };
}
const create = async (overrides: Json = {}, company: TestCompany = acme) => {
  const res = await call('POST', '/api/users', newUser(overrides, company), company);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().user as Json & { id: number; email: string };
};
const row = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0];

describe('U3 create', () => {
  it('creates an inactive user with defaults, derived e-mail, employee id, unique id and an onboarding token', async () => {
    const res = await call(
      'POST',
      '/api/users',
      newUser({ first_name: 'Zoë', last_name: "O'Brien-Smith", base_salary: 250000.5, account_number: '0012345678', bank_name: 'GTB' }),
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
    expect(stored.accountNumber).toBe('0012345678');
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
    await call('DELETE', `/api/users/${third.id}`);
    expect((await create({ first_name: 'Chi', last_name: 'Eze' })).email).toBe(`chi.eze4@${acme.domain}`);
  });

  it('numbers employees per company without repeats under concurrency', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/api/users', newUser({ first_name: 'Par', last_name: 'Allel' }))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const ids = results.map((r) => r.json().user.employee_id);
    const emails = results.map((r) => r.json().user.email);
    expect(new Set(ids).size).toBe(8);
    expect(new Set(emails).size).toBe(8);
  });

  it('makes ONE user from concurrent creates with the same personal e-mail', async () => {
    const body = newUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => call('POST', '/api/users', body)));
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
    const res = await call('POST', '/api/users', { ...body, title: 'Engineer', notify: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(first.id);
    const after = await row(first.id);
    expect(after.title).toBe('Engineer');
    expect(after.onboardingToken).not.toBe(before.onboardingToken);
    expect(after.employeeId).toBe(before.employeeId);
    expect(await ctx.db.select().from(outbox).where(eq(outbox.to, after.personalEmail))).toHaveLength(1);

    await call('PATCH', `/api/users/${first.id}/activate`);
    const again = await call('POST', '/api/users', body);
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
      const res = await call('POST', '/api/users', newUser(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    // Another company's domain and manager are not ours.
    const foreign = await create({}, other);
    expect((await call('POST', '/api/users', newUser({ domain_name: other.domain }))).json()).toEqual({
      error: 'Domain name does not exist for the specified company.',
    });
    expect((await call('POST', '/api/users', newUser({ manager_email: foreign.email }))).json()).toEqual({
      error: 'Manager with specified email does not exist.',
    });
  });

  it('resolves manager_email within the company and shows manager and manager_id', async () => {
    const boss = await create({ first_name: 'Big', last_name: 'Boss' });
    const user = await create({ manager_email: boss.email.toUpperCase() });
    expect(user.manager_id).toBe(boss.id);
    const shown = (await call('GET', `/api/users/${user.id}`)).json();
    expect(shown.manager).toBe('Big Boss');
    expect(shown.manager_id).toBe(boss.id);
  });

  it('answers 422 {error: {field: [msg]}} for missing and malformed fields and unknown roles, writing nothing', async () => {
    const before = (await ctx.db.select({ n: sql<number>`count(*)` }).from(users))[0].n;
    const res = await call('POST', '/api/users', {});
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
    const bad = await call(
      'POST',
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
    const roles = await call('POST', '/api/users', newUser({ roles: ['user', 'ceo'] }));
    expect(roles.statusCode).toBe(422);
    expect(roles.json()).toEqual({ error: { roles: ['The selected role ceo is invalid.'] } });
    const wrongType = await call('POST', '/api/users', newUser({ is_active: 'maybe' }));
    expect(wrongType.statusCode).toBe(422);
    expect((await ctx.db.select({ n: sql<number>`count(*)` }).from(users))[0].n).toBe(before);
  });

  it('answers 400 for malformed JSON and 403 for a company that is not ours; acts for a child company', async () => {
    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...acme.auth, 'content-type': 'application/json' },
      payload: '{"first_name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed JSON body.' });
    const forbidden = await call('POST', '/api/users', { ...newUser(), company_id: other.id });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    const missing = await call('POST', '/api/users', { ...newUser(), company_id: 999999 });
    expect(missing.statusCode).toBe(403);
    const forChild = await call('POST', '/api/users', { ...newUser({}, child), company_id: child.id });
    expect(forChild.statusCode).toBe(200);
    expect(forChild.json().user.company_id).toBe(child.id);
  });
});

describe('U1/U2 read', () => {
  it('lists only live users of the target company, with both paging styles', async () => {
    const fresh = await createCompany(ctx.db);
    await createUsers(
      ctx.db,
      fresh.id,
      Array.from({ length: 5 }, () => ({})),
    );
    const page = await call('GET', '/api/users?page=2&per_page=2', undefined, fresh);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ totalResults: 5, startIndex: 3, itemsPerPage: 2 });
    const scim = (await call('GET', '/api/users?startIndex=5&count=10', undefined, fresh)).json();
    expect(scim.itemsPerPage).toBe(1);
    const both = await call('GET', '/api/users?startIndex=1&page=1', undefined, fresh);
    expect(both.statusCode).toBe(400);
    const tooMany = await call('GET', '/api/users?per_page=1001', undefined, fresh);
    expect(tooMany.statusCode).toBe(422);
  });

  it('answers 404 for another company’s user and 403 for another company id', async () => {
    const foreign = await create({}, other);
    expect((await call('GET', `/api/users/${foreign.id}`)).json()).toEqual({ error: 'User not found.' });
    expect((await call('GET', `/api/users/${foreign.id}`)).statusCode).toBe(404);
    const forbidden = await call('GET', `/api/users?company_id=${other.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
  });
});

describe('U4 update', () => {
  it('updates fields, re-derives the e-mail on a name change and reports it', async () => {
    const user = await create({ first_name: 'Ngozi', last_name: 'Ade' });
    const res = await call('PUT', `/api/users/${user.id}`, { last_name: 'Okafor', title: 'Lead', base_salary: '300000', notify: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('User updated successfully via API');
    expect(body.emailUpdate).toBe(`Email changed to ngozi.okafor@${acme.domain}.`);
    expect(body.uniqueIdUpdate).toBe('No change.');
    expect(body.user).toMatchObject({ last_name: 'Okafor', title: 'Lead', base_salary: '300000.00', email: `ngozi.okafor@${acme.domain}` });
    const stored = await row(user.id);
    const mails = await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail));
    expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining('updated')]);

    const same = await call('PUT', `/api/users/${user.id}`, { title: 'Lead' });
    expect(same.json().emailUpdate).toBe('No change.');
  });

  it('stores an argon2id password after the rules, and answers 422 with the password messages', async () => {
    const user = await create();
    const weak = await call('PUT', `/api/users/${user.id}`, { password: 'short', password_confirmation: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.password).toEqual([
      'The password field must be at least 12 characters.',
      'The password field must contain at least one uppercase letter.',
      'The password field must contain at least one symbol.',
    ]);
    const mismatch = await call('PUT', `/api/users/${user.id}`, {
      password: 'Correct-Horse-42',
      password_confirmation: 'Correct-Horse-43',
    });
    expect(mismatch.json()).toEqual({ error: { password: ['The password field confirmation does not match.'] } });
    const ok = await call('PUT', `/api/users/${user.id}`, { password: 'Correct-Horse-42', password_confirmation: 'Correct-Horse-42' });
    expect(ok.statusCode).toBe(200);
    const stored = await row(user.id);
    expect(stored.passwordHash?.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(stored.passwordHash, 'Correct-Horse-42')).toBe(true);
    expect(ok.body).not.toContain('argon2');
  });

  it('answers 422 for unknown domain, type, manager, a taken personal e-mail and self-management', async () => {
    const user = await create();
    const taken = await create();
    const res = await call('PUT', `/api/users/${user.id}`, {
      domain_name: 'nope.test',
      user_types: 'Astronaut',
      manager_email: 'nobody@nowhere.test',
      personal_email: taken.personal_email as string,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        domain_name: ['Domain name does not exist for the specified company.'],
        user_types: ['The user type entered does not exist for the specified company.'],
        manager_email: ['Manager with specified email does not exist.'],
        personal_email: ['The personal email has already been taken.'],
      },
    });
    const self = await call('PUT', `/api/users/${user.id}`, { manager_email: user.email });
    expect(self.json()).toEqual({ error: { manager_email: ['A user cannot be their own manager.'] } });
  });

  it('answers 404 for a missing or foreign user and 403 for a foreign company', async () => {
    const foreign = await create({}, other);
    expect((await call('PUT', `/api/users/${foreign.id}`, { title: 'x' })).json()).toEqual({ error: 'User not found.' });
    expect((await call('PUT', '/api/users/99999999', { title: 'x' })).statusCode).toBe(404);
    const res = await call('PUT', `/api/users/${foreign.id}`, { title: 'x', company_id: other.id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    expect((await row(foreign.id)).title).toBeNull();
  });

  it('accepts documents as multipart (sniffed PDF/PNG/JPEG, 5 MiB) and deletes them with the user', async () => {
    const user = await create();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100, 1)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(50)]);
    const form = multipart({ title: 'With papers' }, [
      { field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: pdf },
      { field: 'documents', filename: 'id.png', contentType: 'image/png', data: png },
    ]);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const paths: string[] = res.json().user.document_paths;
    expect(paths).toHaveLength(2);
    expect(res.json().user.title).toBe('With papers');
    for (const p of paths) {
      expect(p.startsWith(`documents/${acme.id}/${user.id}/`)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, p))).toBe(true);
    }

    const fake = multipart({}, [{ field: 'documents', filename: 'cv.pdf', contentType: 'application/pdf', data: 'MZ not a pdf' }]);
    const bad = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...fake.headers },
      payload: fake.payload,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must be a file of type: pdf, png, jpg, jpeg.'] } });
    const big = multipart({}, [
      { field: 'documents', filename: 'big.pdf', data: Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(5 * 1024 * 1024)]) },
    ]);
    const tooBig = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...big.headers },
      payload: big.payload,
    });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toEqual({ error: { 'documents.0': ['The documents.0 field must not be greater than 5120 kilobytes.'] } });
    expect(fs.readdirSync(path.join(dataDir, 'documents', String(acme.id), String(user.id)))).toHaveLength(2);

    // A multipart company_id of another company is refused like a JSON one.
    const foreignForm = multipart({ company_id: String(other.id), title: 'x' });
    const forbidden = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { ...acme.auth, ...foreignForm.headers },
      payload: foreignForm.payload,
    });
    expect(forbidden.statusCode).toBe(403);

    expect((await call('DELETE', `/api/users/${user.id}`)).statusCode).toBe(200);
    for (const p of paths) expect(fs.existsSync(path.join(dataDir, p))).toBe(false);
  });
});

describe('U5-U7 activate, deactivate, delete', () => {
  it('activates (onboarding completed, token cleared, optional e-mail) and deactivates', async () => {
    const user = await create();
    const res = await call('PATCH', `/api/users/${user.id}/activate`, { notify: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'User activated successfully.' });
    let stored = await row(user.id);
    expect(stored.isActive).toBe(true);
    expect(stored.onboardingCompleted).toBe(true);
    expect(stored.onboardingToken).toBeNull();
    expect((await ctx.db.select().from(outbox).where(eq(outbox.to, stored.personalEmail))).map((m) => m.subject)).toEqual([
      expect.stringContaining('active'),
    ]);
    const off = await call('PATCH', `/api/users/${user.id}/deactivate`);
    expect(off.json()).toEqual({ message: 'User deactivated successfully.' });
    stored = await row(user.id);
    expect(stored.isActive).toBe(false);
  });

  it('answers 400 User ID is required., 404 for missing and foreign users, 403 for a foreign company', async () => {
    const foreign = await create({}, other);
    for (const [method, suffix] of [
      ['PATCH', '/deactivate'],
      ['PATCH', '/activate'],
      ['DELETE', ''],
    ] as const) {
      const bad = await call(method, `/api/users/abc${suffix}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ error: 'User ID is required.' });
      const missing = await call(method, `/api/users/${foreign.id}${suffix}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: 'User not found.' });
      const forbidden = await call(method, `/api/users/${foreign.id}${suffix}?company_id=${other.id}`);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual({ error: 'Unauthorized or invalid company ID.' });
    }
    expect((await row(foreign.id)).deletedAt).toBeNull();
  });

  it('refuses to deactivate or delete the last active super-admin with 403', async () => {
    const company = await createCompany(ctx.db);
    const admin = await create({ is_active: true, roles: ['super-admin'] }, company);
    const off = await call('PATCH', `/api/users/${admin.id}/deactivate`, undefined, company);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ error: 'Failed to deactivate user.' });
    const del = await call('DELETE', `/api/users/${admin.id}`, undefined, company);
    expect(del.json()).toEqual({ error: 'Failed to delete user.' });
    await create({ is_active: true, roles: ['super-admin'] }, company);
    expect((await call('PATCH', `/api/users/${admin.id}/deactivate`, undefined, company)).statusCode).toBe(200);
  });

  it('soft-deletes: 404 afterwards, absent from lists, roles removed, reports unlinked, personal e-mail free again', async () => {
    const boss = await create({ roles: ['manager'] });
    const report = await create({ manager_email: boss.email });
    const res = await call('DELETE', `/api/users/${boss.id}`);
    expect(res.json()).toEqual({ message: 'User deleted successfully.' });
    const stored = await row(boss.id);
    expect(stored.deletedAt).toBeInstanceOf(Date);
    expect(stored.isActive).toBe(false);
    expect(stored.roles).toEqual([]);
    expect((await call('GET', `/api/users/${boss.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/users/${boss.id}`)).statusCode).toBe(404);
    expect((await row(report.id)).managerId).toBeNull();
    const list = (await call('GET', '/api/users?per_page=1000')).json();
    expect(list.Resources.some((u: Json) => u.id === boss.id)).toBe(false);
    const again = await call('POST', '/api/users', newUser({ personal_email: boss.personal_email }));
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).not.toBe(boss.id);
  });
});

describe('U10/U11 suspension', () => {
  const suspend = (id: number, body: Json) => call('POST', `/api/users/${id}/suspend`, body);
  const unsuspend = (id: number, body: Json) => call('POST', `/api/users/${id}/unsuspend`, body);

  it('suspends for minutes with clear_roles, and the durable job restores the roles', async () => {
    const user = await create({ is_active: true, roles: ['admin', 'user'] });
    const res = await suspend(user.id, {
      suspension_duration_type: 'minutes',
      suspension_duration_value: 30,
      clear_roles: true,
      suspension_reason: 'Audit',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('User suspended successfully.');
    expect(body.user).toMatchObject({ is_suspended: true, is_active: true, roles: [], suspension_reason: 'Audit' });
    const ends = new Date(body.user.suspension_ends_at).getTime();
    expect(Math.abs(ends - (Date.now() + 30 * 60_000))).toBeLessThan(10_000);
    // Not due yet: the job does nothing.
    await ctx.app.deps.jobs.runDue(100);
    expect((await row(user.id)).isSuspended).toBe(true);
    // Make it due (as if 30 minutes passed) and run the job.
    await ctx.db.update(users).set({ suspensionEndsAt: sql`now() - interval '1 second'` }).where(eq(users.id, user.id));
    await ctx.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE kind = 'users.suspension-end' AND payload->>'userId' = ${String(user.id)}`,
    );
    await ctx.app.deps.jobs.runDue(100);
    // The end moved (the row changed), so this stale job must not end it.
    expect((await row(user.id)).isSuspended).toBe(true);
    // A job for exactly the stored end does.
    const stored = await row(user.id);
    await ctx.app.deps.jobs.enqueue(ctx.db, 'users.suspension-end', {
      companyId: acme.id,
      userId: user.id,
      endsAt: (stored.suspensionEndsAt as Date).toISOString(),
    });
    await ctx.app.deps.jobs.runDue(100);
    const ended = await row(user.id);
    expect(ended.isSuspended).toBe(false);
    expect(ended.roles).toEqual(['admin', 'user']);
    expect(ended.suspendedRoles).toBeNull();
  });

  it('ends a suspension at its time through the job queue (hours, date, indefinite)', async () => {
    const user = await create();
    const hours = await suspend(user.id, { suspension_duration_type: 'hours', suspension_duration_value: '2' });
    expect(hours.statusCode).toBe(200);
    const date = await suspend(user.id, { suspension_duration_type: 'date', suspension_end_at: '2099-01-02 03:04:05' });
    expect(date.json().user.suspension_ends_at).toBe('2099-01-02T03:04:05.000000Z');
    const forever = await suspend(user.id, { suspension_duration_type: 'indefinite' });
    expect(forever.json().user.suspension_ends_at).toBeNull();
    // The older jobs (2 h, 2099) are stale now and never end the indefinite suspension.
    await ctx.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE kind = 'users.suspension-end' AND payload->>'userId' = ${String(user.id)}`,
    );
    await ctx.app.deps.jobs.runDue(100);
    expect((await row(user.id)).isSuspended).toBe(true);
  });

  it('unsuspends immediately or moves the end with future; Invalid action. otherwise', async () => {
    const user = await create({ roles: ['finance'] });
    expect((await unsuspend(user.id, { unsuspend_option: 'immediately' })).json()).toEqual({ error: 'Invalid action.' });
    await suspend(user.id, { suspension_duration_type: 'indefinite', clear_roles: true });
    const unknown = await unsuspend(user.id, { unsuspend_option: 'later' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'Invalid action.' });
    const past = await unsuspend(user.id, { unsuspend_option: 'future', new_unsuspension_time: '2001-01-01 00:00:00' });
    expect(past.statusCode).toBe(422);
    expect(past.json()).toEqual({ error: 'The new unsuspension time field must be a date after now.' });
    const future = await unsuspend(user.id, { unsuspend_option: 'future', new_unsuspension_time: '2099-05-05 10:00:00' });
    expect(future.statusCode).toBe(200);
    expect(future.json().user).toMatchObject({ is_suspended: true, suspension_ends_at: '2099-05-05T10:00:00.000000Z' });
    const now = await unsuspend(user.id, { unsuspend_option: 'immediately' });
    expect(now.json().message).toBe('User unsuspended successfully.');
    expect(now.json().user).toMatchObject({ is_suspended: false, roles: ['finance'], suspended_at: null, suspension_ends_at: null });
  });

  it('answers 422 {error} for bad duration input and 404 for foreign users', async () => {
    const user = await create();
    const cases: [Json, string][] = [
      [{}, 'The suspension duration type field is required.'],
      [{ suspension_duration_type: 'weeks' }, 'The selected suspension duration type is invalid.'],
      [
        { suspension_duration_type: 'minutes' },
        'The suspension duration value field is required when suspension duration type is minutes.',
      ],
      [{ suspension_duration_type: 'hours', suspension_duration_value: 0 }, 'The suspension duration value field must be at least 1.'],
      [{ suspension_duration_type: 'date' }, 'The suspension end at field is required when suspension duration type is date.'],
      [
        { suspension_duration_type: 'date', suspension_end_at: '2099-02-30 10:00:00' },
        'The suspension end at field must match the format Y-m-d H:i:s.',
      ],
      [
        { suspension_duration_type: 'date', suspension_end_at: '2001-01-01 10:00:00' },
        'The suspension end at field must be a date after now.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await suspend(user.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ error: message });
    }
    expect((await row(user.id)).isSuspended).toBe(false);
    const foreign = await create({}, other);
    expect((await suspend(foreign.id, { suspension_duration_type: 'indefinite' })).statusCode).toBe(404);
    expect((await unsuspend(foreign.id, { unsuspend_option: 'immediately' })).json()).toEqual({ error: 'User not found.' });
    expect(
      (await call('POST', `/api/users/${foreign.id}/suspend?company_id=${other.id}`, { suspension_duration_type: 'indefinite' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('U12/U13 templates', () => {
  it('serves the import and update templates byte for byte', async () => {
    const header =
      'first_name,last_name,personal_email,domain,user_types,title,base_salary,department,allowances,office_location,start_date (YYYY-MM-DD),manager,bank_name,account_number';
    const instruction =
      'Instructions: start_date must use the format YYYY-MM-DD; format the account_number column as text to keep leading zeros.';
    const res = await call('GET', '/api/users/import-template');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="users_import_template.csv"');
    expect(res.body).toBe(`${instruction}\r\n${header}\r\n`);
    const update = await call('GET', '/api/users/update-template');
    expect(update.headers['content-disposition']).toBe('attachment; filename="users_update_template.csv"');
    expect(update.body).toBe(`${instruction}\r\nemail,${header}\r\n`);
    expect((await call('GET', `/api/users/import-template?company_id=${other.id}`)).statusCode).toBe(403);
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
