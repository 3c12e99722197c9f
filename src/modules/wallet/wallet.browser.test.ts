// The sandbox checkout in a real browser (playwright-core + Debian's chromium): W1 on a really
// listening app, open the checkout URL, click Pay, land on the merchant's page, poll W2 to success.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../../test/helpers/browser.js';
import { createCompany, type TestCompany } from '../../../test/helpers/factories.js';
import { freePort } from '../../../test/helpers/ports.js';
import { makeVerifyJobsDue } from '../../../test/helpers/wallet.js';

let ctx: TestContext;
let base: string;
let merchant: http.Server;
let merchantBase: string;
let browser: Browser;
let company: TestCompany;

// Never skipped where chromium is installed: the brief's browser check must really run.
describeInBrowser('sandbox checkout in a real browser', () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ paymentProvider: 'sandbox', publicUrl: base, walletVerifyDelaySeconds: 120 });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    // The company's own "thank you" page, on an authorized host.
    merchant = http.createServer((req, res) => {
      const reference = new URL(req.url ?? '/', 'http://x').searchParams.get('reference') ?? '';
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><title>Back at the shop</title><h1>Thank you</h1><p id="ref">${reference.replace(/[^\w-]/g, '')}</p></html>`,
        );
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    merchantBase = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    company = await createCompany(ctx.db, { redirectDomains: ['127.0.0.1'] });
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await new Promise<void>((resolve) => (merchant ? merchant.close(() => resolve()) : resolve()));
    await ctx?.close();
  });

  async function api(path: string, init: RequestInit = {}) {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: company.auth.authorization, 'content-type': 'application/json', ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function pollStatus(reference: string, want: string): Promise<Record<string, unknown>> {
    let last: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) {
      await makeVerifyJobsDue(ctx.db);
      await ctx.app.deps.jobs.runDue(100);
      last = (await api(`/api/wallet/transaction/status?transaction_reference=${reference}`)).body;
      if (last.transaction_status === want) return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return last;
  }

  it('Pay: redirects to the merchant with the reference and W2 reaches success', async () => {
    const created = await api('/api/wallet/top-up', {
      method: 'POST',
      body: JSON.stringify({ amount: 12345.67, customer_email: 'payer@shop.test', redirect_url: `${merchantBase}/done?order=42` }),
    });
    expect(created.status).toBe(200);
    const { checkoutUrl, transactionReference } = created.body as { checkoutUrl: string; transactionReference: string };
    expect(checkoutUrl.startsWith(`${base}/sandbox/checkout/${transactionReference}?secret=`)).toBe(true);

    const page = await browser.newPage();
    await page.goto(checkoutUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Sandbox checkout');
    expect(await page.textContent('main')).toContain('₦12,345.67');
    await page.getByRole('button', { name: 'Pay ₦12,345.67' }).click();
    await page.waitForURL(`${merchantBase}/done?order=42&reference=${transactionReference}`);
    expect(await page.textContent('#ref')).toBe(transactionReference);
    await page.close();

    const final = await pollStatus(transactionReference, 'success');
    expect(final).toMatchObject({
      status: 'success',
      transaction_status: 'success',
      transaction: { transaction_reference: transactionReference, amount: 12345.67, status: 'success', type: 'top_up' },
    });
    expect((await api('/api/wallet/balance')).body).toEqual({
      status: 'success',
      balance: 12345.67,
      currency: 'NGN',
      sandbox_balance: 12345.67,
    });
  });

  it('Cancel: redirects back and W2 reaches failed, with no credit', async () => {
    const created = await api('/api/wallet/top-up', {
      method: 'POST',
      body: JSON.stringify({ amount: 500, customer_email: 'payer@shop.test', redirect_url: `${merchantBase}/done` }),
    });
    const { checkoutUrl, transactionReference } = created.body as { checkoutUrl: string; transactionReference: string };
    const page = await browser.newPage();
    await page.goto(checkoutUrl);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${merchantBase}/done?reference=${transactionReference}`);
    // Back on the checkout link: the page now says the payment is closed and offers no buttons.
    await page.goto(checkoutUrl);
    expect(await page.getByRole('button').count()).toBe(0);
    await page.close();
    expect((await pollStatus(transactionReference, 'failed')).transaction_status).toBe('failed');
    expect((await api('/api/wallet/balance')).body.balance).toBe(12345.67);
  });
});
