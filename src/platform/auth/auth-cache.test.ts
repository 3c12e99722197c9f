// The authentication cache (docs/decisions.md, "Authentication cache: up to 60 s, revocation within
// 1 s"): entries kept up to a minute, the oldest evicted first, and emptied when the generation
// (migrations/0269_auth_generation.sql) moves, which every change that can take access away does,
// whoever makes it: a second app on the same database, or SQL written directly.
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { describe, expect, test as shared } from '../../../test/helpers/fixtures.js';
import { as } from '../../../test/helpers/http.js';
import { apiTokens, companies } from '../../db/schema/index.js';
import { AuthCache } from './auth-cache.js';
import type { TokenRecord } from './tokens.repo.js';
import { tokensRepo } from './tokens.repo.js';

const ADMIN_TOKEN = 'auth-cache-test-admin-token-0123456789';
const RATES = { standard: 1000, premium: 2000 };

// `ctx` is instance A; `other` is instance B on the same database, with the operator API.
const test = shared
  .extend('appConfig', { scope: 'file' }, { tokenTtlSeconds: 3600, rateLimit: RATES })
  .extend('other', { scope: 'file' }, async ({ ctx }, { onCleanup }) => {
    const other = await createTestApp({ tokenTtlSeconds: 3600, rateLimit: RATES, adminToken: ADMIN_TOKEN }, ctx.testDb);
    onCleanup(() => other.close());
    return other;
  });

const record = (id: number): TokenRecord => ({
  id,
  companyId: id,
  scopes: ['all'],
  lastUsedAt: new Date(),
  expiredAt: null,
  revokedAt: null,
  companyActive: true,
  apiAccess: true,
  plan: 'standard',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Waits until more than the generation's bound has passed since `at` (a change's commit). */
const pastTheBound = (at: number) => sleep(AuthCache.GENERATION_MS + 20 - (Date.now() - at));

const generation = (ctx: TestContext) => tokensRepo.generation(ctx.db);

const lastUsedAt = async (ctx: TestContext, company: TestCompany) => {
  const [row] = await ctx.db.select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.companyId, company.id));
  return row.at.getTime();
};

describe('AuthCache in memory', () => {
  test('keeps an entry up to a minute', () => {
    const cache = new AuthCache();
    cache.set('a', record(1), 1_000);
    expect(cache.get('a', 1_000 + AuthCache.ENTRY_MS)?.id).toBe(1);
    expect(cache.get('a', 1_001 + AuthCache.ENTRY_MS)).toBeNull();
    expect(cache.size).toBe(0);
  });

  test('evicts the oldest entry when full, a hit counting as a use', () => {
    const cache = new AuthCache(3);
    for (const token of ['a', 'b', 'c']) cache.set(token, record(1));
    expect(cache.get('a')).not.toBeNull();
    cache.set('d', undefined);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeNull();
    for (const token of ['a', 'c']) expect(cache.get(token)).not.toBeNull();
    expect(cache.get('d')).toBeUndefined();
  });

  test('empties itself when the generation moves, and ignores an older one', () => {
    const cache = new AuthCache();
    expect(cache.current(0)).toBe(false);
    expect(cache.observe(5, 1_000)).toBe(true);
    cache.set('a', record(1));
    expect(cache.current(1_000 + AuthCache.GENERATION_MS)).toBe(true);
    expect(cache.current(1_001 + AuthCache.GENERATION_MS)).toBe(false);
    expect(cache.observe(5, 1_500)).toBe(true);
    expect(cache.size).toBe(1);
    const epoch = cache.epoch;
    expect(cache.observe(4, 2_000)).toBe(false);
    expect(cache.size).toBe(1);
    expect(cache.observe(6, 2_000)).toBe(true);
    expect(cache.size).toBe(0);
    expect(cache.epoch).not.toBe(epoch);
  });
});

