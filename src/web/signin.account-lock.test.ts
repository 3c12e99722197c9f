// The per-account bound on failed console sign-ins (docs/console.md, Throttling; docs/security.md):
// failures from any number of addresses lock one account for the rest of the window, the owner is
// mailed once with a single-use link that lifts the lock for one browser, unknown identifiers lock
// the same way, and the window ending lifts the lock.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { anonymous, as } from '../../test/helpers/http.js';
import { ADMIN_PASSWORD, createAdmin, csrfOf, formBody, mergeCookies } from '../../test/helpers/web.js';
import { outbox } from '../db/schema/index.js';

const LIMIT = 10;
const WRONG = 'Wrong-Guess-2026!';
const LOCKED = /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/;

let ctx: TestContext;
let acme: TestCompany;
let ipSeq = 0;
/** A fresh client address, so that no per-address or per-(address, e-mail) limit is ever reached. */
const freshIp = () => `10.${80 + Math.floor(++ipSeq / 250)}.${ipSeq % 250}.${(ipSeq * 7) % 250}`;

beforeAll(async () => {
  ctx = await createTestApp({ signInAccountFailures: LIMIT });
  acme = await createCompany(ctx.db);
}, 180_000);
afterAll(() => ctx?.close());

/** One browser: its own cookies, one address. */
function browser(app = ctx.app, remoteAddress = freshIp()) {
  let cookie = '';
  const visitor = as(app, anonymous, { remoteAddress });
  return {
    get cookie() {
      return cookie;
    },
    async get(url: string) {
      const res = await visitor.get(url, { headers: { cookie } });
      cookie = mergeCookies(cookie, res.headers['set-cookie']);
      return res;
    },
    async post(url: string, fields: Record<string, string>) {
      const res = await visitor.post(url, formBody(fields), { headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } });
      cookie = mergeCookies(cookie, res.headers['set-cookie']);
      return res;
    },
    async signIn(email: string, password: string) {
      const form = await this.get('/console/login');
      return this.post('/console/login', { _csrf: csrfOf(form.body), email, password });
    },
  };
}

const errorOf = (body: string) => /<span id="login-error">([^<]*)<\/span>/.exec(body)?.[1];
const mailsTo = (to: string) => ctx.db.select().from(outbox).where(eq(outbox.to, to));

async function failFromFreshAddresses(email: string, times: number, app = ctx.app) {
  for (let i = 0; i < times; i++) expect((await browser(app).signIn(email, WRONG)).statusCode).toBe(401);
}

describe('failed sign-ins per account, from all addresses', () => {
  it('11 failures from 11 addresses: the 11th is refused even with the right password; another account is not', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    const bystander = await createAdmin(ctx.db, acme.id);
    await failFromFreshAddresses(target.email, LIMIT);
    const eleventh = await browser().signIn(target.email, ADMIN_PASSWORD);
    expect(eleventh.statusCode).toBe(429);
    expect(errorOf(eleventh.body)).toMatch(LOCKED);
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBe(900); // as the per-address limit answers: the whole window
    // By the personal e-mail too: it names the same account.
    expect((await browser().signIn(target.personalEmail as string, ADMIN_PASSWORD)).statusCode).toBe(429);
    // Another account signs in, even from the last address.
    expect((await browser().signIn(bystander.email, ADMIN_PASSWORD)).statusCode).toBe(303);

    // The owner was mailed once, with a link; further failures and refusals send nothing more.
    await browser().signIn(target.email, WRONG);
    const mails = await mailsTo(target.personalEmail as string);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Console sign-in locked after failed attempts');
    expect(mails[0].text).toMatch(/http:\/\/payroll\.test\/console\/unlock\/[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}/);
  });

  it('refuses an unknown identifier the same way: same answer, same Retry-After, nothing mailed', async () => {
    const nobody = `nobody.${Date.now()}@acme.test`;
    await failFromFreshAddresses(nobody, LIMIT);
    const eleventh = await browser().signIn(nobody, WRONG);
    expect(eleventh.statusCode).toBe(429);
    expect(errorOf(eleventh.body)).toMatch(LOCKED);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mailsTo(nobody)).toHaveLength(0);
  });

  it('lets at most the limit of parallel wrong guesses from different addresses reach the password check', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    const results = await Promise.all(Array.from({ length: 2 * LIMIT }, () => browser().signIn(target.email, WRONG)));
    const statuses = results.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect((await browser().signIn(target.email, ADMIN_PASSWORD)).statusCode).toBe(429);
    expect(await mailsTo(target.personalEmail as string)).toHaveLength(1);
  });
});

