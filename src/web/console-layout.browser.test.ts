// A first run in chromium: PUBLIC_URL unset, the demo data of `npm start`, sign-in at
// http://127.0.0.1:<port> (the address README names), then every console page from the web routes
// at 1280 and 390 pixels: no page may scroll sideways (wide tables scroll inside their card), and
// the payroll run shows its Net pay column on a desktop screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { freePort } from '../../test/helpers/ports.js';
import { webhookTestConfig } from '../../test/helpers/webhooks.js';
import { type DemoSeed, seedDemo } from '../seed.js';

let ctx: TestContext;
let base: string;
let browser: Browser;
let demo: DemoSeed;
let employeeId: string;
let onboardingToken: string;
let endpointId: number;
let invoiceId: string;

/** Every GET path the app serves under /console and /onboarding, read from its route tree. */
function consoleRoutes(tree: string): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    const path = `${stack.at(-1) ?? ''}${match[2]}`.replace(/\/{2,}/g, '/');
    stack.push(path);
    if (match[3]?.includes('GET') && /^\/(console|onboarding)\b/.test(path) && !path.includes('/assets/')) paths.push(path);
  }
  return [...new Set(paths)];
}

/** Real values for the route parameters; an unknown parameter fails the test, so a new page is never skipped. */
function sample(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    // :file of /console/compliance/:file: the downloads are attachments, so the page checked is its 404 page.
    const id = path.startsWith('/console/developers/webhooks/')
      ? String(endpointId)
      : path.startsWith('/console/invoices/')
        ? invoiceId
        : employeeId;
    // :action of /console/invoices/:id/:action: the approval's confirmation page.
    const value = { transactionId: demo.transactionId, token: onboardingToken, id, file: 'no-such-schedule', action: 'approve' }[name];
    if (!value) throw new Error(`no sample value for :${name} in ${path}: add one so the page is checked`);
    return encodeURIComponent(value);
  });
}

async function signIn(page: Page) {
  await page.goto(`${base}/console/login`);
  await page.getByLabel('E-mail address').fill(demo.adminEmail);
  await page.getByLabel('Password').fill(demo.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
}

describeInBrowser('a first run in chromium, PUBLIC_URL unset', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // publicUrl: undefined is "PUBLIC_URL unset" (the test helper otherwise sets one).
    // Webhooks to a local address, so the Webhooks page has an endpoint with a long URL and a failed delivery.
    ctx = await createTestApp({ ...webhookTestConfig, publicUrl: undefined, port, walletVerifyDelaySeconds: 0 });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    demo = (await seedDemo(ctx.app)) as DemoSeed;
    const people = (await ctx.app.services.users.users.list(demo.companyId, { count: 1000 })).Resources;
    onboardingToken = people.find((user) => user.onboarding_token)?.onboarding_token as string;
    employeeId = String(people[0].id);
    const { endpoints } = ctx.app.services.webhooks;
    const created = await endpoints.create(
      demo.companyId,
      { url: `http://127.0.0.1:9/webhooks/payroll-console/receiver-with-a-rather-long-path-name?tenant=${'x'.repeat(60)}`, events: ['*'] },
      { via: 'console' },
    );
    endpointId = created.endpoint.id;
    invoiceId = (await ctx.app.services.invoices.invoices.awaitingApproval(demo.companyId, 1))[0].transaction_id;
    await endpoints.test(demo.companyId, endpointId);
    await ctx.app.services.webhooks.deliveries.drain();
    browser = await sharedBrowser();
  }, 180_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('signs in at 127.0.0.1 with the printed credentials, and tops up the wallet', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page);
    expect(await page.locator('h1').textContent()).toBe('Overview');
    // A wallet with entries, so its tables are populated too.
    await page.goto(`${base}/console/wallet`);
    await page.getByLabel('Amount in naira').fill('5,000,000');
    await page.getByRole('button', { name: 'Top up' }).click();
    await page.waitForURL(/\/sandbox\/checkout\/WT-/);
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.waitForURL(/\/console\/wallet\?reference=WT-/);
    await ctx.app.deps.jobs.runDue();
    await context.close();
  });

  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ]) {
    it(`no console page scrolls sideways at ${width} pixels`, async () => {
      const context = await browser.newContext({
        viewport: { width, height },
        isMobile: width < 600,
        deviceScaleFactor: width < 600 ? 2 : 1,
      });
      const page = await context.newPage();
      await signIn(page);
      const paths = consoleRoutes(ctx.app.printRoutes({ commonPrefix: false, method: 'GET' }));
      expect(paths).toEqual(expect.arrayContaining(['/console/employees', '/console/payroll/:transactionId', '/onboarding/:token']));
      const overflowing: string[] = [];
      for (const path of [...paths.map(sample), '/console/no-such-page']) {
        // Downloads (a run's payslips ZIP, a payslip PDF) are files, not pages: nothing to lay out.
        const download = await page.goto(`${base}${path}`).then(
          () => false,
          (error: Error) => {
            if (/Download is starting/.test(error.message)) return true;
            throw error;
          },
        );
        if (download) continue;
        // clientWidth, not innerWidth: innerWidth includes a vertical scrollbar's width, so a page
        // wider than its visible area by less than that went unnoticed.
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        if (scrollWidth > clientWidth) overflowing.push(`${path}: ${scrollWidth} > ${clientWidth}`);
      }
      expect(overflowing).toEqual([]);

      // The run's table (the widest, 24 paystubs) fits a desktop screen whole, Net pay included,
      // and scrolls inside its card on a phone.
      await page.goto(`${base}/console/payroll/${demo.transactionId}`);
      expect(await page.locator('tbody tr').count()).toBeGreaterThan(20);
      const net = await page.evaluate(() => {
        const header = [...document.querySelectorAll('th')].find((th) => th.textContent === 'Net pay') as HTMLElement;
        const wrap = header.closest('.table-wrap') as HTMLElement;
        return {
          right: header.getBoundingClientRect().right,
          wrapRight: wrap.getBoundingClientRect().right,
          scrolls: wrap.scrollWidth > wrap.clientWidth,
        };
      });
      if (width >= 1280) {
        expect(net.right).toBeLessThanOrEqual(net.wrapRight);
        expect(net.scrolls).toBe(false);
      } else expect(net.scrolls).toBe(true);
      await context.close();
    });
  }
});
