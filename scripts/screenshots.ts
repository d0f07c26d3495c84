/**
 * `npm run screenshots`: the README's pictures of the demo shop, taken from the real demo (the
 * sandbox and the demo site, as `npm start` runs them, on free ports with a throwaway data folder)
 * in the system's Chromium (`CHROME_PATH`), wide and on a phone, once every element has loaded.
 * Writes docs/screenshots/shop-wide.png and shop-phone.png, and the same page with the launcher's panel
 * open: launcher-wide.png and launcher-phone.png.
 */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startStack } from './stack.ts';
import { CHROMIUM_ARGS } from '../test/support/engines.ts';

const OUT = 'docs/screenshots';
const VIEWS = [
  { name: 'shop-wide', width: 1280, height: 900, mobile: false },
  { name: 'shop-phone', width: 390, height: 844, mobile: true },
  { name: 'launcher-wide', width: 1280, height: 900, mobile: false, launcher: true },
  { name: 'launcher-phone', width: 390, height: 844, mobile: true, launcher: true },
] as const;

async function shoot(browser: Browser, url: string, view: (typeof VIEWS)[number]): Promise<string> {
  const context = await browser.newContext({
    viewport: { width: view.width, height: view.height },
    deviceScaleFactor: 1,
    isMobile: view.mobile,
    hasTouch: view.mobile,
    reducedMotion: 'reduce',
    colorScheme: 'light',
    locale: 'en-US',
  });
  try {
    const page = await context.newPage();
    await page.goto(url);
    // Every element loaded: the first slide, the members' coupon and the partner shops.
    await page.locator('campaign-carousel [part~="slide"] [part~="title"]').first().waitFor();
    await page.locator('coupon-claim').getByRole('button', { name: 'Sign in to get this coupon' }).waitFor();
    await page.locator('business-directory [part~="name"]').first().waitFor();
    if ('launcher' in view) {
      await page.locator('loyalty-launcher [part~="button"][aria-haspopup="dialog"]').click();
      await page
        .locator('loyalty-launcher dialog[open] campaign-carousel [part~="slide"] [part~="title"]')
        .first()
        .waitFor();
    }
    // The pictures in view decoded (in the shadow roots too; those further down load lazily), and the
    // page's fonts ready.
    // (No named function inside: tsx would wrap it in a helper the page does not have.)
    await page.waitForFunction(() => {
      const roots: (Document | ShadowRoot)[] = [document];
      const images: HTMLImageElement[] = [];
      for (let root = roots.pop(); root; root = roots.pop()) {
        images.push(...root.querySelectorAll('img'));
        for (const element of root.querySelectorAll('*')) if (element.shadowRoot) roots.push(element.shadowRoot);
      }
      const inView = images.filter((image) => {
        const box = image.getBoundingClientRect();
        return box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
      });
      return inView.every((image) => image.complete) && document.fonts.status === 'loaded';
    });
    const path = join(OUT, `${view.name}.png`);
    await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
    return path;
  } finally {
    await context.close();
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-screenshots-'));
const stack = await startStack({ connectPort: 0, marketingPort: 0, demoPort: 0, dataDir, accessLog: false });
try {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    await mkdir(OUT, { recursive: true });
    for (const view of VIEWS) {
      const path = await shoot(browser, stack.demoUrl, view);
      console.log(`${path}  ${view.width}×${view.height}  ${Math.round((await stat(path)).size / 1024)} kB`);
    }
  } finally {
    await browser.close();
  }
} finally {
  await stack.close();
  await rm(dataDir, { recursive: true, force: true });
}
