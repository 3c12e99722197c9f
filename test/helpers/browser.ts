// Debian's chromium driven by playwright-core (never a downloaded browser build), with the flags
// this closed network needs.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { describe } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Browser tests run wherever chromium is installed (`.ci/run` installs it). */
export const hasChromium = fs.existsSync(CHROMIUM);

/**
 * A browser test file's describe: wherever chromium is installed, on the embedded database only
 * (docs/architecture.md, "How the suite stays fast"). What a browser adds (the page's script,
 * layout, forms as a person fills them) does not depend on the database; what does (every console
 * page and form, its statements and refusals) is checked on both databases by the page's in-process
 * test (`*.web.test.ts` and the route tests the console calls). CI's PostgreSQL pass ran these files
 * a second time for ~190 worker-seconds, measured 28 November.
 */
export const describeInBrowser = describe.skipIf(!hasChromium || Boolean(process.env.DATABASE_URL));

let shared: Promise<Browser> | undefined;

/**
 * One chromium per test worker, shared by the browser test files that run in it (the files share
 * their worker's modules, vitest.config.ts): a launch costs ~2 s of CPU, and each file's pages live
 * in contexts of their own. Playwright closes the browser when the worker exits. A browser that
 * crashed or was closed is launched again.
 */
export async function sharedBrowser(): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  shared = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return shared;
}

/** A file's afterAll: closes the contexts it left open, keeping the browser for the next file. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  for (const context of browser?.contexts() ?? []) await context.close();
}

/**
 * A browser file's screenshots, for a person to look at: no test compares them. They are taken only
 * when CONSOLE_SCREENSHOTS_DIR is set, into `subdirectory` of it (docs/console.md shows the console
 * cycle's, which go to the directory itself); a full-page shot cost chromium 0.2-0.5 s of CPU, and
 * the 35 the browser files took in each run went to temporary directories nobody opened
 * (docs/architecture.md, "Screenshots when asked for").
 */
export function screenshots(subdirectory?: string): {
  dir: string | undefined;
  take(page: Page, name: string, options?: { fullPage?: boolean }): Promise<void>;
} {
  const root = process.env.CONSOLE_SCREENSHOTS_DIR;
  const dir = root && subdirectory ? path.join(root, subdirectory) : root;
  return {
    dir,
    async take(page, name, options = {}) {
      if (!dir) return;
      fs.mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, `${name}.png`), ...options });
    },
  };
}
