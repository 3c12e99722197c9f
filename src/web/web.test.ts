// Console over inject: html helpers, sign-in, sessions, CSRF, throttling, Security → API. The
// console pages (onboarding, settings, overview, payroll runs) are in web.pages.test.ts; the browser
// test (console.browser.test.ts) drives the same pages in chromium.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies, signIn } from '../../test/helpers/web.js';
import { companies, users, webLoginFailures, webSessions } from '../db/schema/index.js';
import { SIGN_IN_MESSAGES } from '../modules/console-sessions/index.js';
import { naira } from '../tax-engine/money.js';
import { escapeHtml, html } from './html.view.js';

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

async function postLogin(email: string, password: string, remoteAddress = '127.0.0.1') {
  const { cookie, csrf } = await loginPage(remoteAddress);
  return as(ctx.app, anonymous).post('/console/login', formBody({ _csrf: csrf, email, password }), {
    remoteAddress,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });
}

const api = (token: string, url = '/api/users') => as(ctx.app, { auth: { authorization: `Bearer ${token}` } }).get(url);

describe('html helpers', () => {
  it('escapes every interpolation unless it is Html', () => {
    expect(html`<p>${'<script>"x"&\'y\'</script>'}</p>`.value).toBe('<p>&lt;script&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/script&gt;</p>');
    expect(html`<p>${html`<b>${'<i>'}</b>`}${null}${false}${[1, '<', 2]}</p>`.value).toBe('<p><b>&lt;i&gt;</b>1&lt;2</p>');
    expect(escapeHtml('`')).toBe('&#96;');
    expect(html`${'plain text'} ${12n} ${-1.5} ${'a&b'}`.value).toBe('plain text 12 -1.5 a&amp;b');
  });

  it('formats naira from decimal strings without floats', () => {
    expect(naira('1234567.89')).toBe('₦1,234,567.89');
    expect(naira('0')).toBe('₦0.00');
    expect(naira('100000000')).toBe('₦100,000,000.00');
    expect(naira('999.995')).toBe('₦1,000.00');
    expect(naira('90071992547409931.01')).toBe('₦90,071,992,547,409,931.01');
    expect(naira('-1500.5')).toBe('−₦1,500.50');
    expect(naira(1234.5)).toBe('₦1,234.50');
    expect(naira(null)).toBe('—');
  });
});

