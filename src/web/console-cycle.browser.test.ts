// The month of a new employer, in chromium, through the console only (docs/console.md, "A month in
// the console, step by step"): sign in → invite a second administrator → they set a password through the
// onboarding link and sign in → add an employee with a verified bank account → create a run → the
// second administrator approves → top up on the sandbox → pay → watch it settle → download the
// payslips and the PAYE schedule → register a webhook → generate a token with two chosen scopes.
// The app runs as `npm start` runs it: listening, with its job loop started; no step calls /api.
// Screenshots of each step go to CONSOLE_SCREENSHOTS_DIR when set (docs/console.md shows them,
// made with `CONSOLE_SCREENSHOTS_DIR=docs/console-cycle npx vitest run src/web/console-cycle.browser.test.ts`);
// none are taken otherwise (test/helpers/browser.ts, `screenshots`).
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, screenshots, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, type TestCompany } from '../../test/helpers/factories.js';
import { freePort } from '../../test/helpers/ports.js';
import { ADMIN_PASSWORD, createAdmin } from '../../test/helpers/web.js';
import { type Receiver, startReceiver, webhookTestConfig } from '../../test/helpers/webhooks.js';
import { nubanFor } from '../modules/banks/index.js';
import { revokeTokens } from '../platform/auth/tokens.js';

const SECOND_PASSWORD = 'Second-Approver-2026!';
const shots = screenshots();

let ctx: TestContext;
let base: string;
let browser: Browser;
let company: TestCompany;
let firstEmail: string;
let receiver: Receiver;
const contexts: BrowserContext[] = [];
let first: Page;
let second: Page;
let onboardingLink: string;
let runUrl: string;
let paymentMonth: string;

const shot = (page: Page, name: string) => shots.take(page, name);
const runStatus = (page: Page) => page.locator('[data-run-status]').textContent();

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  context.setDefaultTimeout(30_000);
  contexts.push(context);
  const page = await context.newPage();
  // Pay, Remove and the like ask through the console script: say yes.
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
}

async function download(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync((await file.path()) as string) };
}