describe('the link in the lock e-mail', () => {
  it('lifts the lock for the browser that redeems it, once; other browsers stay locked', async () => {
    const target = await createAdmin(ctx.db, acme.id);
    await failFromFreshAddresses(target.email, LIMIT);
    const [mail] = await mailsTo(target.personalEmail as string);
    const path = (/\/console\/unlock\/\S+/.exec(mail.text) as RegExpExecArray)[0];

    const owner = browser();
    // Opening the link (as a mail scanner would) uses nothing up: it asks for a button press.
    const page = await owner.get(path);
    expect(page.statusCode).toBe(200);
    expect((await owner.get(path)).statusCode).toBe(200);
    const redeemed = await owner.post(path, { _csrf: csrfOf(page.body) });
    expect(redeemed.statusCode).toBe(303);
    expect(redeemed.headers.location).toBe('/console/login?unlocked=1');
    expect((await owner.get('/console/login?unlocked=1')).body).toContain('Sign-in is unlocked in this browser');
    expect((await owner.signIn(target.email, ADMIN_PASSWORD)).statusCode).toBe(303);

    // Anyone else is still locked out, and the link is used up.
    expect((await browser().signIn(target.email, ADMIN_PASSWORD)).statusCode).toBe(429);
    const other = browser();
    const again = await other.get(path);
    const reused = await other.post(path, { _csrf: csrfOf(again.body) });
    expect(reused.statusCode).toBe(410);
    expect(reused.body).toContain('This link has already been used.');
    expect((await other.signIn(target.email, ADMIN_PASSWORD)).statusCode).toBe(429);
  });

  it('refuses a forged or altered link, and a pass lifts only its own account', async () => {
    const first = await createAdmin(ctx.db, acme.id);
    const second = await createAdmin(ctx.db, acme.id);
    await failFromFreshAddresses(first.email, LIMIT);
    await failFromFreshAddresses(second.email, LIMIT);
    const [mail] = await mailsTo(first.personalEmail as string);
    const path = (/\/console\/unlock\/\S+/.exec(mail.text) as RegExpExecArray)[0];
    const altered = `${path.slice(0, -1)}${path.endsWith('A') ? 'B' : 'A'}`;
    const forger = browser();
    expect((await forger.get(altered)).statusCode).toBe(404);
    expect((await forger.get('/console/unlock/garbage')).statusCode).toBe(404);

    const owner = browser();
    const page = await owner.get(path);
    expect((await owner.post(path, { _csrf: csrfOf(page.body) })).statusCode).toBe(303);
    expect((await owner.signIn(second.email, ADMIN_PASSWORD)).statusCode).toBe(429);
    expect((await owner.signIn(first.email, ADMIN_PASSWORD)).statusCode).toBe(303);
  });
});

describe('the window ending', () => {
  it('lifts the lock by itself (a short SIGNIN_WINDOW_SECONDS)', async () => {
    const windowSeconds = 3;
    const short = await createTestApp({ signInAccountFailures: 2, signInWindowSeconds: windowSeconds }, ctx.testDb);
    try {
      const target = await createAdmin(ctx.db, acme.id);
      // Under load the window may end between the failures and the check: try again until the lock is seen.
      let locked = false;
      for (let round = 0; round < 5 && !locked; round++) {
        await failFromFreshAddresses(target.email, 2, short.app);
        locked = (await browser(short.app).signIn(target.email, ADMIN_PASSWORD)).statusCode === 429;
      }
      expect(locked).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, (windowSeconds + 1) * 1000));
      expect((await browser(short.app).signIn(target.email, ADMIN_PASSWORD)).statusCode).toBe(303);
    } finally {
      await short.close();
    }
  }, 60_000);
});