describe('the generation', () => {
  test('moves with each change that can take access away, in SQL or through the app', async ({ ctx, other }) => {
    const company = await createCompany(ctx.db);
    const changes = [
      sql`UPDATE api_tokens SET scopes = ARRAY['users.index'] WHERE company_id = ${company.id}`,
      sql`UPDATE api_tokens SET expired_at = now() WHERE company_id = ${company.id}`,
      sql`UPDATE companies SET plan = 'premium' WHERE id = ${company.id}`,
      // What the console's cached sessions show of their company (migration 0273).
      sql`UPDATE companies SET name = 'Renamed' WHERE id = ${company.id}`,
      sql`UPDATE companies SET api_access = false WHERE id = ${company.id}`,
      sql`UPDATE companies SET is_active = false WHERE id = ${company.id}`,
      sql`UPDATE api_tokens SET revoked_at = now() WHERE company_id = ${company.id}`,
      sql`DELETE FROM api_tokens WHERE company_id = ${company.id}`,
    ];
    for (const change of changes) {
      const before = await generation(ctx);
      await ctx.db.execute(change);
      expect(await generation(ctx), `change ${changes.indexOf(change)}`).toBeGreaterThan(before);
    }
    const revoked = await createCompany(ctx.db);
    const before = await generation(ctx);
    const res = await as(other.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }).delete(`/admin/companies/${revoked.id}/token`);
    expect(res.statusCode).toBe(200);
    expect(await generation(ctx)).toBeGreaterThan(before);
  });

  test('stays with a last use, a new company and its first token, or a statement that changes no access', async ({ ctx }) => {
    const before = await generation(ctx);
    const company = await createCompany(ctx.db);
    await ctx.db.execute(sql`UPDATE api_tokens SET last_used_at = now() - interval '2 minutes' WHERE company_id = ${company.id}`);
    await ctx.db.execute(sql`UPDATE api_tokens SET revoked_at = revoked_at, scopes = scopes WHERE company_id = ${company.id}`);
    await ctx.db.execute(sql`UPDATE companies SET name = name, employee_seq = employee_seq + 1 WHERE id = ${company.id}`);
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    expect(ctx.app.lastUse.waiting).toBe(1);
    await ctx.app.lastUse.flush();
    expect(await lastUsedAt(ctx, company)).toBeGreaterThan(Date.now() - 5_000);
    expect(await generation(ctx)).toBe(before);
  });
});

describe('revocation by another instance or SQL', () => {
  const refusedWithinTheBound = [
    [
      'a token revoked by the other app',
      401,
      (_: TestContext, other: TestContext, c: TestCompany) =>
        as(other.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }).delete(`/admin/companies/${c.id}/token`),
    ],
    [
      'API access switched off by the other app',
      403,
      (_: TestContext, other: TestContext, c: TestCompany) =>
        as(other.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }).patch(`/admin/companies/${c.id}`, { api_access: false }),
    ],
    [
      'a company deactivated in SQL (the CLI on the database)',
      403,
      (ctx: TestContext, _: TestContext, c: TestCompany) => ctx.db.update(companies).set({ isActive: false }).where(eq(companies.id, c.id)),
    ],
    [
      'a token revoked in SQL',
      401,
      (ctx: TestContext, _: TestContext, c: TestCompany) =>
        ctx.db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.companyId, c.id)),
    ],
  ] as const;

  test.for(refusedWithinTheBound)('%s is refused within a second', async ([, status, change], { ctx, other }) => {
    const company = await createCompany(ctx.db);
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    expect(ctx.app.deps.authCache.get(company.token)).toBeTruthy();
    await change(ctx, other, company);
    const committed = Date.now();
    await pastTheBound(committed);
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(status);
  });

  test('a plan changed by the other app applies within a second', async ({ ctx, other }) => {
    const company = await createCompany(ctx.db);
    const limit = async () => Number((await as(ctx.app, company).get('/api/users')).headers['x-ratelimit-limit-global']);
    expect(await limit()).toBe(RATES.standard);
    await as(other.app, { auth: { authorization: `Bearer ${ADMIN_TOKEN}` } }).patch(`/admin/companies/${company.id}`, { plan: 'premium' });
    await pastTheBound(Date.now());
    expect(await limit()).toBe(RATES.premium);
  });

  test('an entry outlives a second while the generation stays, and goes when it moves', async ({ ctx }) => {
    const company = await createCompany(ctx.db);
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    // A revocation that does not move the generation (its trigger off) is not seen: the cache held it.
    await ctx.db.execute(sql`ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_auth_generation_update`);
    try {
      await ctx.db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.companyId, company.id));
    } finally {
      await ctx.db.execute(sql`ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_auth_generation_update`);
    }
    await pastTheBound(Date.now());
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    await ctx.db.execute(sql`UPDATE auth_generation SET generation = generation + 1`);
    await pastTheBound(Date.now());
    expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(401);
  });
});

