// Console: Forgot password (docs/console.md, "Forgot password"): the same answer for known and
// unknown e-mails, the e-mailed link (single use, 30 minutes), the new password signs in and ends old
// sessions, throttling, CSRF.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { createAdmin, csrfOf, formBody, mergeCookies, signIn } from '../../test/helpers/web.js';
import { outbox, webPasswordResets } from '../db/schema/index.js';

let ctx: TestContext;
let acme: TestCompany;
let adminEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  acme = await createCompany(ctx.db, { name: 'Console Reset' });
  const admin = await createAdmin(ctx.db, acme.id, { roles: ['super-admin'], personalEmail: 'reset.admin@personal.test' });
  adminEmail = admin.email;
}, 180_000);
afterAll(() => ctx?.close());

/** Requests of someone signed out. */
const visitor = () => as(ctx.app, anonymous);

async function form(url: string, fields: Record<string, string>, ip = '10.0.0.1') {
  const page = await visitor().get(url, { remoteAddress: ip });
  const cookie = mergeCookies('', page.headers['set-cookie']);
  return visitor().post(url, formBody({ _csrf: csrfOf(page.body), ...fields }), {
    remoteAddress: ip,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });
}
const mailsTo = (to: string) => ctx.db.select().from(outbox).where(eq(outbox.to, to));

describe('Forgot password', () => {
  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const res = await form('/console/forgot-password', { email: 'nobody@nowhere.test' });
    expect([res.statusCode, res.headers.location]).toEqual([303, '/console/forgot-password/sent']);
    expect(await mailsTo('nobody@nowhere.test')).toHaveLength(0);
    expect((await visitor().get('/console/login')).body).toContain('href="/console/forgot-password"');
  });

  it('e-mails a link that sets the password once, ends old sessions, and expires', async () => {
    const old = await signIn(ctx.app, adminEmail);
    const res = await form('/console/forgot-password', { email: 'Reset.Admin@personal.test' }, '10.0.0.2');
    expect(res.headers.location).toBe('/console/forgot-password/sent');
    const [mail] = await mailsTo('reset.admin@personal.test');
    const link = /\/console\/reset-password\/[\w-]+/.exec(String((mail as Record<string, unknown>).text))?.[0] as string;
    expect(link).toBeDefined();
    const open = await visitor().get(link);
    expect(open.statusCode).toBe(200);
    const weak = await form(link, { password: 'short', password_confirmation: 'short' });
    expect(weak.statusCode).toBe(422);
    const done = await form(link, { password: 'Brand-New-Pass-9!', password_confirmation: 'Brand-New-Pass-9!' });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/console/login?reset=1']);
    expect((await visitor().get('/console/login?reset=1')).body).toContain('Your password is set.');
    expect((await old.get('/console')).statusCode).toBe(303);
    await signIn(ctx.app, adminEmail, 'Brand-New-Pass-9!');
    expect((await visitor().get(link)).statusCode).toBe(410);

    await form('/console/forgot-password', { email: adminEmail }, '10.0.0.3');
    const [later] = await mailsTo(adminEmail);
    const second = /\/console\/reset-password\/[\w-]+/.exec(String((later as Record<string, unknown>).text))?.[0] as string;
    await ctx.db.update(webPasswordResets).set({ expiresAt: sql`now() - interval '1 minute'` }).where(sql`used_at IS NULL`);
    expect((await visitor().get(second)).statusCode).toBe(410);
    expect((await visitor().get('/console/reset-password/not-a-real-link')).statusCode).toBe(404);
  });

  it('throttles requests per e-mail (known or not) with 429, and refuses a forged form', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await form('/console/forgot-password', { email: 'flood@nowhere.test' }, `10.1.0.${i}`)).statusCode);
    expect(statuses).toEqual([303, 303, 303, 429]);
    const forged = await visitor().post('/console/forgot-password', 'email=x%40y.test&_csrf=forged', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(forged.statusCode).toBe(403);
  });
});
