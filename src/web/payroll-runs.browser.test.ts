// The payroll-run cycle in chromium on the sandbox provider: a maker creates a run (a chosen subset,
// one skipped), a second admin approves it signed in as themselves, Pay first meets a short wallet (the shortfall and a Top
// up link), the wallet is topped up through the sandbox checkout, Pay again, the page follows the
// paystubs' statuses by itself (the 999 account fails), the account is fixed through the API, Retry
// failed ends the run paid; another draft is cancelled.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, screenshots, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, createUsers, type TestCompany } from '../../test/helpers/factories.js';
import { setBankAccounts } from '../../test/helpers/payroll-runs.js';
import { freePort } from '../../test/helpers/ports.js';
import { ADMIN_PASSWORD, createAdmin } from '../../test/helpers/web.js';
import { nubanFor } from '../modules/banks/index.js';

let ctx: TestContext;
let base: string;
let browser: Browser;
let company: TestCompany;
let makerEmail: string;
let checkerEmail: string;
let staff: Awaited<ReturnType<typeof createUsers>>;
let maker: Page;
let checker: Page;
let runUrl: string;
const shots = screenshots('payroll-run');
const shot = (page: Page, name: string) => shots.take(page, name, { fullPage: true });

/** The job loop tests do not start: run due jobs every 200 ms while a payment is under way. */
function pumpJobs(): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void ctx.app.deps.jobs.runDue(100).finally(() => {
      busy = false;
    });
  }, 200);
  return () => clearInterval(timer);
}

async function signedIn(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  // Pay, Cancel and the like ask for confirmation through the console script: say yes.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${base}/console/login`);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
  return page;
}

const statuses = (page: Page) => page.locator('[data-paystub] .badge').allTextContents();
const runStatus = (page: Page) => page.locator('[data-run-status]').textContent();

