// Companies C1 list and C2 create. C3-C6 and the descendant rule are in companies.descendants.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { companyBody, createChildViaApi, tokenFor } from '../../../test/helpers/companies.js';
import { createCompany, createUsers, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { queryRows } from '../../db/client.js';
import { migrationFiles, splitStatements } from '../../db/migrate.js';
import { companies, companyDomains, contributionSettings, outbox, roles, users, userTypes } from '../../db/schema/index.js';

let ctx: TestContext;
let parent: TestCompany;
let stranger: TestCompany;

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
const NOT_FOUND = { error: 'Company not found or does not belong to the current company.' };

beforeAll(async () => {
  ctx = await createTestApp();
  parent = await createCompany(ctx.db, { name: 'Parent Holdings' });
  stranger = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

async function companyCount(): Promise<number> {
  const [row] = await ctx.db.select({ value: count() }).from(companies);
  return row.value;
}

describe('C2 POST /api/companies', () => {
  it('creates the company, its defaults and its invited super admin in one go', async () => {
    const body = companyBody({ name: 'Ọlá Foods Ltd', first_name: 'Ọlá', last_name: "O'Brien", registration_id: 'RC-10001' });
    const res = await as(ctx.app, parent).post('/api/companies', body);
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
      run_approval: 'person',
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
        // Statutory data: sector and registrations (companies.statutory.test.ts).
        'sector',
        'rc_number',
        'pencom_employer_code',
        'nhf_employer_number',
        'nsitf_number',
        'itf_number',
        'tax_ids',
        // Who approves payroll runs (docs/payroll-runs.md, "Approval").
        'run_approval',
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
    const res = await as(ctx.app, parent).post('/api/companies', {});
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
    const bad = await as(ctx.app, parent).post(
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
    const unknown = await as(ctx.app, parent).post('/api/companies', companyBody({ status: 'approved' }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ error: 'Validation failed.', messages: { status: ['The status field is not allowed.'] } });
    const wrongType = await as(ctx.app, parent).post('/api/companies', companyBody({ name: { a: 1 } }));
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().messages.name).toEqual(['The name field must be a string.']);
    expect(await companyCount()).toBe(before);
  });

  it('refuses a taken domain, registration id or personal e-mail (any company, any case)', async () => {
    const first = await createChildViaApi(ctx.app, parent, { registration_id: 'RC-20002' });
    const [someone] = await createUsers(ctx.db, stranger.id, [{ personalEmail: 'taken.person@personal.test' }]);
    const before = await companyCount();
    const res = await as(ctx.app, parent).post(
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
    const stranger_domain = await as(ctx.app, parent).post('/api/companies', companyBody({ domain_name: stranger.domain }));
    expect(stranger_domain.json().messages).toEqual({ domain_name: ['The domain name has already been taken.'] });
    expect(await companyCount()).toBe(before);
  });

  it("refuses another company's extra e-mail domain on C2 and C4, and keeps every domain with one company", async () => {
    const extra = `extra-${stranger.domain}`;
    await ctx.db.insert(companyDomains).values({ companyId: stranger.id, name: extra });
    const before = await companyCount();
    const created = await as(ctx.app, parent).post('/api/companies', companyBody({ domain_name: extra.toUpperCase() }));
    expect([created.statusCode, created.json()]).toEqual([
      422,
      { error: 'Validation failed.', messages: { domain_name: ['The domain name has already been taken.'] } },
    ]);
    expect(await companyCount()).toBe(before);
    const child = await createChildViaApi(ctx.app, parent);
    const moved = await as(ctx.app, parent).put(`/api/companies/${child.id}`, { domain: extra });
    expect([moved.statusCode, moved.json()]).toEqual([
      422,
      { error: 'Validation failed.', messages: { domain: ['The domain has already been taken.'] } },
    ]);
    const owners = await ctx.db
      .select({ companyId: companyDomains.companyId })
      .from(companyDomains)
      .where(sql`lower(${companyDomains.name}) = ${extra}`);
    expect(owners).toEqual([{ companyId: stranger.id }]);
    // The database refuses a second owner even when no check in code runs (any case).
    await expect(ctx.db.insert(companyDomains).values({ companyId: child.id, name: extra.toUpperCase() })).rejects.toThrow();
  });

  it('makes exactly one company out of concurrent duplicates, and unique codes out of equal names', async () => {
    const body = companyBody();
    const results = await Promise.all(Array.from({ length: 5 }, () => as(ctx.app, parent).post('/api/companies', body)));
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
      [1, 2, 3].map(() => as(ctx.app, parent).post('/api/companies', companyBody({ personal_email: email }))),
    );
    expect(sameAdmin.map((r) => r.statusCode).sort()).toEqual([201, 422, 422]);
    for (const r of sameAdmin.filter((x) => x.statusCode === 422)) {
      expect(r.json()).toEqual({
        error: 'Validation failed.',
        messages: { personal_email: ['The personal email has already been taken.'] },
      });
    }

    const twins = await Promise.all(
      [1, 2, 3].map(() => as(ctx.app, parent).post('/api/companies', companyBody({ name: 'Twin Ventures' }))),
    );
    expect(twins.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const codes = twins.map((r) => r.json().company.code).sort();
    expect(codes).toEqual(['TWINVENTUR', 'TWINVENTUR2', 'TWINVENTUR3']);
  });

  it('replays an Idempotency-Key instead of creating a second company', async () => {
    const before = await companyCount();
    const keyed = as(ctx.app, parent, { headers: { 'idempotency-key': `c2-${Date.now()}` } });
    const body = companyBody();
    const first = await keyed.post('/api/companies', body);
    const second = await keyed.post('/api/companies', body);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await companyCount()).toBe(before + 1);
    const other = await keyed.post('/api/companies', companyBody());
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ error: 'Idempotency key reused with a different request.' });
  });

  it('derives a free company e-mail when the address already exists elsewhere', async () => {
    const domain = `clash${Date.now()}.test`;
    // A domain belongs to one company only (migration 0064), but another company's users may
    // still hold addresses on it: those whose company lost the domain in that migration.
    const other = await createCompany(ctx.db, { domain: `x${domain}` });
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
    const page1 = await as(ctx.app, owner).get('/api/companies?per_page=2');
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ current_page: 1, per_page: 2, last_page: 2, total: 3 });
    expect(page1.json().data.map((c: { id: number }) => c.id)).toEqual([made[0].id, made[1].id]);
    const page2 = await as(ctx.app, owner).get('/api/companies?per_page=2&page=2');
    expect(page2.json().data.map((c: { id: number }) => c.id)).toEqual([made[2].id]);
    const all = await as(ctx.app, owner).get('/api/companies');
    expect(all.json()).toMatchObject({ current_page: 1, per_page: 10, last_page: 1, total: 3 });
    const empty = await as(ctx.app, await createCompany(ctx.db)).get('/api/companies');
    expect(empty.json()).toEqual({ data: [], current_page: 1, per_page: 10, last_page: 1, total: 0 });
  });

  it('validates paging in the companies shape', async () => {
    for (const query of ['per_page=0', 'per_page=101', 'page=0', 'page=x']) {
      const res = await as(ctx.app, parent).get(`/api/companies?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('Validation failed.');
      expect(Object.keys(res.json().messages)).toHaveLength(1);
    }
  });

  it('lists a descendant’s children through company_id, and nobody else’s', async () => {
    const child = await createChildViaApi(ctx.app, parent);
    const childAuth = await tokenFor(ctx.db, child);
    // A new company is pending review and inactive: its own token is refused until activated.
    const early = await as(ctx.app, childAuth).get('/api/companies');
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: 'API access is disabled for this company.' });
    await as(ctx.app, parent).patch(`/api/companies/${child.id}/activate`);
    const grandchild = await createChildViaApi(ctx.app, childAuth);
    const res = await as(ctx.app, parent).get(`/api/companies?company_id=${child.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((c: { id: number }) => c.id)).toEqual([grandchild.id]);
    expect((await as(ctx.app, childAuth).get(`/api/companies?company_id=${parent.id}`)).json()).toEqual(NOT_FOUND);
    expect((await as(ctx.app, parent).get(`/api/companies?company_id=${stranger.id}`)).statusCode).toBe(404);
    expect((await as(ctx.app, parent).get('/api/companies?company_id=99999999')).statusCode).toBe(404);
  });
});

describe('C2 "already taken" answers are rationed per calling company', () => {
  it('answers RATE_LIMIT_TAKEN_ANSWERS of them per window, then 429 for every C2 of that caller', async () => {
    const limited = await createTestApp({ rateLimit: { takenAnswers: 3 } }, ctx.testDb);
    try {
      const prober = await createCompany(ctx.db);
      const post = (who: TestCompany, body: Record<string, unknown>) => as(limited.app, who).post('/api/companies', body);
      const [victim] = await createUsers(ctx.db, stranger.id, [{}]);
      // A valid C2 costs nothing.
      expect((await post(prober, companyBody())).statusCode).toBe(201);
      for (let i = 0; i < 3; i++) {
        const res = await post(prober, companyBody({ personal_email: victim.personalEmail }));
        expect(res.json().messages).toEqual({ personal_email: ['The personal email has already been taken.'] });
      }
      for (const body of [companyBody({ personal_email: 'nobody@personal.test' }), companyBody()]) {
        const refused = await post(prober, body);
        expect([refused.statusCode, refused.json()]).toEqual([429, { error: 'Too many requests.' }]);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Another caller has its own allowance.
      expect((await post(parent, companyBody())).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('migration 0064 on a database that already shares domains', () => {
  it('keeps each domain with one company (primary first, else the oldest claim) and builds the unique index', async () => {
    const tag = Date.now().toString(36);
    const primary = await createCompany(ctx.db, { domain: `p${tag}.test` });
    const [borrower, first, second, doubled] = [
      await createCompany(ctx.db),
      await createCompany(ctx.db),
      await createCompany(ctx.db),
      await createCompany(ctx.db),
    ];
    await ctx.db.execute(sql`DROP INDEX company_domains_name_key`);
    const insert = async (companyId: number, name: string) =>
      (await ctx.db.insert(companyDomains).values({ companyId, name }).returning())[0].id;
    const borrowed = await insert(borrower.id, `P${tag}.TEST`); // another company's primary domain
    await insert(first.id, `x${tag}.test`); // an extra domain claimed twice: the older claim stays
    const later = await insert(second.id, `x${tag}.test`);
    const lower = await insert(doubled.id, `d${tag}.test`); // one company, two cases
    const upper = await insert(doubled.id, `D${tag}.TEST`);
    const [onBorrowed] = await createUsers(ctx.db, borrower.id, [{}]);
    const [onLater] = await createUsers(ctx.db, second.id, [{}]);
    const [onUpper] = await createUsers(ctx.db, doubled.id, [{}]);
    await ctx.db.update(users).set({ domainId: borrowed }).where(eq(users.id, onBorrowed.id));
    await ctx.db.update(users).set({ domainId: later }).where(eq(users.id, onLater.id));
    await ctx.db.update(users).set({ domainId: upper }).where(eq(users.id, onUpper.id));

    const file = migrationFiles().find((name) => name.startsWith('0064_')) as string;
    for (const statement of splitStatements(fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'))) {
      await ctx.db.execute(sql.raw(statement));
    }

    const owners = async (name: string) =>
      (await ctx.db.select().from(companyDomains).where(sql`lower(${companyDomains.name}) = ${name}`)).map((row) => row.companyId);
    expect(await owners(`p${tag}.test`)).toEqual([primary.id]);
    expect(await owners(`x${tag}.test`)).toEqual([first.id]);
    expect(await owners(`d${tag}.test`)).toEqual([doubled.id]);
    const domainOf = async (id: number) => (await ctx.db.select().from(users).where(eq(users.id, id)))[0].domainId;
    expect(await domainOf(onBorrowed.id)).toBeNull();
    expect(await domainOf(onLater.id)).toBeNull();
    expect(await domainOf(onUpper.id)).toBe(lower);
    await expect(insert(second.id, `X${tag}.test`)).rejects.toThrow();
  });
});
