// Companies C3-C6 and the descendant rule: a company acts on itself and the companies below it only.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { companyBody, createChildViaApi, tokenFor } from '../../../test/helpers/companies.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { as } from '../../../test/helpers/http.js';
import { companies, companyDomains } from '../../db/schema/index.js';

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

describe('C3-C6 and the descendant rule', () => {
  let child: TestCompany;
  let sibling: TestCompany;
  let grandchild: TestCompany;

  beforeAll(async () => {
    child = await tokenFor(ctx.db, await createChildViaApi(ctx.app, parent, { name: 'Child Co' }));
    sibling = await tokenFor(ctx.db, await createChildViaApi(ctx.app, parent, { name: 'Sibling Co' }));
    await as(ctx.app, parent).patch(`/api/companies/${child.id}/activate`);
    await as(ctx.app, parent).patch(`/api/companies/${sibling.id}/activate`);
    grandchild = await tokenFor(ctx.db, await createChildViaApi(ctx.app, child, { name: 'Grandchild Co' }));
    await as(ctx.app, child).patch(`/api/companies/${grandchild.id}/activate`);
  });

  it('C3 shows children and grandchildren, never self, parents, siblings or strangers', async () => {
    const shown = await as(ctx.app, parent).get(`/api/companies/${grandchild.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      id: grandchild.id,
      name: 'Grandchild Co',
      created_by: child.id,
      status: 'approved',
      is_active: true,
    });
    expect((await as(ctx.app, parent).get(`/api/companies/${child.id}`)).json().name).toBe('Child Co');
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
      const res = await as(ctx.app, who).get(`/api/companies/${id}`);
      expect(res.statusCode, `${who.id} -> ${id}`).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('lets the parent act for a grandchild through company_id on other endpoints, never for others', async () => {
    const users = await as(ctx.app, parent).get(`/api/users?company_id=${grandchild.id}`);
    expect(users.statusCode).toBe(200);
    expect(users.json().Resources.map((u: { roles: string[] }) => u.roles)).toEqual([['super-admin']]);
    expect((await as(ctx.app, child).get(`/api/users?company_id=${grandchild.id}`)).statusCode).toBe(200);
    for (const [who, target] of [
      [grandchild, child],
      [child, sibling],
      [child, parent],
      [sibling, grandchild],
      [stranger, grandchild],
    ] as const) {
      const res = await as(ctx.app, who).get(`/api/users?company_id=${target.id}`);
      expect(res.statusCode).toBe(403);
    }
  });

  it('C4 updates fields and validates uniqueness, enums and unknown fields', async () => {
    const res = await as(ctx.app, parent).put(`/api/companies/${grandchild.id}`, {
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

    const taken = await as(ctx.app, parent).put(`/api/companies/${child.id}`, {
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
    const bad = await as(ctx.app, parent).put(`/api/companies/${child.id}`, {
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
    const locked = await as(ctx.app, parent).put(`/api/companies/${child.id}`, { status: 'approved' });
    expect(locked.json()).toEqual({ error: 'Validation failed.', messages: { status: ['The status field is not allowed.'] } });
    // Keeping its own value is not a clash.
    expect(
      (await as(ctx.app, parent).put(`/api/companies/${grandchild.id}`, { registration_id: 'RC-GC-1', code: 'GCNEW' })).statusCode,
    ).toBe(200);
    // Strangers get 404 before validation, so they learn nothing about values in use.
    const foreign = await as(ctx.app, stranger).put(`/api/companies/${child.id}`, { registration_id: 'RC-GC-1' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await as(ctx.app, sibling).put(`/api/companies/${grandchild.id}`, { name: 'x' })).statusCode).toBe(404);
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, grandchild.id));
    expect(row.name).toBe('Grandchild Renamed');
  });

  it('C4 makes a new domain usable for employee e-mails', async () => {
    const domain = `renamed${Date.now()}.test`;
    const res = await as(ctx.app, parent).put(`/api/companies/${sibling.id}`, { domain });
    expect(res.json().company.domain).toBe(domain);
    const domains = await ctx.db.select({ name: companyDomains.name }).from(companyDomains).where(eq(companyDomains.companyId, sibling.id));
    expect(domains.map((d) => d.name)).toContain(domain);
    expect(domains).toHaveLength(2);
  });

  it('C5 revokes the child’s API access on its very next request; C6 restores it and approves', async () => {
    expect((await as(ctx.app, grandchild).get('/api/users')).statusCode).toBe(200);
    const off = await as(ctx.app, parent).patch(`/api/companies/${grandchild.id}/deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ message: 'Company deactivated successfully.' });
    const refused = await as(ctx.app, grandchild).get('/api/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'API access is disabled for this company.' });
    const store = await as(ctx.app, grandchild).post('/api/companies', companyBody());
    expect(store.statusCode).toBe(403);
    expect(store.json()).toEqual({ error: 'Access to this API is disabled for your company.' });
    for (const [method, url] of [
      ['GET', '/api/companies'],
      ['GET', `/api/companies/${grandchild.id}`],
      ['PUT', `/api/companies/${grandchild.id}`],
      ['PATCH', `/api/companies/${grandchild.id}/deactivate`],
      ['PATCH', `/api/companies/${grandchild.id}/activate`],
    ] as const) {
      const res = await as(ctx.app, grandchild).request(method, url, method === 'PUT' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'API access is disabled for this company.' });
    }
    // The parent keeps acting on the deactivated child.
    expect((await as(ctx.app, parent).get(`/api/users?company_id=${grandchild.id}`)).statusCode).toBe(200);
    expect((await as(ctx.app, parent).get(`/api/companies/${grandchild.id}`)).json().is_active).toBe(false);
    // Deactivating twice is harmless.
    expect((await as(ctx.app, parent).patch(`/api/companies/${grandchild.id}/deactivate`)).statusCode).toBe(200);

    const on = await as(ctx.app, child).patch(`/api/companies/${grandchild.id}/activate`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ message: 'Company activated successfully.' });
    expect((await as(ctx.app, grandchild).get('/api/users')).statusCode).toBe(200);
    expect((await as(ctx.app, parent).get(`/api/companies/${grandchild.id}`)).json()).toMatchObject({
      is_active: true,
      status: 'approved',
    });
  });

  it('C6 moves pending review to approved', async () => {
    const fresh = await createChildViaApi(ctx.app, parent);
    expect(fresh.status).toBe('pending review');
    expect((await as(ctx.app, parent).patch(`/api/companies/${fresh.id}/activate`)).statusCode).toBe(200);
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, fresh.id));
    expect(row).toMatchObject({ status: 'approved', isActive: true });
  });

  it('C5 refuses self-deactivation; C5/C6 answer 404 outside the subtree', async () => {
    const self = await as(ctx.app, child).patch(`/api/companies/${child.id}/deactivate`);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({ error: 'A company cannot deactivate itself.' });
    for (const action of ['deactivate', 'activate']) {
      for (const [who, id] of [
        [child, parent.id],
        [child, sibling.id],
        [stranger, child.id],
        [parent, 99999999],
      ] as const) {
        const res = await as(ctx.app, who).patch(`/api/companies/${id}/${action}`);
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
    expect((await as(ctx.app, limited).get('/api/companies')).statusCode).toBe(200);
    const denied = await as(ctx.app, limited).get(`/api/companies/${child.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
    // issueToken revoked the parent's earlier token; give the suite a fresh one back.
    parent = await tokenFor(ctx.db, { id: parent.id, code: parent.code, domain: parent.domain });
  });
});
