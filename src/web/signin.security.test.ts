// Console sign-in under attack: parallel guessing, many accounts behind one address, hostile
// `next` values, and sessions that must not outlive a password change, deactivation or deletion.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies, signIn } from '../../test/helpers/web.js';
import { users, webSessions } from '../db/schema/index.js';

// Counts argon2 verifications (the expensive step) without changing what they answer.
const argon = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('../modules/users/lifecycle/users.passwords.rules.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../modules/users/index.js')>();
  return {
    ...original,
    verifyPassword: (hash: string | null | undefined, password: string) => {
      argon.verifications += 1;
      return original.verifyPassword(hash, password);
    },
  };
});

let ctx: TestContext;
let acme: TestCompany;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db);
}, 180_000);
afterAll(() => ctx?.close());
beforeEach(() => {
  argon.verifications = 0;
});

async function loginForm(remoteAddress: string) {
  const res = await as(ctx.app, anonymous).get('/console/login', { remoteAddress });
  return { cookie: mergeCookies('', res.headers['set-cookie']), csrf: csrfOf(res.body) };
}

async function postLogin(form: { cookie: string; csrf: string }, remoteAddress: string, fields: Record<string, string>) {
  return as(ctx.app, anonymous).post('/console/login', formBody({ _csrf: form.csrf, ...fields }), {
    remoteAddress,
    headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });
}

describe('sign-in throttle', () => {
  it('lets at most 5 of 12 parallel wrong passwords reach the password check; the rest are throttled', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    const address = '10.77.0.1';
    const forms = await Promise.all(Array.from({ length: 12 }, () => loginForm(address)));
    const responses = await Promise.all(
      forms.map((form) => postLogin(form, address, { email: target.email, password: 'Wrong-Guess-2026!' })),
    );
    const statuses = responses.map((res) => res.statusCode).sort();
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    expect(argon.verifications).toBeLessThanOrEqual(5);
    // And the right password is throttled too until the window ends.
    const after = await postLogin(await loginForm(address), address, { email: target.email, password: ADMIN_PASSWORD });
    expect(after.statusCode).toBe(429);
  });

  it('clears the account counter on success; refused attempts do not use up the address budget', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    const address = '10.77.0.2';
    for (let i = 0; i < 4; i++) {
      expect((await postLogin(await loginForm(address), address, { email: target.email, password: 'Nope-nope-2026!' })).statusCode).toBe(
        401,
      );
    }
    expect((await postLogin(await loginForm(address), address, { email: target.email, password: ADMIN_PASSWORD })).statusCode).toBe(303);
    // The counter started again: 5 more wrong guesses reach the check before the 6th is refused.
    for (let i = 0; i < 5; i++) {
      expect((await postLogin(await loginForm(address), address, { email: target.email, password: 'Nope-nope-2026!' })).statusCode).toBe(
        401,
      );
    }
    expect((await postLogin(await loginForm(address), address, { email: target.email, password: 'Nope-nope-2026!' })).statusCode).toBe(429);
    // 50 more refused attempts at the locked account: the address (limit 50) is still open to others.
    const form = await loginForm(address);
    for (let i = 0; i < 50; i++) {
      expect((await postLogin(form, address, { email: target.email, password: 'Nope-nope-2026!' })).statusCode).toBe(429);
    }
    const colleague = await createAdmin(ctx.db, acme.id);
    expect((await postLogin(form, address, { email: colleague.email, password: ADMIN_PASSWORD })).statusCode).toBe(303);
  });
});

describe('argon2 work per attempt', () => {
  it('verifies one password hash per attempt, however many accounts share a personal e-mail', async () => {
    const shared = `shared.${process.pid}.${Date.now()}@personal.test`;
    const accounts = [];
    for (let i = 0; i < 10; i++) {
      const company = await createCompany(ctx.db);
      accounts.push(await createAdmin(ctx.db, company.id, { personalEmail: shared, roles: i === 3 ? ['super-admin'] : ['user'] }));
    }
    argon.verifications = 0;
    const wrong = await postLogin(await loginForm('10.78.0.1'), '10.78.0.1', { email: shared, password: 'Wrong-Guess-2026!' });
    expect(wrong.statusCode).toBe(401);
    expect(argon.verifications).toBe(1);

    // The personal e-mail opens the account that may use the console; the others use their company e-mail.
    argon.verifications = 0;
    const right = await postLogin(await loginForm('10.78.0.2'), '10.78.0.2', { email: shared, password: ADMIN_PASSWORD });
    expect(right.statusCode).toBe(303);
    expect(argon.verifications).toBe(1);
    const [session] = await ctx.db.select().from(webSessions).where(eq(webSessions.userId, accounts[3].id));
    expect(session).toBeDefined();

    argon.verifications = 0;
    const unknown = await postLogin(await loginForm('10.78.0.3'), '10.78.0.3', {
      email: 'nobody@nowhere.test',
      password: 'Wrong-Guess-2026!',
    });
    expect(unknown.statusCode).toBe(401);
    expect(argon.verifications).toBe(1);
  });
});