describe('last uses, written off the request path', () => {
  test('are written within a second in one batch, never moving one back', async ({ ctx }) => {
    const [a, b] = [await createCompany(ctx.db), await createCompany(ctx.db)];
    const old = Date.now() - 120_000;
    await ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(old) })
      .where(sql`company_id IN (${a.id}, ${b.id})`);
    ctx.app.deps.authCache.clear();
    for (const company of [a, b]) expect((await as(ctx.app, company).get('/api/users')).statusCode).toBe(200);
    // The answers did not wait for the write.
    expect(ctx.app.lastUse.waiting).toBe(2);
    expect(await lastUsedAt(ctx, a)).toBe(old);
    await expect.poll(async () => Math.min(await lastUsedAt(ctx, a), await lastUsedAt(ctx, b)), { timeout: 5_000 }).toBeGreaterThan(old);
    const written = await lastUsedAt(ctx, a);
    const [{ id }] = await ctx.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.companyId, a.id));
    await tokensRepo.touchMany(ctx.db, [id], [new Date(written - 1_000)]);
    expect(await lastUsedAt(ctx, a)).toBe(written);
  });

  test('are written when the app closes', async ({ ctx }) => {
    const company = await createCompany(ctx.db);
    const old = Date.now() - 120_000;
    await ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(old) })
      .where(eq(apiTokens.companyId, company.id));
    const closing = await createTestApp({}, ctx.testDb);
    expect((await as(closing.app, company).get('/api/users')).statusCode).toBe(200);
    await closing.close();
    expect(await lastUsedAt(ctx, company)).toBeGreaterThan(old);
  });
});

describe('expiry with a cached last use', () => {
  const ttlSeconds = 3;
  /** Two more instances on the file's database whose tokens expire after `ttlSeconds` unused. */
  async function shortLived(ctx: TestContext, run: (a: TestContext, b: TestContext) => Promise<void>) {
    const a = await createTestApp({ tokenTtlSeconds: ttlSeconds }, ctx.testDb);
    const b = await createTestApp({ tokenTtlSeconds: ttlSeconds }, ctx.testDb);
    try {
      await run(a, b);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }

  test('a token unused for the TTL is still refused, and stays refused', ({ ctx }) =>
    shortLived(ctx, async (a) => {
      const company = await createCompany(ctx.db);
      expect((await as(a.app, company).get('/api/users')).statusCode).toBe(200);
      await a.app.lastUse.flush();
      await sleep(ttlSeconds * 1000 + 200);
      expect((await as(a.app, company).get('/api/users')).json()).toEqual({ error: 'Token expired' });
      a.app.deps.authCache.clear();
      expect((await as(a.app, company).get('/api/users')).json()).toEqual({ error: 'Token expired' });
    }));

  test('a live token used on another instance since is not expired by a stale cached last use', ({ ctx }) =>
    shortLived(ctx, async (a, b) => {
      const company = await createCompany(ctx.db);
      expect((await as(a.app, company).get('/api/users')).statusCode).toBe(200);
      await a.app.lastUse.flush();
      const cachedUse = Date.now();
      await sleep(ttlSeconds * 500);
      expect((await as(b.app, company).get('/api/users')).statusCode).toBe(200);
      await b.app.lastUse.flush();
      await sleep(ttlSeconds * 1000 + 200 - (Date.now() - cachedUse));
      // A's cached last use is older than the TTL; the database's (B's) is not.
      const cached = a.app.deps.authCache.get(company.token);
      expect(Date.now() - (cached?.lastUsedAt.getTime() ?? 0)).toBeGreaterThan(ttlSeconds * 1000);
      expect((await as(a.app, company).get('/api/users')).statusCode).toBe(200);
      const [row] = await ctx.db.select({ expiredAt: apiTokens.expiredAt }).from(apiTokens).where(eq(apiTokens.companyId, company.id));
      expect(row.expiredAt).toBeNull();
    }));
});