describe('sign-in', () => {
  it('serves the sign-in form with a CSRF field, labels and a skip link', async () => {
    const { res } = await loginPage();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<label for="email">');
    expect(res.body).toContain('<label for="password">');
    expect(res.body).toContain('href="#content"');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('no-store');
    const csrfCookie = [res.headers['set-cookie']].flat().find((line) => line?.startsWith('pc_csrf='));
    expect(csrfCookie).toMatch(/HttpOnly/);
    expect(csrfCookie).toMatch(/SameSite=Lax/);
  });

  it('signs an administrator in by company e-mail with an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await postLogin(admin.email, ADMIN_PASSWORD);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console');
    const line = [res.headers['set-cookie']].flat().find((l) => l?.startsWith('pc_session='));
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Secure/);
    // Only the SHA-256 of the cookie value is stored.
    const value = /pc_session=([^;]+)/.exec(line as string)?.[1] as string;
    const rows = await ctx.db.select().from(webSessions).where(eq(webSessions.userId, admin.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.tokenHash !== value && row.tokenHash.length === 64)).toBe(true);
  });

  it('signs in by personal e-mail, case-insensitively', async () => {
    expect((await postLogin('ADA@Personal.test', ADMIN_PASSWORD)).statusCode).toBe(303);
  });

  it('sets Secure __Host- cookies when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({ publicUrl: 'https://console.example' }, ctx.testDb);
    try {
      const page = await as(secure.app, anonymous).get('/console/login');
      const csrfLine = [page.headers['set-cookie']].flat()[0] as string;
      expect(csrfLine).toMatch(/^__Host-pc_csrf=.*Secure/);
      const res = await as(secure.app, anonymous).post(
        '/console/login',
        formBody({ _csrf: csrfOf(page.body), email: admin.email, password: ADMIN_PASSWORD }),
        {
          headers: {
            cookie: mergeCookies('', page.headers['set-cookie']),
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'https://console.example',
          },
        },
      );
      expect(res.statusCode).toBe(303);
      const line = [res.headers['set-cookie']].flat().find((l) => l?.startsWith('__Host-pc_session=')) as string;
      expect(line).toMatch(/Secure/);
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
      expect(res.headers['strict-transport-security']).toBeDefined();
    } finally {
      await secure.close();
    }
  });

  it('gives one message for a wrong password and an unknown e-mail', async () => {
    for (const [email, password] of [
      [admin.email, 'Wrong-password-1!'],
      ['nobody@nowhere.test', ADMIN_PASSWORD],
    ]) {
      const res = await postLogin(email, password, '10.0.0.1');
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(SIGN_IN_MESSAGES.invalid);
      expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('pc_session=');
    }
    const empty = await postLogin('', '', '10.0.0.1');
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain(SIGN_IN_MESSAGES.missing);
  });

  it('refuses non-administrators, inactive, suspended and password-less users, and deactivated companies', async () => {
    const employee = await createAdmin(ctx.db, acme.id, { roles: ['user', 'finance'] });
    let res = await postLogin(employee.email, ADMIN_PASSWORD, '10.0.0.2');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(SIGN_IN_MESSAGES.notAdmin);

    const inactive = await createAdmin(ctx.db, acme.id, { isActive: false });
    res = await postLogin(inactive.email, ADMIN_PASSWORD, '10.0.0.2');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(SIGN_IN_MESSAGES.inactive);

    const suspended = await createAdmin(ctx.db, acme.id);
    await ctx.db.update(users).set({ isSuspended: true }).where(eq(users.id, suspended.id));
    expect((await postLogin(suspended.email, ADMIN_PASSWORD, '10.0.0.2')).statusCode).toBe(403);

    const [noPassword] = await ctx.db
      .update(users)
      .set({ passwordHash: null })
      .where(eq(users.id, (await createAdmin(ctx.db, acme.id)).id))
      .returning();
    expect((await postLogin(noPassword.email, ADMIN_PASSWORD, '10.0.0.2')).statusCode).toBe(401);

    const deleted = await createAdmin(ctx.db, acme.id);
    await ctx.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    expect((await postLogin(deleted.email, ADMIN_PASSWORD, '10.0.0.2')).statusCode).toBe(401);

    const closed = await createCompany(ctx.db, { isActive: false });
    const closedAdmin = await createAdmin(ctx.db, closed.id);
    res = await postLogin(closedAdmin.email, ADMIN_PASSWORD, '10.0.0.2');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(SIGN_IN_MESSAGES.companyInactive);
  });

  it('throttles after 5 failures per address and account for 15 minutes, even with the right password', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    for (let i = 0; i < 5; i++) expect((await postLogin(target.email, 'Nope-nope-nope-1!', '10.9.9.9')).statusCode).toBe(401);
    const blocked = await postLogin(target.email, ADMIN_PASSWORD, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toMatch(/Too many failed sign-in attempts\. Try again in 1[45] minutes\./);
    expect(blocked.headers['retry-after']).toBe('900');
    // Another address is not locked out by someone guessing elsewhere.
    expect((await postLogin(target.email, ADMIN_PASSWORD, '10.9.9.10')).statusCode).toBe(303);
  });

  it('rejects a sign-in form without the CSRF secret or from another origin', async () => {
    const { cookie, csrf } = await loginPage();
    const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };
    const visitor = as(ctx.app, anonymous);
    let res = await visitor.post('/console/login', formBody({ email: admin.email, password: ADMIN_PASSWORD }), { headers });
    expect(res.statusCode).toBe(403);
    res = await visitor.post('/console/login', formBody({ _csrf: csrf, email: admin.email, password: ADMIN_PASSWORD }), {
      headers: { 'content-type': headers['content-type'] },
    });
    expect(res.statusCode).toBe(403);
    res = await visitor.post('/console/login', formBody({ _csrf: csrf, email: admin.email, password: ADMIN_PASSWORD }), {
      headers: { ...headers, origin: 'https://evil.test' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('follows only console paths after sign-in', async () => {
    const { cookie, csrf } = await loginPage();
    for (const [next, expected] of [
      ['/console/security/api', '/console/security/api'],
      ['https://evil.test/', '/console'],
      ['//evil.test/console', '/console'],
    ]) {
      const res = await as(ctx.app, anonymous).post(
        '/console/login',
        formBody({ _csrf: csrf, email: admin.email, password: ADMIN_PASSWORD, next }),
        {
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        },
      );
      expect(res.headers.location).toBe(expected);
    }
  });
});

describe('sessions', () => {
  it('sends signed-out visitors to the sign-in page and back', async () => {
    const res = await as(ctx.app, anonymous).get('/console/security/api');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/login?next=%2Fconsole%2Fsecurity%2Fapi');
    const post = await as(ctx.app, anonymous).post('/console/security/api/generate', { scopes: ['all'] });
    expect(post.statusCode).toBe(303);
  });

  it('checks the per-session CSRF secret on every POST', async () => {
    const client = await signIn(ctx.app, admin.email);
    const other = await signIn(ctx.app, admin.email);
    const before = await client.get('/console/security/api');
    for (const csrf of ['', 'forged', other.csrf]) {
      const res = await client.post('/console/security/api/generate', { _csrf: csrf, scopes: 'all' });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('This form has expired');
    }
    const logout = await client.post('/console/logout', { _csrf: 'forged' });
    expect(logout.statusCode).toBe(403);
    // Nothing changed: the company's token is the same one.
    expect((await api(acme.token)).statusCode).toBe(200);
    expect((await client.get('/console/security/api')).body).toContain(before.body.match(/<dt>Created<\/dt><dd>[^<]+/)?.[0] as string);
  });

  it('signs out, and the old cookie no longer works', async () => {
    const client = await signIn(ctx.app, admin.email);
    const res = await client.post('/console/logout', {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/login?signed_out=1');
    expect((await client.get('/console/security/api')).statusCode).toBe(303);
  });

  it('ends sessions when the user loses the admin role, and after 30 idle minutes', async () => {
    const temp = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, temp.email);
    expect((await client.get('/console/security/api')).statusCode).toBe(200);
    await ctx.db
      .update(users)
      .set({ roles: ['user'] })
      .where(eq(users.id, temp.id));
    expect((await client.get('/console/security/api')).statusCode).toBe(303);

    const idle = await signIn(ctx.app, admin.email);
    await ctx.db
      .update(webSessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(webSessions.csrfToken, idle.csrf));
    expect((await idle.get('/console/security/api')).statusCode).toBe(303);
  });

  it('prunes sessions past their expiry and failures past the window on sign-in', async () => {
    const [old] = await ctx.db
      .insert(webSessions)
      .values({ tokenHash: 'f'.repeat(64), csrfToken: 'x', userId: admin.id, companyId: acme.id, expiresAt: new Date(Date.now() - 60_000) })
      .returning();
    const [failure] = await ctx.db
      .insert(webLoginFailures)
      .values({ keyHash: 'e'.repeat(64), createdAt: new Date(Date.now() - 16 * 60_000) })
      .returning();
    await signIn(ctx.app, admin.email);
    expect(await ctx.db.select().from(webSessions).where(eq(webSessions.id, old.id))).toEqual([]);
    expect(await ctx.db.select().from(webLoginFailures).where(eq(webLoginFailures.id, failure.id))).toEqual([]);
  });

  it('escapes company and user names on every page', async () => {
    const client = await signIn(ctx.app, admin.email);
    const res = await client.get('/console/security/api');
    expect(res.body).toContain('Acme &lt;b&gt;Foods&lt;/b&gt;');
    expect(res.body).not.toContain('<b>Foods</b>');
  });

  it('answers unknown console paths with an HTML 404', async () => {
    const res = await as(ctx.app, anonymous).get('/console/nope');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('Security → API', () => {
  it('generates a token shown once, with the chosen scopes, that works against /api', async () => {
    const company = await createCompany(ctx.db);
    const owner = await createAdmin(ctx.db, company.id, { roles: ['super-admin'] });
    const client = await signIn(ctx.app, owner.email);

    let res = await client.post('/console/security/api/invalidate', { confirm: 'yes' });
    expect(res.statusCode).toBe(303);
    expect((await api(company.token)).statusCode).toBe(401);
    res = await client.get('/console/security/api');
    expect(res.body).toContain('No token');
    expect(res.body).toContain('Generate token');

    res = await client.post('/console/security/api/generate', { scopes: ['users.index', 'wallet.*'] });
    expect(res.statusCode).toBe(200);
    const token = /<code id="new-token">(pk_[\w-]+)<\/code>/.exec(res.body)?.[1] as string;
    expect(token).toMatch(/^pk_[\w-]{43}$/);
    expect(res.body).toContain('data-copy="new-token"');
    expect((await api(token)).statusCode).toBe(200);
    const denied = await api(token, '/api/users/1');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'This token is not allowed to access this endpoint.' });

    // Never shown again; the page shows scopes, last use and expiry instead.
    res = await client.get('/console/security/api');
    expect(res.body).not.toContain(token);
    expect(res.body).toContain('users.index, wallet.*');
    expect(res.body).toContain('Last used');
    expect(res.body).toContain('Expires');
    // No scope is pre-ticked, not even the current token's.
    expect(res.body).toMatch(/id="scope-users_index" name="scopes" value="users.index">/);
    expect(res.body).not.toMatch(/name="scopes" value="[^"]+" checked/);

    // Regenerate asks first (post/redirect/get): nothing changes until the confirmation.
    res = await client.post('/console/security/api/generate', { scopes: 'all' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/security/api/regenerate?scopes=all');
    expect((await api(token)).statusCode).toBe(200);
    res = await client.get('/console/security/api/regenerate?scopes=all');
    expect(res.body).toContain('Yes, regenerate the token');
    expect(res.body).toContain('<input type="hidden" name="scopes" value="all">');
    // Regenerate: the old token is refused at once.
    res = await client.post('/console/security/api/generate', { scopes: 'all', confirm: 'yes' });
    const second = /<code id="new-token">(pk_[\w-]+)<\/code>/.exec(res.body)?.[1] as string;
    expect(second).not.toBe(token);
    expect((await api(token)).statusCode).toBe(401);
    expect((await api(second, '/api/users/1')).statusCode).not.toBe(403);

    // Invalidate asks first, then refuses the token.
    res = await client.get('/console/security/api/invalidate');
    expect(res.body).toContain('Yes, invalidate the token');
    res = await client.post('/console/security/api/invalidate', {});
    expect(res.headers.location).toBe('/console/security/api/invalidate');
    expect((await api(second)).statusCode).toBe(200);
    res = await client.post('/console/security/api/invalidate', { confirm: 'yes' });
    expect(res.headers.location).toBe('/console/security/api?done=invalidated');
    expect((await api(second)).json()).toEqual({ error: 'Unauthorized' });
    expect((await client.get('/console/security/api?done=invalidated')).body).toContain('The API token is invalidated.');
    // A `done` that names an Object.prototype member is no notice (it used to print the function).
    for (const done of ['toString', 'constructor']) {
      expect((await client.get(`/console/security/api?done=${done}`)).body).not.toContain('native code');
      expect((await client.get(`/console/settings?done=${done}`)).body).not.toContain('native code');
    }
  });

  it('refuses empty and unknown scopes without touching the token', async () => {
    const client = await signIn(ctx.app, admin.email);
    let res = await client.post('/console/security/api/generate', {});
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Choose at least one scope.');
    res = await client.post('/console/security/api/generate', { scopes: ['users.index', 'payroll.run', 'nothing.*'] });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Unknown scope: payroll.run, nothing.*.');
    expect((await api(acme.token)).statusCode).toBe(200);
  });

  it('acts only on the signed-in company and shows expiry of an unused token', async () => {
    const other = await createCompany(ctx.db);
    const otherAdmin = await createAdmin(ctx.db, other.id);
    const client = await signIn(ctx.app, otherAdmin.email);
    await client.post('/console/security/api/invalidate', { confirm: 'yes' });
    expect((await api(other.token)).statusCode).toBe(401);
    expect((await api(acme.token)).statusCode).toBe(200);

    await ctx.db.update(companies).set({ apiAccess: false }).where(eq(companies.id, other.id));
    const res = await client.get('/console/security/api');
    expect(res.body).toContain('API access is disabled for this company');
  });
});