describeInBrowser('the payroll-run cycle in chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base, walletVerifyDelaySeconds: 0, sandboxTransferDelaySeconds: 1 });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    company = await createCompany(ctx.db, { name: 'Zenith Foods Ltd' });
    makerEmail = (await createAdmin(ctx.db, company.id, { firstName: 'Amaka', lastName: 'Maker' })).email;
    checkerEmail = (await createAdmin(ctx.db, company.id, { firstName: 'Bayo', lastName: 'Checker' })).email;
    staff = await createUsers(ctx.db, company.id, [
      { firstName: 'Chidi', lastName: 'Okafor', baseSalary: '450000.00' },
      { firstName: 'Ngozi', lastName: 'Adebayo', baseSalary: '380000.50' },
      { firstName: 'Tunde', lastName: 'Rejected', baseSalary: '300000.00' },
      { firstName: 'Bola', lastName: 'Unsalaried', baseSalary: '0.00' },
    ]);
    await setBankAccounts(ctx.db, [staff[0].id, staff[1].id, staff[3].id]);
    await setBankAccounts(ctx.db, [staff[2].id], '9990001234');
    browser = await sharedBrowser();
    maker = await signedIn(makerEmail);
    checker = await signedIn(checkerEmail);
  }, 180_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
    if (shots.dir) console.log(`payroll-run screenshots: ${shots.dir}`);
  });

  it('creates a draft run for chosen employees and previews its totals and skipped list', async () => {
    await maker.getByRole('link', { name: 'Payroll', exact: true }).click();
    await maker.getByRole('link', { name: 'New run' }).click();
    await maker.getByLabel('Pay period start').fill('2026-09-01');
    await maker.getByLabel('Pay period end').fill('2026-09-30');
    await maker.getByLabel('Payment date').fill('2026-09-28');
    await maker.getByLabel('Only the employees ticked below').check();
    for (const name of ['Chidi Okafor', 'Ngozi Adebayo', 'Tunde Rejected', 'Bola Unsalaried']) await maker.getByLabel(name).check();
    await shot(maker, 'new-run');
    await maker.getByRole('button', { name: 'Create draft run' }).click();
    await maker.waitForURL(/\/console\/payroll\/PR-\d{8}-[A-Z0-9]{6}\?done=created$/);
    runUrl = maker.url().replace(/\?.*$/, '');
    expect(await maker.locator('[role=status]').textContent()).toContain('Draft run created.');
    expect(await runStatus(maker)).toBe('Draft');
    expect(await maker.locator('#run-totals').textContent()).toBe('Totals (3 employees)');
    expect(await maker.locator('table[aria-labelledby=skipped] tbody tr').count()).toBe(1);
    expect(await maker.locator('table[aria-labelledby=skipped] tbody').textContent()).toContain(`Bola UnsalariedUser ${staff[3].id}`);
    expect(await statuses(maker)).toEqual(['Unpaid', 'Unpaid', 'Unpaid']);
    await shot(maker, 'draft-preview');
    // Maker-checker: the maker is offered no approval, and cannot approve on a colleague's behalf.
    expect(await maker.locator('#next-step + p').textContent()).toContain('You created this run, so another administrator must approve it');
    expect(await maker.getByRole('button', { name: 'Approve run' }).count()).toBe(0);
  });

  it('is approved by a second admin, signed in as themselves; Pay on a short wallet shows the shortfall and a Top up link', async () => {
    await checker.goto(runUrl);
    await checker.getByRole('button', { name: 'Approve run' }).click();
    await checker.waitForURL(`${runUrl}?done=approved`);
    expect(await runStatus(checker)).toBe('Approved');
    expect(await checker.locator('dl.facts').first().textContent()).toContain(`by ${checkerEmail} (in the console)`);
    expect(await checker.locator('[data-wallet-balance]').textContent()).toBe('₦0.00');
    expect(await checker.locator('[data-shortfall]').textContent()).toContain('short of the run');

    // Post/Redirect/Get: the refusal is a redirect to the run page, which says why beside the shortfall.
    await checker.getByRole('button', { name: 'Pay now' }).click();
    await checker.waitForURL(`${runUrl}?notice=short_balance`);
    const alert = checker.locator('[role=alert]');
    expect(await alert.textContent()).toContain('Insufficient wallet balance. Nothing was paid');
    const shortBox = checker.locator('[data-shortfall]');
    expect(await shortBox.textContent()).toMatch(/The wallet is ₦[\d,]+\.\d\d short of the run's net pay\./);
    expect(await runStatus(checker)).toBe('Approved');
    await shot(checker, 'short-balance');

    // Top up follows the link (the shortfall prefilled), through the sandbox checkout.
    await shortBox.getByRole('link', { name: 'Top up the wallet' }).click();
    await checker.waitForURL(/\/console\/wallet\?amount=/);
    expect(Number(await checker.getByLabel('Amount in naira').inputValue())).toBeGreaterThan(0);
    await checker.getByLabel('Amount in naira').fill('5,000,000');
    await checker.getByRole('button', { name: 'Top up' }).click();
    await checker.waitForURL(/\/sandbox\/checkout\/WT-/);
    await checker.getByRole('button', { name: /Pay/ }).click();
    await checker.waitForURL(/\/console\/wallet\?reference=WT-/);
    await ctx.app.deps.jobs.runDue();
    await checker.goto(runUrl);
    expect(await checker.locator('[data-wallet-balance]').textContent()).toBe('₦5,000,000.00');
    expect(await checker.locator('[data-shortfall]').count()).toBe(0);
  });

  it('pays: the page follows the statuses by itself; the 999 account fails', async () => {
    await checker.getByRole('button', { name: 'Pay now' }).click();
    await checker.waitForURL(`${runUrl}?done=paying`);
    expect(await runStatus(checker)).toBe('Processing');
    expect(await checker.getByRole('link', { name: 'Refresh' }).count()).toBe(1);
    expect(await statuses(checker)).toEqual(['Processing', 'Processing', 'Processing']);
    await shot(checker, 'processing');
    // The page asks the run's status JSON by itself while the run is processing.
    const polled = await checker.waitForResponse((response) => response.url() === `${runUrl}/status`);
    expect((await polled.json()).status).toBe('processing');
    const stop = pumpJobs();
    try {
      // The script polls every 2 s, updates the badges, and loads the finished page.
      // The finished page carries done=settled: its notice says the payment finished.
      await checker.waitForURL(`${runUrl}?done=settled`, { timeout: 60_000 });
      expect(await runStatus(checker)).toBe('Partially paid');
      expect(await checker.getByText('Payment finished:').count()).toBe(1);
    } finally {
      stop();
    }
    expect((await statuses(checker)).sort()).toEqual(['Failed', 'Paid', 'Paid']);
    expect(await checker.locator(`[data-paystub]:has(.badge.bad) .reason`).textContent()).toContain('Sandbox: account rejected.');
    expect(await checker.getByRole('button', { name: 'Retry failed paystubs' }).count()).toBe(1);
    await shot(checker, 'partially-paid');
  });

  it('retries the failed paystub after its account is fixed through the API, until the run is paid', async () => {
    const fixed = await fetch(`${base}/api/users/${staff[2].id}`, {
      method: 'PUT',
      headers: { ...company.auth, 'content-type': 'application/json' },
      // A valid NUBAN at a known bank (Access Bank, 044): the run pays only those.
      body: JSON.stringify({ bank_code: '044', account_number: nubanFor('044', '012345678') }),
    });
    expect(fixed.status).toBe(200);
    // The account changed after approval: a person approves the new account before the retry sends
    // to it (docs/payroll-runs.md, "Payment destinations").
    await checker.goto(runUrl);
    await checker.getByRole('heading', { name: 'Approve new bank accounts' }).waitFor();
    await checker.getByRole('button', { name: 'Approve run' }).click();
    await checker.waitForURL(`${runUrl}?done=approved`);
    await checker.getByRole('button', { name: 'Retry failed paystubs' }).click();
    await checker.waitForURL(`${runUrl}?done=retrying`);
    expect(await runStatus(checker)).toBe('Processing');
    const stop = pumpJobs();
    try {
      // The finished page carries done=settled: its notice says the payment finished.
      await checker.waitForURL(`${runUrl}?done=settled`, { timeout: 60_000 });
    } finally {
      stop();
    }
    expect(await runStatus(checker)).toBe('Paid');
    expect(await statuses(checker)).toEqual(['Paid', 'Paid', 'Paid']);
  });

  it('cancels another draft run, and the list shows each run with its status', async () => {
    await maker.goto(`${base}/console/payroll/new`);
    await maker.getByLabel('Pay period start').fill('2026-10-01');
    await maker.getByLabel('Pay period end').fill('2026-10-31');
    await maker.getByLabel('Payment date').fill('2026-10-28');
    await maker.getByRole('button', { name: 'Create draft run' }).click();
    await maker.waitForURL(/\?done=created$/);
    expect(await runStatus(maker)).toBe('Draft');
    await maker.getByRole('button', { name: 'Cancel run' }).click();
    await maker.waitForURL(/\?done=cancelled$/);
    expect(await runStatus(maker)).toBe('Cancelled');
    expect(await statuses(maker)).toContain('Cancelled');

    await maker.getByRole('link', { name: 'Payroll', exact: true }).click();
    expect(await maker.locator('tbody .badge').allTextContents()).toEqual(['Cancelled', 'Paid']);
    await shot(maker, 'runs');
    // No page of the cycle scrolls sideways on a desktop.
    expect(await maker.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  });
});
