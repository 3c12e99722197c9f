// The Compliance page in chromium: pick a month, see the schedules with overdue due dates in red,
// download a schedule through the session, follow a missing-data link to the employee's details.
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { freePort } from '../../test/helpers/ports.js';
import { buildRemittanceWorld, type RemittanceWorld } from '../../test/helpers/remittances.js';
import { ADMIN_PASSWORD, createAdmin } from '../../test/helpers/web.js';

let ctx: TestContext;
let base: string;
let browser: Browser;
let world: RemittanceWorld;
let page: Page;

describeInBrowser('the Compliance page in chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base, sandboxTransferDelaySeconds: 0 });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    world = await buildRemittanceWorld(ctx.app, ctx.db);
    const email = (await createAdmin(ctx.db, world.company.id, { firstName: 'Cara', lastName: 'Compliance' })).email;
    browser = await sharedBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    await page.goto(`${base}/console/login`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console`);
  }, 180_000);
  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('month picker, schedules, overdue in red, a download and a missing-data link', async () => {
    await page.getByRole('link', { name: 'Compliance' }).click();
    await page.getByLabel(/Month paid/).fill('2026-03');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/month=2026-03/);
    await expect.poll(() => page.locator('[data-schedule^="paye-"]').count()).toBe(3);
    if (new Date().toISOString().slice(0, 10) > '2026-04-16') {
      const color = await page
        .locator('[data-overdue]')
        .first()
        .evaluate((node) => getComputedStyle(node).color);
      expect(color).toBe('rgb(164, 14, 38)');
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-schedule="paye-LA"]').getByRole('link', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('paye-LA-2026-03.csv');
    expect(fs.readFileSync((await download.path()) as string, 'utf8')).toContain('LIRS-55501');
    await page.getByRole('link', { name: 'Funke Ola' }).click();
    await page.waitForURL(`${base}/console/employees/${world.staff[6].id}/statutory`);
  });
});
