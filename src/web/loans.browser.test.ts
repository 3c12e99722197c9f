// An employee's loans in chromium: from the employee page to Loans and advances, a new loan through
// its confirm step, then Settle through its own; the notices after each redirect; the page does not
// scroll sideways on a 390-pixel phone (the loans table scrolls in its own box).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, createUsers } from '../../test/helpers/factories.js';
import { freePort } from '../../test/helpers/ports.js';
import { ADMIN_PASSWORD, createAdmin } from '../../test/helpers/web.js';

let ctx: TestContext;
let base: string;
let browser: Browser;
let adminEmail: string;
let employeeId: number;

async function signedIn(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, isMobile: width < 600, deviceScaleFactor: width < 600 ? 2 : 1 });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  await page.goto(`${base}/console/login`);
  await page.getByLabel('E-mail address').fill(adminEmail);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
  return page;
}

const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describeInBrowser('Loans and advances in chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base, port });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const company = await createCompany(ctx.db, { name: 'Acme Lenders' });
    adminEmail = (await createAdmin(ctx.db, company.id, { firstName: 'Ada', lastName: 'Maker' })).email;
    [{ id: employeeId }] = await createUsers(ctx.db, company.id, [{ firstName: 'Chidi', lastName: 'Okafor', baseSalary: '300000.00' }]);
    browser = await sharedBrowser();
  }, 180_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('gives a loan through the confirm step, then settles it through its own', async () => {
    const page = await signedIn(1280, 900);
    await page.goto(`${base}/console/employees/${employeeId}/statutory`);
    await page.getByRole('link', { name: 'Loans and advances' }).click();
    await page.waitForURL(`${base}/console/employees/${employeeId}/loans`);
    await page.getByLabel('Kind').selectOption('loan');
    await page.getByLabel('Principal (₦)').fill('150000');
    await page.getByLabel('Instalment per period (₦)').fill('50000');
    await page.getByLabel('First month repaid').fill('2026-12');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#confirm-heading', { hasText: 'Confirm the loan' }).waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain('₦150,000.00');
    await page.getByRole('button', { name: 'Record it' }).click();
    await page.waitForURL(`${base}/console/employees/${employeeId}/loans?done=created`);
    expect(await page.getByRole('status').textContent()).toContain('Recorded.');
    const row = page.locator('tbody tr').first();
    expect(await row.textContent()).toContain('Active');

    await row.getByRole('button', { name: 'Settle' }).click();
    await page.locator('#confirm-heading', { hasText: /Settle loan #\d+\?/ }).waitFor();
    await page.getByRole('button', { name: 'Settle' }).click();
    await page.waitForURL(`${base}/console/employees/${employeeId}/loans?done=settled`);
    expect(await page.getByRole('status').textContent()).toContain('Loan settled');
    expect(await page.locator('tbody tr').first().textContent()).toContain('Paid off');
    await page.context().close();
  });

  it('does not scroll sideways at 390 pixels', async () => {
    const page = await signedIn(390, 844);
    await page.goto(`${base}/console/employees/${employeeId}/loans`);
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto(`${base}/console/employees/${employeeId}/year-to-date`);
    expect(await scrollsSideways(page)).toBe(false);
    await page.context().close();
  });
});
