// The console in a real browser (playwright-core + Debian's chromium) on a really listening app:
// complete an onboarding, sign in, generate / use / regenerate / invalidate the API token, visit
// every main page (screenshots when asked for: test/helpers/browser.ts), keyboard and phone checks, sign out.
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, screenshots, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { freePort } from '../../test/helpers/ports.js';
import { users } from '../db/schema/index.js';
import { revokeTokens } from '../platform/auth/tokens.js';

const PASSWORD = 'Lagos-Payroll-2026!';
const ONBOARDING_TOKEN = 'onb_browser_0123456789abcdefghijklmnopqr';

let ctx: TestContext;
let base: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let company: TestCompany;
let superAdminEmail: string;
const shots = screenshots('console');

async function api(token: string, url = '/api/users') {
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const shot = (name: string) => shots.take(page, name, { fullPage: true });

// Never skipped where chromium is installed (CI installs it): the browser check must really run.
// Generous timeouts: the machine is shared, and argon2 hashing is slow on purpose.
describeInBrowser('the console in chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base, walletVerifyDelaySeconds: 0 });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    company = await createCompany(ctx.db, { name: 'Zenith Foods Ltd' });
    // As C2 or the operator leaves it: an inactive super admin with an onboarding link, and no token yet.
    const [superAdmin] = await createUsers(ctx.db, company.id, [
      { firstName: 'Amaka', lastName: 'Eze', roles: ['super-admin'], isActive: false, personalEmail: 'amaka@personal.test' },
    ]);
    superAdminEmail = superAdmin.email;
    await ctx.db
      .update(users)
      .set({ onboardingToken: ONBOARDING_TOKEN, tokenExpiresAt: new Date(Date.now() + 7 * 86_400_000), onboardingCompleted: false })
      .where(eq(users.id, superAdmin.id));
    await revokeTokens(ctx.db, company.id);
    ctx.app.deps.authCache.clear();
    await createUsers(
      ctx.db,
      company.id,
      Array.from({ length: 12 }, (_, i) => ({
        firstName: ['Chidi', 'Ngozi', 'Tunde', 'Bola', 'Emeka', 'Funmi'][i % 6],
        lastName: `Okafor${i}`,
        isActive: i % 4 !== 0,
        baseSalary: `${350000 + i * 12500}.50`,
      })),
    );

    browser = await sharedBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
    if (shots.dir) console.log(`console screenshots: ${shots.dir}`);
  });

  it('completes the onboarding of the invited super admin', async () => {
    await page.goto(`${base}/onboarding/${ONBOARDING_TOKEN}`);
    expect(await page.title()).toBe('Set your password · Payroll console');
    await page.getByLabel('New password').fill('too-weak');
    await page.getByLabel('Repeat the password').fill('too-weak');
    await page.getByRole('button', { name: 'Set password and activate my account' }).click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('The password field must be at least 12 characters.');
    await shot('onboarding-errors');

    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and activate my account' }).click();
    await page.waitForSelector('text=You are all set');
    await shot('onboarding-done');
    const [row] = await ctx.db.select().from(users).where(eq(users.email, superAdminEmail));
    expect(row.isActive).toBe(true);
    expect(row.onboardingCompleted).toBe(true);

    // The link is spent: a clear page.
    const again = await page.goto(`${base}/onboarding/${ONBOARDING_TOKEN}`);
    expect(again?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Link not valid');
  });

  it('signs in with the new password, keyboard first: the skip link is the first stop', async () => {
    await page.goto(`${base}/console/security/api`);
    expect(page.url()).toBe(`${base}/console/login?next=%2Fconsole%2Fsecurity%2Fapi`);
    await page.getByLabel('E-mail address').fill(superAdminEmail);
    await page.getByLabel('Password').fill('Wrong-password-1!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('[role=alert]').textContent()).toContain('The e-mail address or password is incorrect.');
    await shot('sign-in-error');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console/security/api`);

    const cookies = await context.cookies(base);
    const session = cookies.find((cookie) => cookie.name === 'pc_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => document.cookie)).not.toContain('pc_session');

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
  });

  it('generates a token shown once with a copy button, and it works against /api', async () => {
    await page.goto(`${base}/console/security/api`);
    expect(await page.locator('text=No token').count()).toBe(1);
    await shot('security-no-token');
    // Nothing is pre-ticked: the administrator chooses.
    expect(await page.locator('input[name=scopes]:checked').count()).toBe(0);
    await page.getByLabel('all — every endpoint').check();
    await page.getByRole('button', { name: 'Generate token' }).click();
    const token = (await page.locator('#new-token').textContent()) as string;
    expect(token).toMatch(/^pk_[\w-]{43}$/);
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect.poll(() => page.locator('#new-token-status').textContent()).toBe('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await shot('security-new-token');
    expect((await api(token)).status).toBe(200);

    // Shown exactly once: a reload shows the status, never the token.
    await page.goto(`${base}/console/security/api`);
    expect(await page.content()).not.toContain(token);
    expect(await page.locator('.badge.ok').textContent()).toBe('Active');
    await shot('security-status');

    // Regenerate with narrower scopes: the old token is refused at once, the new one is scoped.
    await page.getByLabel('all — every endpoint').uncheck();
    await page.getByLabel('users.* — all users endpoints').check();
    await page.getByRole('button', { name: 'Regenerate token' }).click();
    // A confirmation page first: the old token still works until it is confirmed.
    await page.waitForURL(`${base}/console/security/api/regenerate?scopes=users.*`);
    expect((await api(token)).status).toBe(200);
    await page.getByRole('button', { name: 'Yes, regenerate the token' }).click();
    const second = (await page.locator('#new-token').textContent()) as string;
    expect(second).not.toBe(token);
    expect(await api(token)).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    expect((await api(second)).status).toBe(200);
    expect((await api(second, '/api/wallet/balance')).status).toBe(403);

    // Invalidate asks for confirmation (a page, then the browser's dialog) and then refuses the token.
    await page.goto(`${base}/console/security/api`);
    expect(await page.locator('dd').first().textContent()).toBe('users.*');
    await page.getByRole('link', { name: 'Invalidate token…' }).click();
    await shot('security-invalidate-confirm');
    let dialogMessage = '';
    page.once('dialog', (dialog) => {
      dialogMessage = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Yes, invalidate the token' }).click();
    expect(dialogMessage).toBe('Invalidate the API token now?');
    expect((await api(second)).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Yes, invalidate the token' }).click();
    await page.waitForURL(`${base}/console/security/api?done=invalidated`);
    expect(await page.locator('[role=status]').first().textContent()).toContain('The API token is invalidated.');
    expect(await api(second)).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('shows every main page, presentable on a desktop and on a phone', async () => {
    // Something to show on payroll and invoices.
    const token = (await ctx.db.transaction(async (tx) => (await import('../platform/auth/tokens.js')).issueToken(tx, company.id, ['all'])))
      .token;
    ctx.app.deps.authCache.clear();
    const people = ((await api(token, '/api/users?per_page=20')).body.Resources as { id: number; email: string; is_active: boolean }[])
      .filter((u) => u.is_active)
      .slice(0, 6);
    const run = await fetch(`${base}/api/paystubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        paystubs: people.map((u, i) => ({
          id: String(u.id),
          pay_period_start: '2026-10-01',
          pay_period_end: '2026-10-31',
          taxable_income: 450000 + i * 25000,
          reimbursements: 5000,
          other_allowances: 30000,
        })),
      }),
    });
    expect(run.status).toBe(201);
    const invoice = await fetch(`${base}/api/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        user_email: people[0].email,
        description: 'Eye test and glasses',
        service_date: '2026-10-12',
        provider_name: 'Clear Vision Opticians',
        total_amount: 185000,
        amount_requested: 150000,
        category_name: 'Health',
        subcategory_name: 'Optical',
      }),
    });
    expect(invoice.status).toBe(201);

    // Top up through the sandbox checkout: Top up → Pay → back on the wallet page.
    await page.goto(`${base}/console/wallet`);
    await page.getByLabel('Amount in naira').fill('2,500,000');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.waitForURL(/\/sandbox\/checkout\/WT-/);
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.waitForURL(/\/console\/wallet\?reference=WT-/);
    await ctx.app.deps.jobs.runDue();
    await page.reload();
    expect(await page.locator('.figure').first().textContent()).toBe('₦2,500,000.00');

    const pages: [string, string, string][] = [
      ['overview', '/console', 'Overview'],
      ['employees', '/console/employees', 'Employees'],
      ['payroll-runs', '/console/payroll', 'Payroll runs'],
      ['wallet', '/console/wallet', 'Wallet'],
      ['invoices', '/console/invoices', 'Invoices'],
      ['settings', '/console/settings', 'Settings'],
      ['security', '/console/security/api', 'Security · API'],
    ];
    for (const [name, url, heading] of pages) {
      const response = await page.goto(`${base}${url}`);
      expect(response?.status(), url).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(heading);
      expect(await page.locator('nav.main a[aria-current=page]').count()).toBe(1);
      await shot(name);
    }
    // The overview's chart: an SVG image drawn by the server (no script), named by its <title>.
    await page.goto(`${base}/console`);
    const chart = page.getByRole('img', { name: /^Net pay and tax paid, / });
    expect(await chart.count()).toBe(1);
    expect((await chart.boundingBox())?.width ?? 0).toBeGreaterThan(200);
    expect(await page.locator('svg title#chart-title').textContent()).toMatch(
      /^Net pay and tax paid, [A-Z][a-z]{2} \d{4} to [A-Z][a-z]{2} \d{4}$/,
    );
    expect(await page.locator('svg rect.net').count()).toBe(12);
    await page.goto(`${base}/console/payroll`);
    await page.locator('tbody a').first().click();
    expect(await page.locator('tfoot td').first().textContent()).toBe('Run totals');
    await shot('payroll-run');

    // Every input has a label.
    await page.goto(`${base}/console/settings`);
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input:not([type=hidden]), select')]
        .filter((el) => !el.id || !document.querySelector(`label[for="${el.id}"]`))
        .map((el) => el.outerHTML),
    );
    expect(unlabeled).toEqual([]);

    // A phone: nothing wider than the screen except inside scrollable tables.
    const phone = await browser.newContext({
      viewport: { width: 375, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      storageState: await context.storageState(),
    });
    const mobile = await phone.newPage();
    for (const url of ['/console', '/console/employees', '/console/security/api', '/console/wallet']) {
      await mobile.goto(`${base}${url}`);
      expect(await mobile.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(375);
    }
    await mobile.goto(`${base}/console/employees`);
    await shots.take(mobile, 'phone-employees', { fullPage: true });
    await phone.close();
  });

  it('signs out, and the console is closed again', async () => {
    await page.goto(`${base}/console`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/console/login?signed_out=1`);
    expect(await page.locator('[role=status]').textContent()).toBe('You are signed out.');
    await page.goto(`${base}/console/settings`);
    expect(page.url()).toContain('/console/login');
  });
});