describeInBrowser("a new employer's month, in the console only", { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    receiver = await startReceiver();
    ctx = await createTestApp({
      ...webhookTestConfig,
      publicUrl: base,
      walletVerifyDelaySeconds: 0,
      sandboxTransferDelaySeconds: 1,
      jobPollMs: 200,
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    ctx.app.deps.jobs.start();
    // As onboarding leaves a company: one super admin with a password (not on the payroll), no token.
    company = await createCompany(ctx.db, { name: 'Zenith Foods Ltd' });
    firstEmail = (
      await createAdmin(ctx.db, company.id, { firstName: 'Amaka', lastName: 'Eze', roles: ['super-admin'], baseSalary: '0.00' })
    ).email;
    await revokeTokens(ctx.db, company.id);
    ctx.app.deps.authCache.clear();
    browser = await sharedBrowser();
    first = await newPage();
    second = await newPage();
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await releaseBrowser(browser);
    await ctx?.close();
    await receiver?.close();
    if (shots.dir) console.log(`console cycle screenshots: ${shots.dir}`);
  });

  it('signs in and invites a second administrator, whose onboarding link is shown (no SMTP)', async () => {
    await first.goto(`${base}/console/login`);
    await shot(first, '01-sign-in');
    await signIn(first, firstEmail, ADMIN_PASSWORD);
    await first.getByRole('link', { name: 'Administrators' }).click();
    await first.getByLabel('First name').fill('Bayo');
    await first.getByLabel('Last name').fill('Adeyemi');
    await first.getByLabel(/^E-mail address/).fill('bayo.adeyemi@personal.test');
    await first.getByLabel('Role').selectOption('admin');
    await first.getByRole('button', { name: 'Send invitation' }).click();
    onboardingLink = (await first.locator('#onboarding-link').textContent()) as string;
    expect(onboardingLink).toMatch(new RegExp(`^${base}/onboarding/[\\w-]{32,}$`));
    expect(await first.locator('table').textContent()).toContain('Bayo Adeyemi');
    await shot(first, '02-administrator-invited');
  });

  it('the second administrator sets a password through the link and signs in', async () => {
    await second.goto(onboardingLink);
    await second.getByLabel('New password').fill(SECOND_PASSWORD);
    await second.getByLabel('Repeat the password').fill(SECOND_PASSWORD);
    await shot(second, '03-onboarding');
    await second.getByRole('button', { name: 'Set password and activate my account' }).click();
    await second.getByRole('heading', { name: 'You are all set' }).waitFor();
    await second.getByRole('link', { name: 'sign in to the console' }).click();
    await signIn(second, 'bayo.adeyemi@personal.test', SECOND_PASSWORD);
    expect(await second.locator('h1').textContent()).toBe('Overview');
  });

  it('adds an employee whose bank account is verified before saving', async () => {
    await first.getByRole('link', { name: 'Employees', exact: true }).click();
    await first.getByRole('link', { name: 'Add employee' }).click();
    await first.getByLabel('First name').fill('Chidi');
    await first.getByLabel('Last name').fill('Okafor');
    await first.getByLabel(/^Personal e-mail/).fill('chidi.okafor@personal.test');
    await first.getByLabel(/^Start date/).fill('2026-01-05');
    await first.getByLabel(/^Base salary/).fill('450,000');
    await first.getByLabel(/^Allowances/).fill('50,000');
    await first.getByLabel('Bank', { exact: true }).selectOption('058');
    await first.getByLabel(/^Account number/).fill(nubanFor('058', '012345678'));
    await first.getByLabel(/^State of residence/).selectOption('LA');
    await first.getByRole('button', { name: 'Verify account' }).click();
    const verified = first.locator('#account-verified');
    expect(await verified.textContent()).toBe('Account name at Guaranty Trust Bank: CHIDI OKAFOR');
    await verified.scrollIntoViewIfNeeded();
    await shot(first, '04-employee-verified');
    await first.getByRole('button', { name: 'Add employee' }).click();
    await first.locator('[role=status]').waitFor();
    expect(await first.locator('[role=status]').textContent()).toMatch(/added/i);
    await first.getByRole('link', { name: 'Employees', exact: true }).click();
    expect(await first.locator('tbody').textContent()).toContain('Chidi Okafor');
    await shot(first, '05-employees');
  });

  it('creates this month’s run, which the second administrator approves', async () => {
    await first.getByRole('link', { name: 'Payroll', exact: true }).click();
    await first.getByRole('link', { name: 'New run' }).click();
    paymentMonth = (await first.getByLabel('Payment date').inputValue()).slice(0, 7);
    await first.getByRole('button', { name: 'Create draft run' }).click();
    await first.waitForURL(/\/console\/payroll\/PR-\d{8}-[A-Z0-9]{6}\?done=created$/);
    runUrl = first.url().replace(/\?.*$/, '');
    expect(await runStatus(first)).toBe('Draft');
    expect(await first.locator('#run-totals').textContent()).toBe('Totals (1 employee)');
    expect(await first.getByRole('button', { name: 'Approve run' }).count()).toBe(0);
    await shot(first, '06-draft-run');

    await second.getByRole('link', { name: 'Payroll', exact: true }).click();
    await second.getByRole('link', { name: runUrl.split('/').at(-1) as string }).click();
    await second.getByRole('button', { name: 'Approve run' }).click();
    await second.waitForURL(`${runUrl}?done=approved`);
    expect(await runStatus(second)).toBe('Approved');
    expect(await second.locator('[data-shortfall]').textContent()).toContain('short of the run');
    await shot(second, '07-approved-short');
  });

  it('tops up on the sandbox, pays, and the run page follows the payment until it settles', async () => {
    await second.locator('[data-shortfall]').getByRole('link', { name: 'Top up the wallet' }).click();
    await second.waitForURL(/\/console\/wallet\?amount=/);
    await second.getByLabel('Amount in naira').fill('1,000,000');
    await second.getByRole('button', { name: 'Top up' }).click();
    await second.waitForURL(/\/sandbox\/checkout\/WT-/);
    await shot(second, '08-sandbox-checkout');
    await second.getByRole('button', { name: /Pay/ }).click();
    await second.waitForURL(/\/console\/wallet\?reference=WT-/);
    // The sandbox credits as soon as the checkout is paid; the page reloads itself while it is pending.
    await expect.poll(() => second.locator('#balance-heading + .figure').textContent(), { timeout: 30_000 }).toBe('₦1,000,000.00');
    await shot(second, '09-wallet');

    await second.goto(runUrl);
    await second.getByRole('button', { name: 'Pay now' }).click();
    await second.waitForURL(`${runUrl}?done=paying`);
    await shot(second, '10-processing');
    // The page polls the run's status and loads the finished page by itself; the job loop pays.
    await second.waitForURL(`${runUrl}?done=settled`, { timeout: 60_000 });
    expect(await runStatus(second)).toBe('Paid');
    expect(await second.locator('[data-paystub] .badge').allTextContents()).toEqual(['Paid']);
    await shot(second, '11-paid');
  });

  it('downloads the payslips and the month’s PAYE schedule', async () => {
    await first.goto(runUrl);
    const zip = await download(first, () => first.getByRole('link', { name: 'Download payslips' }).click());
    expect(zip.name).toMatch(/\.zip$/);
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');

    await first.getByRole('link', { name: 'Compliance' }).click();
    await first.getByLabel(/Month paid/).fill(paymentMonth);
    await first.getByRole('button', { name: 'Show' }).click();
    await first.waitForURL(new RegExp(`month=${paymentMonth}`));
    await shot(first, '12-compliance');
    const paye = await download(first, () => first.locator('[data-schedule="paye-LA"]').getByRole('link', { name: 'CSV' }).click());
    expect(paye.name).toBe(`paye-LA-${paymentMonth}.csv`);
    expect(paye.bytes.toString('utf8')).toContain('Okafor');
  });

  it('registers a webhook endpoint for two chosen events', async () => {
    await first.getByRole('link', { name: 'Developers' }).click();
    await first.getByLabel('URL (https)').fill(receiver.url('/payroll-events'));
    await first.getByLabel('payroll_run.paid').check();
    await first.getByLabel('user.created').check();
    await first.getByRole('button', { name: 'Add endpoint' }).click();
    await first.getByRole('button', { name: 'Copy secret' }).waitFor();
    expect(await first.locator('main').textContent()).toContain(receiver.url('/payroll-events'));
    await shot(first, '13-webhook');
  });

  it('generates an API token with two chosen scopes', async () => {
    await first.getByRole('link', { name: 'Security' }).click();
    expect(await first.locator('input[name=scopes]:checked').count()).toBe(0);
    await first.getByLabel('users.index', { exact: true }).check();
    await first.getByLabel('payroll-runs.index', { exact: true }).check();
    await first.getByRole('button', { name: 'Generate token' }).click();
    const token = (await first.locator('#new-token').textContent()) as string;
    expect(token).toMatch(/^pk_[\w-]{43}$/);
    await shot(first, '14-token');
    // After the walk, a check from outside: the token reaches what its two scopes allow, and no more.
    const call = (url: string) => fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.status);
    expect(await call('/api/users')).toBe(200);
    expect(await call('/api/payroll-runs')).toBe(200);
    expect(await call('/api/wallet/transactions')).toBe(403);
  });
});
