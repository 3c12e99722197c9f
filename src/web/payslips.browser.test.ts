// A payslip opened in chromium through its signed link, as an employee would from the e-mail: the
// server answers the PDF inline, no session or token. Debian's headless chromium shows it in its
// PDF viewer (screenshot viewer.png); a build without the viewer hands it over as a download, which
// is accepted too; the bytes are checked either way. Page 1 is also rendered with pdftoppm into the
// screenshot directory (printed at the end), which is what a reviewer looks at.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { createCompany, createUsers } from '../../test/helpers/factories.js';
import { paystubItem, postPaystubs } from '../../test/helpers/payroll.js';
import { setBankAccounts } from '../../test/helpers/payroll-runs.js';
import { freePort } from '../../test/helpers/ports.js';
import { createPayslipLinks } from '../modules/paystubs/index.js';

let ctx: TestContext;
let browser: Browser;
let link: string;
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'payslip-screens-'));

describeInBrowser('a payslip through its signed link in chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: base });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    const company = await createCompany(ctx.db, { name: 'Zenith Foods Ltd' });
    const [user] = await createUsers(ctx.db, company.id, [{ firstName: 'Chiamaka', lastName: 'Eze' }]);
    await setBankAccounts(ctx.db, [user.id]);
    const res = await postPaystubs(ctx.app, company, {
      paystubs: [
        paystubItem(user.id, {
          pay_period_start: '2026-03-01',
          pay_period_end: '2026-03-31',
          taxable_income: 725000,
          other_allowances: 40000,
        }),
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    link = await createPayslipLinks(base).url(ctx.db, res.json().created_paystubs[0].paystub.id);
    browser = await sharedBrowser();
  }, 120_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
    console.log(`payslip screenshots: ${shots}`);
  });

  it('opens the PDF from the link without signing in', async () => {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1000, height: 1300 } });
    const page = await context.newPage();
    const download = page.waitForEvent('download', { timeout: 15_000 }).catch(() => undefined);
    const response = await page.goto(link).catch(() => null);
    let pdf: Buffer;
    if (response) {
      // The navigation answered the PDF and chromium's viewer shows it (its page is the viewer's,
      // so the bytes are fetched again through the same browser context).
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('application/pdf');
      expect(response.headers()['content-disposition']).toMatch(/^inline; /);
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(shots, 'viewer.png') });
      const again = await page.request.get(link);
      expect(again.status()).toBe(200);
      pdf = await again.body();
    } else {
      const file = await (await download)?.path();
      expect(file, 'chromium neither showed nor downloaded the PDF').toBeTruthy();
      pdf = fs.readFileSync(file as string);
    }
    await context.close();
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = spawnSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).stdout.toString();
    expect(text).toContain('Chiamaka Eze');
    expect(text).toContain('Zenith Foods Ltd');
    expect(text).toMatch(/Net pay\s+₦[\d,]+\.\d\d/);
    fs.writeFileSync(path.join(shots, 'payslip.pdf'), pdf);
    const rendered = spawnSync('pdftoppm', ['-png', '-r', '80', '-singlefile', path.join(shots, 'payslip.pdf'), path.join(shots, 'page1')]);
    expect(rendered.status).toBe(0);
    expect(fs.statSync(path.join(shots, 'page1.png')).size).toBeGreaterThan(10_000);
  });
});
