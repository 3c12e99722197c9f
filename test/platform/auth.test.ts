import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, companies } from '../../src/db/schema/index.js';
import { scopeAllows } from '../../src/platform/auth/tokens.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { createCompany, type TestCompany } from '../helpers/factories.js';
import { anonymous, as } from '../helpers/http.js';

let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp({ tokenTtlSeconds: 3600 });
  acme = await createCompany(ctx.db);
});
afterAll(() => ctx.close());

const get = (headers: Record<string, string> = {}, url = '/api/users') => as(ctx.app, anonymous).get(url, { headers });

describe('authentication', () => {
  it('answers 401 {error: "Unauthorized"} without, with a malformed and with an unknown token', async () => {
    for (const headers of [{}, { authorization: 'Token abc' }, { authorization: 'Bearer pk_nope' }] as Record<string, string>[]) {
      const res = await get(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-ratelimit-limit-global']).toBeDefined();
    }
  });

  it('accepts a valid token and sends every rate-limit header', async () => {
    const res = await get(acme.auth);
    expect(res.statusCode).toBe(200);
    for (const name of [
      'x-ratelimit-limit-endpoint',
      'x-ratelimit-remaining-endpoint',
      'x-ratelimit-limit-global',
      'x-ratelimit-remaining-global',
    ]) {
      expect(Number(res.headers[name])).toBeGreaterThanOrEqual(0);
    }
  });

  it('expires a token unused for the TTL with 401 "Token expired", and it stays expired', async () => {
    const company = await createCompany(ctx.db);
    await ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(Date.now() - 3601_000) })
      .where(eq(apiTokens.companyId, company.id));
    const res = await get(company.auth);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Token expired' });
    await ctx.db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.companyId, company.id));
    ctx.app.deps.authCache.clear();
    expect((await get(company.auth)).json()).toEqual({ error: 'Token expired' });
  });

  it('slides the expiry on use, writing lazily', async () => {
    const company = await createCompany(ctx.db);
    const old = new Date(Date.now() - 1800_000);
    await ctx.db.update(apiTokens).set({ lastUsedAt: old }).where(eq(apiTokens.companyId, company.id));
    ctx.app.deps.authCache.clear();
    expect((await get(company.auth)).statusCode).toBe(200);
    const [after] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.companyId, company.id));
    expect(after.lastUsedAt.getTime()).toBeGreaterThan(Date.now() - 5000);
    // A second call within the lazy window does not write again.
    await get(company.auth);
    const [again] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.companyId, company.id));
    expect(again.lastUsedAt.getTime()).toBe(after.lastUsedAt.getTime());
  });

  it('refuses a company whose API access is disabled or that is deactivated', async () => {
    const company = await createCompany(ctx.db);
    await ctx.db.update(companies).set({ apiAccess: false }).where(eq(companies.id, company.id));
    ctx.app.deps.authCache.clear();
    const res = await get(company.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'API access is disabled for this company.' });
    await ctx.db.update(companies).set({ apiAccess: true, isActive: false }).where(eq(companies.id, company.id));
    ctx.app.deps.authCache.clear();
    expect((await get(company.auth)).statusCode).toBe(403);
  });

  it('enforces scopes: exact names, prefix wildcards and all', async () => {
    const showOnly = await createCompany(ctx.db, { scopes: ['users.show'] });
    const res = await get(showOnly.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
    const usersAll = await createCompany(ctx.db, { scopes: ['users.*'] });
    expect((await get(usersAll.auth)).statusCode).toBe(200);
    expect(scopeAllows(['users.*'], 'paystubs.index')).toBe(false);
    expect(scopeAllows(['all'], 'paystubs.index')).toBe(true);
    expect(scopeAllows(['paystubs.index'], 'paystubs.index')).toBe(true);
    expect(scopeAllows(['users.*'], 'usersx.index')).toBe(false);
  });
});

describe('errors', () => {
  it('answers unknown routes with 404 {error: "Not found."} and a request id', async () => {
    const res = await get(acme.auth, '/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
  });

  it('answers a bad query parameter with 422 in the users family shape', async () => {
    const res = await get(acme.auth, '/api/users?per_page=5000');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { per_page: ['The per page field must not be greater than 1000.'] } });
  });
});
