// /docs in chromium on a closed network: every request to a host other than the app is aborted
// and recorded, and the page must still render the reference, attempt no other host (no fonts, no
// scripts, no telemetry), and show none of the vendor's own buttons (docs/operations.md, API reference).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers/app.js';
import { describeInBrowser, releaseBrowser, sharedBrowser } from '../../test/helpers/browser.js';
import { freePort } from '../../test/helpers/ports.js';

/** The vendor's controls the page must not show (AI chat, MCP installs, hosted deploy and share, its toolbar, its credit). */
const VENDOR_TEXTS = [
  'Ask AI',
  'Generate MCP',
  'VS Code',
  'Cursor',
  'Deploy',
  'Share',
  'Configure',
  'Developer Tools',
  'Powered by Scalar',
];

/** Operation titles (summaries) from the first group, which the reference opens at first. */
// As the reference shows them: summaries without the spec codes (src/reference).
const OPERATIONS = ['List users of the target company', 'One user', 'Create a user'];

let ctx: TestContext;
let base: string;
let browser: Browser;

/** Visible elements whose own text, aria-label or title is one of `texts` (case-insensitive, whole text). */
async function visibleWithText(page: Page, texts: string[]): Promise<string[]> {
  return page.evaluate((wanted) => {
    const targets = new Set(wanted.map((text) => text.toLowerCase()));
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point: text that CSS hides must not count.
      const labels = [element.innerText, element.getAttribute('aria-label'), element.getAttribute('title')];
      const label = labels.map((text) => (text ?? '').replace(/\s+/g, ' ').trim()).find((text) => targets.has(text.toLowerCase()));
      if (label && element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) found.push(`${element.tagName}: ${label}`);
    }
    return found;
  }, texts);
}

describeInBrowser('/docs in chromium with every other host unreachable', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestApp({ publicUrl: undefined, port });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    browser = await sharedBrowser();
  }, 180_000);

  afterAll(async () => {
    await releaseBrowser(browser);
    await ctx?.close();
  });

  it('renders the operations from the app alone and shows no vendor button', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const failed: string[] = [];
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin === base) return route.continue();
      elsewhere.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    page.on('requestfailed', (request) => {
      if (new URL(request.url()).origin === base) failed.push(request.url());
    });

    const response = await page.goto(`${base}/docs`);
    expect(response?.status()).toBe(200);
    for (const title of OPERATIONS) await page.getByText(title, { exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 });
    // Whatever the page starts after rendering (fonts, telemetry, an AI chat) has been tried by now.
    await page.waitForLoadState('networkidle');

    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    expect(await visibleWithText(page, VENDOR_TEXTS)).toEqual([]);
    await context.close();
  });
});
