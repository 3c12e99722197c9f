import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { companyBody, createChildViaApi, tokenFor } from '../../../test/helpers/companies.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { queryRows } from '../../db/client.js';
import { companies, companyDomains, contributionSettings, outbox, roles, users, userTypes } from '../../db/schema/index.js';

let ctx: TestContext;
let parent: TestCompany;
let stranger: TestCompany;

const NOT_FOUND = { error: 'Company not found or does not belong to the current company.' };

beforeAll(async () => {
  ctx = await createTestApp();
  parent = await createCompany(ctx.db, { name: 'Parent Holdings' });
  stranger = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

const call = (who: TestCompany, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, headers: who.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

async function companyCount(): Promise<number> {
  const [row] = await ctx.db.select({ value: count() }).from(companies);
  return row.value;
}

describe('C2 POST /api/companies', () => {
  it('creates the company, its defaults and its invited super admin in one go', async () => {
    const body = companyBody({ name: 'Ọlá Foods Ltd', first_name: 'Ọlá', last_name: "O'Brien", registration_id: 'RC-10001' });
    const res = await call(parent, 'POST', '/api/companies', body);
    expect(res.statusCode).toBe(201);
    const { success, company } = res.json();
    expect(success).toBe('Company created successfully.');
    expect(company).toMatchObject({
      name: 'Ọlá Foods Ltd',
      code: 'LFOODSLTD',
      address: '1 Marina, Lagos',
      phone: '+2348012345678',
      registration_id: 'RC-10001',
      email_template: 'Hello {{first_name}}',
      payment_frequency: 'monthly',
      created_by: parent.id,
      status: 'pending review',
      domain: body.domain_name,
      is_active: false,
    });
    expect(company.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Object.keys(company).sort()).toEqual(
      [
        'address',
        'code',
        'created_at',
        'created_by',
        'domain',
        'email_template',
        'id',
        'is_active',
        'name',
        'payment_frequency',
        'phone',
        'registration_id',
        'status',
        'updated_at',
      ].sort(),
    );

    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row.plan).toBe('standard');
    const types = await ctx.db.select({ name: userTypes.name }).from(userTypes).where(eq(userTypes.companyId, company.id));
    expect(types.map((t) => t.name).sort()).toEqual(['Contract', 'Full-time', 'Intern', 'Part-time']);
    const roleRows = await ctx.db.select({ name: roles.name }).from(roles).where(eq(roles.companyId, company.id));
    expect(roleRows.map((r) => r.name).sort()).toEqual(['admin', 'finance', 'manager', 'super-admin', 'user']);
    expect(await ctx.db.select().from(contributionSettings).where(eq(contributionSettings.companyId, company.id))).toHaveLength(1);
    expect(await ctx.db.select().from(companyDomains).where(eq(companyDomains.companyId, company.id))).toHaveLength(1);

    const [admin] = await ctx.db.select().from(users).where(eq(users.companyId, company.id));
    expect(admin).toMatchObject({
      firstName: 'Ọlá',
      lastName: "O'Brien",
      email: `ola.obrien@${body.domain_name}`,
      personalEmail: body.personal_email,
      employeeId: 'LFOODSLTD-0001',
      isActive: false,
      onboardingCompleted: false,
      roles: ['super-admin'],
      title: 'Chief Executive',
    });
    expect(admin.onboardingToken?.length).toBeGreaterThanOrEqual(32);
    const days = ((admin.tokenExpiresAt as Date).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const [type] = await ctx.db
      .select()
      .from(userTypes)
      .where(eq(userTypes.id, admin.userTypeId as number));
    expect(type.name).toBe('Full-time');
    const [seq] = await ctx.db.select({ seq: companies.employeeSeq }).from(companies).where(eq(companies.id, company.id));
    expect(seq.seq).toBe(1);

    const mails = await ctx.db
      .select()
      .from(outbox)
      .where(eq(outbox.to, body.personal_email as string));
    expect(mails).toHaveLength(1);
    expect(mails[0].companyId).toBe(company.id);
    expect(mails[0].text).toContain(`http://payroll.test/onboarding/${admin.onboardingToken}`);
  });

  it('reports every missing or malformed field at once, writing nothing', async () => {
    const before = await companyCount();
    const res = await call(parent, 'POST', '/api/companies', {});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'Validation failed.',
      messages: {
        name: ['The name field is required.'],
        first_name: ['The first name field is required.'],
        last_name: ['The last name field is required.'],
        personal_email: ['The personal email field is required.'],
        title: ['The title field is required.'],
        domain_name: ['The domain name field is required.'],
        email_template: ['The email template field is required.'],
        payment_frequency: ['The payment frequency field is required.'],
      },
    });
    const bad = await call(
      parent,
      'POST',
      '/api/companies',
      companyBody({ personal_email: 'not-an-email', domain_name: 'no_domain', payment_frequency: 'daily', first_name: '!!', name: '   ' }),
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().messages).toEqual({
      name: ['The name field is required.'],
      personal_email: ['The personal email field must be a valid email address.'],
      domain_name: ['The domain name field must be a valid domain name.'],
      payment_frequency: ['The selected payment frequency is invalid.'],
      first_name: ['The first name field must contain a letter or digit.'],
    });
    const unknown = await call(parent, 'POST', '/api/companies', companyBody({ status: 'approved' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ error: 'Validation failed.', messages: { status: ['The status field is not allowed.'] } });
    const wrongType = await call(parent, 'POST', '/api/companies', companyBody({ name: { a: 1 } }));
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().messages.name).toEqual(['The name field must be a string.']);
    expect(await companyCount()).toBe(before);
  });

  it('refuses a taken domain, registration id or personal e-mail (any company, any case)', async () => {
    const first = await createChildViaApi(ctx.app, parent, { registration_id: 'RC-20002' });
    const [someone] = await createUsers(ctx.db, stranger.id, [{ personalEmail: 'taken.person@personal.test' }]);
    const before = await companyCount();
    const res = await call(
      parent,
      'POST',
      '/api/companies',
      companyBody({ domain_name: first.domain.toUpperCase(), registration_id: 'RC-20002', personal_email: 'Taken.Person@Personal.test' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'Validation failed.',
      messages: {
        domain_name: ['The domain name has already been taken.'],
        registration_id: ['The registration id has already been taken.'],
        personal_email: ['The personal email has already been taken.'],
      },
    });
    expect(someone.personalEmail).toBe('taken.person@personal.test');
    const stranger_domain = await call(parent, 'POST', '/api/companies', companyBody({ domain_name: stranger.domain }));
    expect(stranger_domain.json().messages).toEqual({ domain_name: ['The domain name has already been taken.'] });
    expect(await companyCount()).toBe(before);
  });

  it('makes exactly one company out of concurrent duplicates, and unique codes out of equal names', async () => {
    const body = companyBody();
    const results = await Promise.all(Array.from({ length: 5 }, () => call(parent, 'POST', '/api/companies', body)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422)) {
      expect(r.json().error).toBe('Validation failed.');
      expect(Object.keys(r.json().messages).some((f) => ['domain_name', 'personal_email'].includes(f))).toBe(true);
    }
    const rows = await ctx.db
      .select()
      .from(companies)
      .where(eq(companies.domain, body.domain_name as string));
    expect(rows).toHaveLength(1);
    const admins = await queryRows<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM users WHERE personal_email = ${body.personal_email}`,
    );
    expect(admins[0].n).toBe(1);

    // The same super admin e-mail under different domains: the advisory lock lets one through.
    const email = `race.${Date.now()}@personal.test`;
    const sameAdmin = await Promise.all(
      [1, 2, 3].map(() => call(parent, 'POST', '/api/companies', companyBody({ personal_email: email }))),
    );
    expect(sameAdmin.map((r) => r.statusCode).sort()).toEqual([201, 422, 422]);
    for (const r of sameAdmin.filter((x) => x.statusCode === 422)) {
      expect(r.json()).toEqual({
        error: 'Validation failed.',
        messages: { personal_email: ['The personal email has already been taken.'] },
      });
    }

    const twins = await Promise.all([1, 2, 3].map(() => call(parent, 'POST', '/api/companies', companyBody({ name: 'Twin Ventures' }))));
    expect(twins.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const codes = twins.map((r) => r.json().company.code).sort();
    expect(codes).toEqual(['TWINVENTUR', 'TWINVENTUR2', 'TWINVENTUR3']);
  });

  it('replays an Idempotency-Key instead of creating a second company', async () => {
    const before = await companyCount();
    const headers = { ...parent.auth, 'idempotency-key': `c2-${Date.now()}` };
    const body = companyBody();
    const first = await ctx.app.inject({ method: 'POST', url: '/api/companies', headers, payload: body });
    const second = await ctx.app.inject({ method: 'POST', url: '/api/companies', headers, payload: body });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await companyCount()).toBe(before + 1);
    const other = await ctx.app.inject({ method: 'POST', url: '/api/companies', headers, payload: companyBody() });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: 'Idempotency key reused with a different request.' });
  });

  it('derives a free company e-mail when the address already exists elsewhere', async () => {
    const domain = `clash${Date.now()}.test`;
    // Another company may own the same e-mail domain name in its own domain list.
    const other = await createCompany(ctx.db, { domain: `x${domain}` });
    await ctx.db.insert(companyDomains).values({ companyId: other.id, name: domain });
    const [clash] = await createUsers(ctx.db, other.id, [{ firstName: 'Ada', lastName: 'Obi' }]);
    await ctx.db
      .update(users)
      .set({ email: `ada.obi@${domain}` })
      .where(eq(users.id, clash.id));
    const company = await createChildViaApi(ctx.app, parent, { domain_name: domain });
    const [admin] = await ctx.db.select().from(users).where(eq(users.companyId, company.id));
    expect(admin.email).toBe(`ada.obi2@${domain}`);
  });
});

describe('C1 GET /api/companies', () => {
  it('lists only the companies the caller created, paged', async () => {
    const owner = await createCompany(ctx.db);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createChildViaApi(ctx.app, owner));
    await createChildViaApi(ctx.app, stranger);
    const page1 = await call(owner, 'GET', '/api/companies?per_page=2');
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ current_page: 1, per_page: 2, last_page: 2, total: 3 });
    expect(page1.json().data.map((c: { id: number }) => c.id)).toEqual([made[0].id, made[1].id]);
    const page2 = await call(owner, 'GET', '/api/companies?per_page=2&page=2');
    expect(page2.json().data.map((c: { id: number }) => c.id)).toEqual([made[2].id]);
    const all = await call(owner, 'GET', '/api/companies');
    expect(all.json()).toMatchObject({ current_page: 1, per_page: 10, last_page: 1, total: 3 });
    const empty = await call(await createCompany(ctx.db), 'GET', '/api/companies');
    expect(empty.json()).toEqual({ data: [], current_page: 1, per_page: 10, last_page: 1, total: 0 });
  });

  it('validates paging in the companies shape', async () => {
    for (const query of ['per_page=0', 'per_page=101', 'page=0', 'page=x']) {
      const res = await call(parent, 'GET', `/api/companies?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('Validation failed.');
      expect(Object.keys(res.json().messages)).toHaveLength(1);
    }
  });

  it('lists a descendant’s children through company_id, and nobody else’s', async () => {
    const child = await createChildViaApi(ctx.app, parent);
    const childAuth = await tokenFor(ctx.db, child);
    // A new company is pending review and inactive: its own token is refused until activated.
    const early = await call(childAuth, 'GET', '/api/companies');
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: 'API access is disabled for this company.' });
    await call(parent, 'PATCH', `/api/companies/${child.id}/activate`);
    const grandchild = await createChildViaApi(ctx.app, childAuth);
    const res = await call(parent, 'GET', `/api/companies?company_id=${child.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { id: number }) => c.id)).toEqual([grandchild.id]);
    expect((await call(childAuth, 'GET', `/api/companies?company_id=${parent.id}`)).json()).toEqual(NOT_FOUND);
    expect((await call(parent, 'GET', `/api/companies?company_id=${stranger.id}`)).statusCode).toBe(404);
    expect((await call(parent, 'GET', '/api/companies?company_id=99999999')).statusCode).toBe(404);
  });
});

describe('C3-C6 and the descendant rule', () => {
  let child: TestCompany;
  let sibling: TestCompany;
  let grandchild: TestCompany;

  beforeAll(async () => {
    child = await tokenFor(ctx.db, await createChildViaApi(ctx.app, parent, { name: 'Child Co' }));
    sibling = await tokenFor(ctx.db, await createChildViaApi(ctx.app, parent, { name: 'Sibling Co' }));
    await call(parent, 'PATCH', `/api/companies/${child.id}/activate`);
    await call(parent, 'PATCH', `/api/companies/${sibling.id}/activate`);
    grandchild = await tokenFor(ctx.db, await createChildViaApi(ctx.app, child, { name: 'Grandchild Co' }));
    await call(child, 'PATCH', `/api/companies/${grandchild.id}/activate`);
  });

  it('C3 shows children and grandchildren, never self, parents, siblings or strangers', async () => {
    const shown = await call(parent, 'GET', `/api/companies/${grandchild.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      id: grandchild.id,
      name: 'Grandchild Co',
      created_by: child.id,
      status: 'approved',
      is_active: true,
    });
    expect((await call(parent, 'GET', `/api/companies/${child.id}`)).json().name).toBe('Child Co');
    for (const [who, id] of [
      [parent, parent.id],
      [child, parent.id],
      [grandchild, child.id],
      [child, sibling.id],
      [sibling, grandchild.id],
      [stranger, child.id],
      [parent, stranger.id],
      [parent, 99999999],
      [parent, 'abc'],
      [parent, '1.5'],
    ] as const) {
      const res = await call(who, 'GET', `/api/companies/${id}`);
      expect(res.statusCode, `${who.id} -> ${id}`).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('lets the parent act for a grandchild through company_id on other endpoints, never for others', async () => {
    const users = await call(parent, 'GET', `/api/users?company_id=${grandchild.id}`);
    expect(users.statusCode).toBe(200);
    expect(users.json().Resources.map((u: { roles: string[] }) => u.roles)).toEqual([['super-admin']]);
    expect((await call(child, 'GET', `/api/users?company_id=${grandchild.id}`)).statusCode).toBe(200);
    for (const [who, target] of [
      [grandchild, child],
      [child, sibling],
      [child, parent],
      [sibling, grandchild],
      [stranger, grandchild],
    ] as const) {
      const res = await call(who, 'GET', `/api/users?company_id=${target.id}`);
      expect(res.statusCode).toBe(403);
    }
  });

  it('C4 updates fields and validates uniqueness, enums and unknown fields', async () => {
    const res = await call(parent, 'PUT', `/api/companies/${grandchild.id}`, {
      name: 'Grandchild Renamed',
      address: null,
      phone: '0700',
      registration_id: 'RC-GC-1',
      email_template: 'New template',
      code: 'gcnew',
      payment_frequency: 'bi-weekly',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Company updated successfully.');
    expect(res.json().company).toMatchObject({
      id: grandchild.id,
      name: 'Grandchild Renamed',
      address: null,
      phone: '0700',
      registration_id: 'RC-GC-1',
      email_template: 'New template',
      code: 'GCNEW',
      payment_frequency: 'bi-weekly',
    });

    const taken = await call(parent, 'PUT', `/api/companies/${child.id}`, {
      registration_id: 'RC-GC-1',
      code: 'GCNEW',
      domain: grandchild.domain.toUpperCase(),
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({
      error: 'Validation failed.',
      messages: {
        registration_id: ['The registration id has already been taken.'],
        code: ['The code has already been taken.'],
        domain: ['The domain has already been taken.'],
      },
    });
    const bad = await call(parent, 'PUT', `/api/companies/${child.id}`, {
      payment_frequency: 'daily',
      code: 'x',
      domain: 'nope',
      name: '',
    });
    expect(bad.json().messages).toEqual({
      name: ['The name field must not be empty.'],
      code: ['The code field must be 2 to 20 letters or digits.'],
      domain: ['The domain field must be a valid domain name.'],
      payment_frequency: ['The selected payment frequency is invalid.'],
    });
    const locked = await call(parent, 'PUT', `/api/companies/${child.id}`, { status: 'approved' });
    expect(locked.json()).toEqual({ error: 'Validation failed.', messages: { status: ['The status field is not allowed.'] } });
    // Keeping its own value is not a clash.
    expect((await call(parent, 'PUT', `/api/companies/${grandchild.id}`, { registration_id: 'RC-GC-1', code: 'GCNEW' })).statusCode).toBe(
      200,
    );
    // Strangers get 404 before validation, so they learn nothing about values in use.
    const foreign = await call(stranger, 'PUT', `/api/companies/${child.id}`, { registration_id: 'RC-GC-1' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await call(sibling, 'PUT', `/api/companies/${grandchild.id}`, { name: 'x' })).statusCode).toBe(404);
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, grandchild.id));
    expect(row.name).toBe('Grandchild Renamed');
  });

  it('C4 makes a new domain usable for employee e-mails', async () => {
    const domain = `renamed${Date.now()}.test`;
    const res = await call(parent, 'PUT', `/api/companies/${sibling.id}`, { domain });
    expect(res.json().company.domain).toBe(domain);
    const domains = await ctx.db.select({ name: companyDomains.name }).from(companyDomains).where(eq(companyDomains.companyId, sibling.id));
    expect(domains.map((d) => d.name)).toContain(domain);
    expect(domains).toHaveLength(2);
  });

  it('C5 revokes the child’s API access on its very next request; C6 restores it and approves', async () => {
    expect((await call(grandchild, 'GET', '/api/users')).statusCode).toBe(200);
    const off = await call(parent, 'PATCH', `/api/companies/${grandchild.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: 'Company deactivated successfully.' });
    const refused = await call(grandchild, 'GET', '/api/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'API access is disabled for this company.' });
    const store = await call(grandchild, 'POST', '/api/companies', companyBody());
    expect(store.statusCode).toBe(403);
    expect(store.json()).toEqual({ error: 'Access to this API is disabled for your company.' });
    for (const [method, url] of [
      ['GET', '/api/companies'],
      ['GET', `/api/companies/${grandchild.id}`],
      ['PUT', `/api/companies/${grandchild.id}`],
      ['PATCH', `/api/companies/${grandchild.id}/deactivate`],
      ['PATCH', `/api/companies/${grandchild.id}/activate`],
    ] as const) {
      const res = await call(grandchild, method, url, method === 'PUT' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'API access is disabled for this company.' });
    }
    // The parent keeps acting on the deactivated child.
    expect((await call(parent, 'GET', `/api/users?company_id=${grandchild.id}`)).statusCode).toBe(200);
    expect((await call(parent, 'GET', `/api/companies/${grandchild.id}`)).json().is_active).toBe(false);
    // Deactivating twice is harmless.
    expect((await call(parent, 'PATCH', `/api/companies/${grandchild.id}/deactivate`)).statusCode).toBe(200);

    const on = await call(child, 'PATCH', `/api/companies/${grandchild.id}/activate`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ message: 'Company activated successfully.' });
    expect((await call(grandchild, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await call(parent, 'GET', `/api/companies/${grandchild.id}`)).json()).toMatchObject({ is_active: true, status: 'approved' });
  });

  it('C6 moves pending review to approved', async () => {
    const fresh = await createChildViaApi(ctx.app, parent);
    expect(fresh.status).toBe('pending review');
    expect((await call(parent, 'PATCH', `/api/companies/${fresh.id}/activate`)).statusCode).toBe(200);
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, fresh.id));
    expect(row).toMatchObject({ status: 'approved', isActive: true });
  });

  it('C5 refuses self-deactivation; C5/C6 answer 404 outside the subtree', async () => {
    const self = await call(child, 'PATCH', `/api/companies/${child.id}/deactivate`);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({ error: 'A company cannot deactivate itself.' });
    for (const action of ['deactivate', 'activate']) {
      for (const [who, id] of [
        [child, parent.id],
        [child, sibling.id],
        [stranger, child.id],
        [parent, 99999999],
      ] as const) {
        const res = await call(who, 'PATCH', `/api/companies/${id}/${action}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(NOT_FOUND);
      }
    }
    const [row] = await ctx.db
      .select({ isActive: companies.isActive })
      .from(companies)
      .where(and(eq(companies.id, parent.id)));
    expect(row.isActive).toBe(true);
  });

  it('honours token scopes on company routes', async () => {
    const limited = await tokenFor(ctx.db, { id: parent.id, code: parent.code, domain: parent.domain }, ['companies.index']);
    expect((await call(limited, 'GET', '/api/companies')).statusCode).toBe(200);
    const denied = await call(limited, 'GET', `/api/companies/${child.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
    // issueToken revoked the parent's earlier token; give the suite a fresh one back.
    parent = await tokenFor(ctx.db, { id: parent.id, code: parent.code, domain: parent.domain });
  });
});
