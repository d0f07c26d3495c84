/**
 * The script tag holds, for each element not yet defined, the space its loading skeleton then takes,
 * so a merchant's page does not jump when the elements arrive (cumulative layout shift). Checked in
 * every loading shape (carousel with and without claim, coupon with and without compact), at a phone
 * and a desktop width: the element chunks are held back while the reserved boxes are measured, and
 * the Marketing proxy never answers, so the elements stay on their skeletons afterwards.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { startStaticSite, type StaticSite } from '../support/static-site.ts';
import { launchChromium } from '../support/e2e.ts';

let sandbox: RunningSandbox;
let site: StaticSite;
let browser: Browser;
let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-reserved-'));
  sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir });
  site = await startStaticSite({
    upstreamUrl: sandbox.marketingUrl,
    apiKey: sandbox.apiKey,
    connectUrl: sandbox.connectUrl,
    replacements: { '%CONNECT_URL%': sandbox.connectUrl, '%CLIENT_ID%': sandbox.demoApp.app_id },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await sandbox?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const SHAPES = [
  'loyalty-signin-button',
  'campaign-carousel:not([claim])',
  'campaign-carousel[claim]',
  'coupon-claim:not([compact])',
  'coupon-claim[compact]',
  'business-directory',
];

function heights(page: Page): Promise<Record<string, number>> {
  return page.evaluate((shapes) => Object.fromEntries(shapes.map((shape) => [shape, document.querySelector(shape)!.getBoundingClientRect().height])), SHAPES);
}

describe('space reserved before the elements are defined', () => {
  for (const width of [390, 1280]) {
    it(`matches each loading skeleton at ${width}px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const heldChunks: Route[] = [];
      await page.route('**/dist/elements/**', (route) => void heldChunks.push(route));
      await page.route('**/api/marketing**', () => {});
      await page.goto(`${site.origin}/reserved-space.html`);
      await page.waitForFunction(() => document.adoptedStyleSheets.length > 0);
      const undefinedCount = await page.evaluate((shapes) => shapes.filter((shape) => document.querySelector(shape)!.matches(':not(:defined)')).length, SHAPES);
      assert.equal(undefinedCount, SHAPES.length, 'the element chunks were held back');
      const reserved = await heights(page);

      await page.unroute('**/dist/elements/**');
      for (const route of heldChunks) await route.continue();
      await page.waitForFunction(
        async (shapes) => {
          const elements = shapes.map((shape) => document.querySelector(shape) as Element & { updateComplete?: Promise<unknown> });
          if (!elements.every((element) => element.matches(':defined') && element.shadowRoot?.querySelector('[part~="skeleton"], [part~="button"]'))) return false;
          await Promise.all(elements.map((element) => element.updateComplete));
          return true;
        },
        SHAPES,
        { timeout: 15_000 },
      );
      const skeletons = await heights(page);
      for (const shape of SHAPES) {
        assert.ok(reserved[shape]! > 0, `${shape} reserves no space`);
        assert.ok(Math.abs(reserved[shape]! - skeletons[shape]!) <= 2, `${shape} at ${width}px: ${reserved[shape]} reserved, ${skeletons[shape]} shown`);
      }
      await context.close();
    });
  }
});
