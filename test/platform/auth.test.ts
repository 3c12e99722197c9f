import { eq } from 'drizzle-orm';
import { apiTokens, companies } from '../../src/db/schema/index.js';
import { scopeAllows } from '../../src/platform/auth/tokens.js';
import { createCompany } from '../helpers/factories.js';
import { describe, expect, test as shared } from '../helpers/fixtures.js';
import { anonymous, as } from '../helpers/http.js';

const test = shared.extend('appConfig', { scope: 'file' }, { tokenTtlSeconds: 3600 });

describe('authentication', () => {
  test('answers 401 {error: "Unauthorized"} without, with a malformed and with an unknown token', async ({ ctx }) => {
    for (const headers of [{}, { authorization: 'Token abc' }, { authorization: 'Bearer pk_nope' }] as Record<string, string>[]) {
      const res = await as(ctx.app, anonymous).get('/api/users', { headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Unauthorized' });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-ratelimit-limit-global']).toBeDefined();
    }
  });

  test('accepts a valid token and sends every rate-limit header', async ({ api }) => {
    const res = await api.get('/api/users');
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

  test('expires a token unused for the TTL with 401 "Token expired", and it stays expired', async ({ ctx }) => {
    const company = await createCompany(ctx.db);
    await ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(Date.now() - 3601_000) })
      .where(eq(apiTokens.companyId, company.id));
    const res = await as(ctx.app, company).get('/api/users');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Token expired' });
    await ctx.db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.companyId, company.id));
    ctx.app.deps.authCache.clear();
    expect((await as(ctx.app, company).get('/api/users')).json()).toEqual({ error: 'Token expired' });
  });

  test('slides the expiry on use, writing lazily', async ({ ctx }) => {
    const company = await createCompany(ctx.db);
    const old = new Date(Date.now() - 1800_000);
    await ctx.db.update(apiTokens).set({ lastUsedAt: old }).where(eq(apiTokens.companyId, company.id));
    ctx.app.deps.authCache.clear();
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    // Last uses are written within a second, off the request path: write them now.
    await ctx.app.lastUse.flush();
    const [after] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.companyId, company.id));
    expect(after.lastUsedAt.getTime()).toBeGreaterThan(Date.now() - 5000);
    // A second call within the lazy window does not write again.
    await as(ctx.app, company).get('/api/users');
    await ctx.app.lastUse.flush();
    const [again] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.companyId, company.id));
    expect(again.lastUsedAt.getTime()).toBe(after.lastUsedAt.getTime());
  });

  test('refuses a company whose API access is disabled or that is deactivated', async ({ ctx }) => {
    const company = await createCompany(ctx.db);
    await ctx.db.update(companies).set({ apiAccess: false }).where(eq(companies.id, company.id));
    ctx.app.deps.authCache.clear();
    const res = await as(ctx.app, company).get('/api/users');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'API access is disabled for this company.' });
    await ctx.db.update(companies).set({ apiAccess: true, isActive: false }).where(eq(companies.id, company.id));
    ctx.app.deps.authCache.clear();
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(403);
  });

  test('enforces scopes: exact names, prefix wildcards and all', async ({ ctx }) => {
    const showOnly = await createCompany(ctx.db, { scopes: ['users.show'] });
    const res = await as(ctx.app, showOnly).get('/api/users');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });
    const usersAll = await createCompany(ctx.db, { scopes: ['users.*'] });
    expect((await as(ctx.app, usersAll).get('/api/users')).statusCode).toBe(200);
    expect(scopeAllows(['users.*'], 'paystubs.index')).toBe(false);
    expect(scopeAllows(['all'], 'paystubs.index')).toBe(true);
    expect(scopeAllows(['paystubs.index'], 'paystubs.index')).toBe(true);
    expect(scopeAllows(['users.*'], 'usersx.index')).toBe(false);
  });
});

describe('errors', () => {
  test('answers unknown routes with 404 {error: "Not found."} and a request id', async ({ api }) => {
    const res = await api.get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
  });

  test('answers a bad query parameter with 422 in the users family shape', async ({ api }) => {
    const res = await api.get('/api/users?per_page=5000');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { per_page: ['The per page field must not be greater than 1000.'] } });
  });
});