describe('redirect after sign-in', () => {
  const hostile = [
    '/console/\r\nSet-Cookie: pwned=1',
    '/console/\u2028x',
    '/console/é',
    '//evil.com',
    '//evil.com/console',
    '/console/../x',
    '/console/./x',
    '/console/%2e%2e/x',
    '/console//evil.com',
    '/consolex',
    'https://x',
    'javascript:alert(1)',
    '/console\\evil',
    '/\\evil.com',
    '\\\\evil.com',
    '/console/x#\r\n',
    '/console?x=\r\ny',
    ' /console',
  ];

  it('answers every hostile next with 303 to /console (never a 500)', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const form = await loginForm('10.79.0.1');
    for (const next of hostile) {
      const res = await postLogin(form, '10.79.0.1', { email: admin.email, password: ADMIN_PASSWORD, next });
      expect(res.statusCode, JSON.stringify(next)).toBe(303);
      expect(res.headers.location, JSON.stringify(next)).toBe('/console');
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('pwned');
    }
  });

  it('answers hostile next on the sign-in page of a signed-in user the same way', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    for (const next of hostile) {
      const res = await as(ctx.app, anonymous).get(`/console/login?next=${encodeURIComponent(next)}`, {
        headers: { cookie: client.cookie },
      });
      expect(res.statusCode, JSON.stringify(next)).toBe(303);
      expect(res.headers.location, JSON.stringify(next)).toBe('/console');
    }
  });

  // A NUL is refused before any route code by the one input rule (platform/input-safety.ts): a
  // 422 page, never a redirect and never a 500.
  it('answers a next holding a NUL with the 422 of the input rule, on the form and on the page', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const form = await loginForm('10.79.0.3');
    const posted = await postLogin(form, '10.79.0.3', { email: admin.email, password: ADMIN_PASSWORD, next: '/console/\u0000' });
    expect(posted.statusCode).toBe(422);
    expect(posted.headers.location).toBeUndefined();
    const client = await signIn(ctx.app, admin.email);
    const page = await as(ctx.app, anonymous).get(`/console/login?next=${encodeURIComponent('/console/\u0000')}`, {
      headers: { cookie: client.cookie },
    });
    expect(page.statusCode).toBe(422);
  });

  it('keeps console paths with a query', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const form = await loginForm('10.79.0.2');
    for (const next of ['/console/employees?q=ada%20obi&status=active&page=2', '/console/payroll/PR-20261122-4F7K2Q', '/console']) {
      const res = await postLogin(form, '10.79.0.2', { email: admin.email, password: ADMIN_PASSWORD, next });
      expect(res.headers.location).toBe(next);
    }
  });
});

describe('sessions end with the credentials and standing they were opened with', () => {
  const password = 'Brand-New-Secret-2026!';
  const alive = async (client: Awaited<ReturnType<typeof signIn>>) => (await client.get('/console/security/api')).statusCode === 200;

  it('a password set through U4 ends every session of that user', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const [first, second] = [await signIn(ctx.app, admin.email), await signIn(ctx.app, admin.email)];
    expect(await alive(first)).toBe(true);
    const res = await as(ctx.app, acme).put(`/api/users/${admin.id}`, { password, password_confirmation: password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await alive(first)).toBe(false);
    expect(await alive(second)).toBe(false);
    expect(await alive(await signIn(ctx.app, admin.email, password))).toBe(true);
  });

  it('deactivation ends sessions for good: reactivating does not bring them back', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    expect(await alive(client)).toBe(true);
    const call = (action: string) => as(ctx.app, acme).patch(`/api/users/${admin.id}/${action}`);
    expect((await call('deactivate')).statusCode).toBe(200);
    expect((await call('activate')).statusCode).toBe(200);
    expect(await alive(client)).toBe(false);
  });

  it('suspension ends sessions for good: unsuspending does not bring them back', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    const call = (action: string, payload: Record<string, unknown>) => as(ctx.app, acme).post(`/api/users/${admin.id}/${action}`, payload);
    expect((await call('suspend', { suspension_duration_type: 'indefinite' })).statusCode).toBe(200);
    expect((await call('unsuspend', { unsuspend_option: 'immediately' })).statusCode).toBe(200);
    expect(await alive(client)).toBe(false);
  });

  it('deletion removes the sessions of the user', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    await signIn(ctx.app, admin.email);
    const res = await as(ctx.app, acme).delete(`/api/users/${admin.id}`);
    expect(res.statusCode).toBe(200);
    expect(await ctx.db.select().from(webSessions).where(eq(webSessions.userId, admin.id))).toEqual([]);
  });

  it('a password set through onboarding ends sessions opened before it', async () => {
    const admin = await createAdmin(ctx.db, acme.id);
    const client = await signIn(ctx.app, admin.email);
    // A user re-invited while a session was open (configured directly: no route does both).
    const token = `reinvite-${admin.id}-${'y'.repeat(32)}`;
    await ctx.db
      .update(users)
      .set({ onboardingToken: token, tokenExpiresAt: new Date(Date.now() + 86_400_000), onboardingCompleted: false })
      .where(eq(users.id, admin.id));
    await ctx.app.services.users.onboarding.complete(token, password, password);
    expect(await alive(client)).toBe(false);
  });
});
