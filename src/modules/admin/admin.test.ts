import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, createUsers } from '../../../test/helpers/factories.js';
import { anonymous, as, type Method } from '../../../test/helpers/http.js';
import { companies, companyDomains } from '../../db/schema/index.js';

const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({
    adminToken: ADMIN_TOKEN,
    rateLimit: { standard: 1000, premium: 2000, enterprise: 3000, unauthenticated: 3 },
  });
});
afterAll(() => ctx.close());

let seq = 0;
const uniqueDomain = () => `op${process.pid}x${++seq}.test`;

const operator = () => as(ctx.app, { auth: admin }, { remoteAddress: '10.0.0.1' });

const api = (token: string, url = '/api/users') => as(ctx.app, { auth: { authorization: `Bearer ${token}` } }).get(url);

async function companyCount(): Promise<number> {
  const [{ value }] = await ctx.db.select({ value: count() }).from(companies);
  return value;
}

async function createViaApi(body: Record<string, unknown> = {}) {
  const res = await operator().post('/admin/companies', { name: 'Acme Nigeria Ltd', domain: uniqueDomain(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('operator API: availability and authentication', () => {
  it('is not registered when ADMIN_TOKEN is unset', async () => {
    const off = await createTestApp({ adminToken: undefined }, ctx.testDb);
    try {
      const res = await as(off.app, { auth: admin }).post('/admin/companies', {});
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found.' });
    } finally {
      await off.close();
    }
  });

  it('answers 401 {error: "Unauthorized"} without, with a malformed and with a wrong token, on every route', async () => {
    const routes: [string, string][] = [
      ['POST', '/admin/companies'],
      ['PATCH', '/admin/companies/1'],
      ['POST', '/admin/companies/1/token'],
      ['DELETE', '/admin/companies/1/token'],
      ['GET', '/admin/outbox'],
      ['GET', '/admin/nothing-here'],
    ];
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: ADMIN_TOKEN },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: 'Bearer ' },
    ];
    let n = 0;
    for (const [method, url] of routes) {
      for (const headers of headerSets) {
        // A fresh IP per attempt so this test does not run into the failed-auth limit.
        const res = await as(ctx.app, { auth: headers }).request(method as Method, url, method === 'GET' ? undefined : {}, {
          remoteAddress: `10.1.0.${++n}`,
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json()).toEqual({ error: 'Unauthorized' });
      }
    }
    const before = await companyCount();
    await as(ctx.app, anonymous).post('/admin/companies', { name: 'X', domain: uniqueDomain() }, { remoteAddress: '10.1.1.1' });
    expect(await companyCount()).toBe(before);
  });

  it('accepts the token case-insensitively in the scheme and answers unknown admin paths 404', async () => {
    const res = await operator().get('/admin/nothing-here', { headers: { authorization: `bearer ${ADMIN_TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
  });

  it('limits failed attempts per IP, then refuses even the right token from that IP with 429', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 3; i++) {
      const res = await as(ctx.app, { auth: { authorization: 'Bearer guess' } }).get('/admin/outbox', { remoteAddress: ip });
      expect(res.statusCode).toBe(401);
    }
    for (const headers of [{ authorization: 'Bearer guess' }, admin]) {
      const res = await as(ctx.app, { auth: headers }).get('/admin/outbox', { remoteAddress: ip });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: 'Too many requests.' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(res.headers['retry-after']))).toBe(true);
    }
    // Another IP is not affected, and successful calls are never counted.
    for (let i = 0; i < 5; i++) expect((await operator().get('/admin/outbox')).statusCode).toBe(200);
  });
});

describe('POST /admin/companies', () => {
  it('creates an active, approved root company with defaults and a working token', async () => {
    const domain = uniqueDomain();
    const res = await operator().post('/admin/companies', { name: '  Acme Nigeria Ltd ', domain: domain.toUpperCase() });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toMatch(/^pk_[A-Za-z0-9_-]{32,}$/);
    expect(body.scopes).toEqual(['all']);
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect(body.company).toMatchObject({
      name: 'Acme Nigeria Ltd',
      code: expect.stringMatching(/^ACMENIGERI\d*$/),
      domain,
      status: 'approved',
      is_active: true,
      api_access: true,
      plan: 'standard',
      payment_frequency: 'monthly',
      run_approval: 'person',
      created_by: null,
      domains: [domain],
      user_types: ['Full-time', 'Part-time', 'Contract', 'Intern'],
      roles: ['super-admin', 'admin', 'finance', 'manager', 'user'],
      redirect_domains: [],
    });
    const list = await api(body.token);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-ratelimit-limit-global']).toBe('1000');
  });

  it('takes plan, payment frequency, user types, roles, redirect domains and scopes', async () => {
    const body = await createViaApi({
      plan: 'enterprise',
      payment_frequency: 'bi-weekly',
      user_types: ['Staff', 'Staff', 'Consultant'],
      roles: ['owner', 'user'],
      redirect_domains: ['Shop.Example.com', 'localhost'],
      scopes: ['users.show', 'wallet.*'],
    });
    expect(body.company).toMatchObject({
      plan: 'enterprise',
      payment_frequency: 'bi-weekly',
      user_types: ['Staff', 'Consultant'],
      roles: ['owner', 'user'],
      redirect_domains: ['shop.example.com', 'localhost'],
    });
    expect(body.scopes).toEqual(['users.show', 'wallet.*']);
    const denied = await api(body.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
  });

  it('rejects invalid input with 422 {error} and writes nothing', async () => {
    const before = await companyCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ domain: uniqueDomain() }, 'The name field is required.'],
      [{ name: 'A' }, 'The domain field is required.'],
      [{ name: '   ', domain: uniqueDomain() }, 'The name field is required.'],
      [{ name: 'A', domain: 'not a domain' }, 'The domain field must be a valid domain name.'],
      [{ name: 'A', domain: 'localhost' }, 'The domain field must be a valid domain name.'],
      [{ name: 'A', domain: uniqueDomain(), plan: 'gold' }, 'The selected plan is invalid.'],
      [{ name: 'A', domain: uniqueDomain(), payment_frequency: 'daily' }, 'The selected payment frequency is invalid.'],
      [{ name: 'A', domain: uniqueDomain(), scopes: ['users.nope'] }, 'The scope "users.nope" is invalid.'],
      [{ name: 'A', domain: uniqueDomain(), scopes: [] }, 'The scopes field must name at least one scope.'],
      [{ name: 'A', domain: uniqueDomain(), roles: [] }, 'The roles field must name at least one role.'],
      [{ name: 'A', domain: uniqueDomain(), user_types: [''] }, '"" must be 1 to 100 printable characters.'],
      [{ name: 'A', domain: uniqueDomain(), redirect_domains: ['https://x.com/'] }, '"https://x.com/" is not a valid host name.'],
      [{ name: 'A', domain: uniqueDomain(), colour: 'red' }, 'The colour field is not allowed.'],
      [{ name: { first: 'A' }, domain: uniqueDomain() }, 'The name field must be a string.'],
    ];
    for (const [payload, error] of cases) {
      const res = await operator().post('/admin/companies', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await companyCount()).toBe(before);
  });

  it('answers malformed JSON with 400 and a taken domain with 409', async () => {
    const bad = await as(ctx.app, { auth: admin }).post('/admin/companies', '{"name":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Malformed JSON body.' });
    const first = await createViaApi();
    const before = await companyCount();
    const again = await operator().post('/admin/companies', { name: 'Other', domain: first.company.domain });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: `The domain ${first.company.domain} is already used by another company.` });
    await operator().patch(`/admin/companies/${first.company.id}`, { add_domains: [`extra-${first.company.domain}`] });
    const extra = await operator().post('/admin/companies', { name: 'Other', domain: `extra-${first.company.domain}` });
    expect(extra.statusCode).toBe(409);
    expect(await companyCount()).toBe(before);
  });
});

describe('PATCH /admin/companies/:id', () => {
  it('changes the plan, which applies to the next request', async () => {
    const { company, token } = await createViaApi();
    const res = await operator().patch(`/admin/companies/${company.id}`, { plan: 'premium' });
    expect(res.statusCode).toBe(200);
    expect(res.json().company.plan).toBe('premium');
    expect((await api(token)).headers['x-ratelimit-limit-global']).toBe('2000');
    await operator().patch(`/admin/companies/${company.id}`, { plan: 'enterprise' });
    expect((await api(token)).headers['x-ratelimit-limit-global']).toBe('3000');
  });

  it('sets who approves payroll runs (run_approval), on create and on PATCH; a bad value changes nothing', async () => {
    const created = await operator().post('/admin/companies', {
      name: 'Token Approves Ltd',
      domain: uniqueDomain(),
      run_approval: 'token',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().company.run_approval).toBe('token');
    const { company } = await createViaApi();
    const bad = await operator().patch(`/admin/companies/${company.id}`, { run_approval: 'nobody', plan: 'premium' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toBe('The selected run approval is invalid: use person or token.');
    const ok = await operator().patch(`/admin/companies/${company.id}`, { run_approval: 'token' });
    expect(ok.json().company).toMatchObject({ run_approval: 'token', plan: 'standard' });
  });

  it('switches API access off and on at once', async () => {
    const { company, token } = await createViaApi();
    expect((await api(token)).statusCode).toBe(200);
    expect((await operator().patch(`/admin/companies/${company.id}`, { api_access: false })).json().company.api_access).toBe(false);
    const off = await api(token);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ error: 'API access is disabled for this company.' });
    await operator().patch(`/admin/companies/${company.id}`, { api_access: true });
    expect((await api(token)).statusCode).toBe(200);
  });

  it('adds domains, user types and roles and replaces redirect domains', async () => {
    const { company } = await createViaApi({ redirect_domains: ['old.example.com'] });
    const res = await operator().patch(`/admin/companies/${company.id}`, {
      add_domains: [`Mail.${company.domain}`],
      add_user_types: ['Consultant', 'Full-time'],
      add_roles: ['auditor'],
      redirect_domains: ['pay.example.com'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().company).toMatchObject({
      domains: [company.domain, `mail.${company.domain}`],
      user_types: ['Full-time', 'Part-time', 'Contract', 'Intern', 'Consultant'],
      roles: ['super-admin', 'admin', 'finance', 'manager', 'user', 'auditor'],
      redirect_domains: ['pay.example.com'],
    });
    expect((await operator().patch(`/admin/companies/${company.id}`, { redirect_domains: [] })).json().company.redirect_domains).toEqual(
      [],
    );
    expect((await operator().patch(`/admin/companies/${company.id}`, {})).statusCode).toBe(200);
  });

  it('is all or nothing: an invalid or taken domain leaves the plan unchanged', async () => {
    const { company } = await createViaApi();
    const other = await createViaApi();
    const invalid = await operator().patch(`/admin/companies/${company.id}`, { plan: 'premium', add_domains: ['bad domain'] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({ error: '"bad domain" is not a valid host name.' });
    const taken = await operator().patch(`/admin/companies/${company.id}`, { plan: 'premium', add_domains: [other.company.domain] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: `The domain ${other.company.domain} is already used by another company.` });
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, company.id));
    expect(row.plan).toBe('standard');
  });

  it('add_domains is race-free: of two companies claiming one domain at once, one wins', async () => {
    const [a, b] = [await createViaApi(), await createViaApi()];
    for (let round = 0; round < 3; round++) {
      const domain = uniqueDomain();
      const results = await Promise.all(
        [a, b].map((who) => operator().patch(`/admin/companies/${who.company.id}`, { add_domains: [domain] })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.statusCode === 409)?.json()).toEqual({
        error: `The domain ${domain} is already used by another company.`,
      });
      const owners = await ctx.db.select().from(companyDomains).where(eq(companyDomains.name, domain));
      expect(owners).toHaveLength(1);
    }
  });

  it('validates the body and answers unknown or malformed ids with 404', async () => {
    const { company } = await createViaApi();
    for (const [payload, error] of [
      [{ plan: 'gold' }, 'The selected plan is invalid.'],
      [{ api_access: 'maybe' }, 'The api access field must be true or false.'],
      [{ add_domains: { host: 'x.com' } }, 'The add domains field must be an array.'],
      [{ name: 'Renamed' }, 'The name field is not allowed.'],
    ] as const) {
      const res = await operator().patch(`/admin/companies/${company.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
      const res = await operator().patch(`/admin/companies/${id}`, { plan: 'premium' });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Company not found.' });
    }
  });
});

describe('operator tokens', () => {
  it('issues a new token that replaces the old one at once', async () => {
    const { company, token: first } = await createViaApi();
    expect((await api(first)).statusCode).toBe(200);
    const res = await operator().post(`/admin/companies/${company.id}/token`, { scopes: ['users.*'] });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'scopes', 'token']);
    expect(body.scopes).toEqual(['users.*']);
    expect(body.token).not.toBe(first);
    const old = await api(first);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toEqual({ error: 'Unauthorized' });
    expect((await api(body.token)).statusCode).toBe(200);
    // Without a body the scopes default to all.
    const all = await operator().post(`/admin/companies/${company.id}/token`);
    expect(all.statusCode).toBe(201);
    expect(all.json().scopes).toEqual(['all']);
    expect((await api(body.token)).statusCode).toBe(401);
  });

  it('rejects invalid scopes and unknown companies without touching the current token', async () => {
    const { company, token } = await createViaApi();
    const bad = await operator().post(`/admin/companies/${company.id}/token`, { scopes: ['all', 'nope.*'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'The scope "nope.*" is invalid.' });
    expect((await operator().post('/admin/companies/999999/token', {})).statusCode).toBe(404);
    expect((await api(token)).statusCode).toBe(200);
  });

  it('revokes the token at once', async () => {
    const { company, token } = await createViaApi();
    expect((await api(token)).statusCode).toBe(200);
    const res = await operator().delete(`/admin/companies/${company.id}/token`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Token revoked.' });
    expect((await api(token)).statusCode).toBe(401);
    expect((await operator().delete(`/admin/companies/${company.id}/token`)).json()).toEqual({
      message: 'The company has no active token.',
    });
    const missing = await operator().delete('/admin/companies/999999/token');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Company not found.' });
  });

  it('manages companies created by the test factory too (users in use are untouched)', async () => {
    const company = await createCompany(ctx.db);
    await createUsers(ctx.db, company.id, [{}]);
    const res = await operator().patch(`/admin/companies/${company.id}`, { add_roles: ['auditor'] });
    expect(res.statusCode).toBe(200);
    expect((await api(company.token)).json().totalResults).toBe(1);
  });
});

describe('GET /admin/outbox', () => {
  it('lists e-mails newest first, filtered by recipient', async () => {
    const to = `ada.${process.pid}@personal.test`;
    await ctx.db.transaction(async (tx) => {
      await ctx.app.deps.mailer.send(tx, { to, subject: 'First', text: 'one' });
      await ctx.app.deps.mailer.send(tx, { to: 'someone.else@personal.test', subject: 'Other', text: 'x' });
      await ctx.app.deps.mailer.send(tx, { to, subject: 'Second', text: 'two' });
    });
    const res = await operator().get(`/admin/outbox?to=${encodeURIComponent(to)}`);
    expect(res.statusCode).toBe(200);
    const { messages } = res.json();
    expect(messages.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    expect(messages[0]).toEqual({
      id: expect.any(Number),
      to,
      subject: 'Second',
      text: 'two',
      created_at: expect.stringMatching(/Z$/),
      sent_at: null,
    });
    const all = (await operator().get('/admin/outbox?limit=2')).json().messages;
    expect(all).toHaveLength(2);
    expect(all[0].id).toBeGreaterThan(all[1].id);
    expect((await operator().get('/admin/outbox?to=nobody@nowhere.test')).json()).toEqual({ messages: [] });
  });

  it('validates limit', async () => {
    for (const limit of ['0', '1001', 'ten']) {
      const res = await operator().get(`/admin/outbox?limit=${limit}`);
      expect(res.statusCode).toBe(422);
      expect(typeof res.json().error).toBe('string');
    }
  });
});
