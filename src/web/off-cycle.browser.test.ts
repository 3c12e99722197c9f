// New off-cycle run in chromium: from the payroll page, a bonus for one employee, then the run page
// lists the item under the employee and says what kind of run it is; neither page scrolls sideways
// on a 390-pixel phone (the whole console is also checked by console-layout.browser.test.ts).
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

describeInBrowser('New off-cycle run in chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base, port });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const company = await createCompany(ctx.db, { name: 'Acme Foods' });
    adminEmail = (await createAdmin(ctx.db, company.id, { firstName: 'Ada', lastName: 'Maker' })).email;
    await createUsers(ctx.db, company.id, [
      { firstName: 'Chidi', lastName: 'Okafor', baseSalary: '300000.00' },
      { firstName: 'Ngozi', lastName: 'Eze', baseSalary: '250000.00' },
    ]);
    browser = await sharedBrowser();
  }, 180_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('pays one employee a bonus and shows the item on the run page', async () => {
    const page = await signedIn(1280, 900);
    await page.goto(`${base}/console/payroll`);
    await page.getByRole('link', { name: 'New off-cycle run' }).click();
    await page.waitForURL(`${base}/console/payroll/off-cycle/new`);
    await page.getByLabel('Reason').selectOption('bonus');
    await page.getByLabel('Payment date').fill('2026-12-18');
    await page.getByLabel('Item type for Chidi Okafor').selectOption('bonus');
    await page.getByLabel('Amount for Chidi Okafor').fill('75,000');
    await page.getByLabel('Description for Chidi Okafor').fill('Year-end bonus');
    await page.getByRole('button', { name: 'Create draft off-cycle run' }).click();
    await page.waitForURL(/\/console\/payroll\/PR-[\w-]+\?done=off_cycle_created$/);
    expect(await page.locator('[data-run-kind]').textContent()).toBe('Off-cycle: bonus');
    expect(await page.locator('[data-run-status]').textContent()).toBe('Draft');
    const items = page.getByRole('list', { name: 'Pay items' });
    expect(await items.count()).toBe(1);
    expect(await items.textContent()).toBe('Bonus: ₦75,000.00 (Year-end bonus)');
    expect(await page.locator('tbody tr').filter({ hasText: 'Chidi Okafor' }).count()).toBe(1);
    expect(await page.locator('tbody tr').filter({ hasText: 'Ngozi Eze' }).count()).toBe(0);
    await page.context().close();
  });

  it('neither the form nor the run page scrolls sideways at 390 pixels', async () => {
    const page = await signedIn(390, 844);
    await page.goto(`${base}/console/payroll/off-cycle/new`);
    expect(await scrollsSideways(page)).toBe(false);
    await page.goto(`${base}/console/payroll`);
    expect(await scrollsSideways(page)).toBe(false);
    await page.locator('tbody a').first().click();
    await page.waitForURL(/\/console\/payroll\/PR-/);
    expect(await page.locator('[data-run-kind]').textContent()).toBe('Off-cycle: bonus');
    expect(await scrollsSideways(page)).toBe(false);
    await page.context().close();
  });
});
