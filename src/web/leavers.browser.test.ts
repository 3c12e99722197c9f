// Terminate and Reinstate in a real browser (playwright-core + Debian's chromium) on a listening app
// (docs/console.md, "Overview pages"): from the employee page through the form and the confirm step
// to the notice, the Exited badge and filter of the employees list, then Reinstate through the
// browser's confirm prompt.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, createUsers } from '../../test/helpers/factories.js';
import { freePort } from '../../test/helpers/ports.js';
import { ADMIN_PASSWORD, createAdmin } from '../../test/helpers/web.js';
import { lagosDate } from '../platform/format.js';

let ctx: TestContext;
let base: string;
let browser: Browser;
let page: Page;
let employeeId: number;
let adminEmail: string;

const yesterday = () => new Date(Date.parse(`${lagosDate()}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

// Never skipped where chromium is installed (CI installs it). Generous timeouts: the machine is shared.
describeInBrowser('Terminate and Reinstate in chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const company = await createCompany(ctx.db, { name: 'Browser Leavers Ltd' });
    adminEmail = (await createAdmin(ctx.db, company.id, { roles: ['super-admin'] })).email;
    [{ id: employeeId }] = await createUsers(ctx.db, company.id, [{ firstName: 'Kunle', lastName: 'Adebayo' }]);
    browser = await sharedBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    await page.goto(`${base}/console/login`);
    await page.getByLabel('E-mail address').fill(adminEmail);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/console') && !url.pathname.endsWith('/login'));
  }, 120_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('terminates from the employee page: form, confirm step, notice', async () => {
    await page.goto(`${base}/console/employees/${employeeId}/statutory`);
    await page.getByRole('link', { name: 'Terminate…' }).click();
    await page.getByLabel('Last day of employment').fill(yesterday());
    await page.getByLabel('Reason').selectOption('redundancy');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm the exit of Kunle Adebayo' }).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Terminate Kunle Adebayo' }).click();
    await page.waitForURL(`${base}/console/employees/${employeeId}/statutory?done=terminated`);
    expect(await page.getByRole('status').textContent()).toContain('Exit recorded.');
    expect(await page.locator('#employment-heading + p').textContent()).toContain(`Last day ${yesterday()} (Redundancy)`);
  });

  it('the employees list shows Exited, and its status filter finds them', async () => {
    await page.goto(`${base}/console/employees`);
    await page.getByLabel('Status').selectOption('exited');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator('tbody tr', { hasText: 'Kunle Adebayo' });
    expect(await row.locator('.badge').first().textContent()).toBe('Exited');
    expect(await page.locator('tbody tr').count()).toBe(1);
  });

  it('reinstates after the browser asks to confirm', async () => {
    await page.goto(`${base}/console/employees/${employeeId}/statutory`);
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Reinstate' }).click();
    await page.waitForURL(`${base}/console/employees/${employeeId}/statutory?done=reinstated`);
    expect(await page.getByRole('status').textContent()).toContain('Exit undone');
    await expect(page.getByRole('link', { name: 'Terminate…' }).isVisible()).resolves.toBe(true);
  });
});
