/**
 * No element widens or moves a merchant's page, in any font. Every demo page and every fixture page,
 * at a small phone, a phone and a desktop width, in a wide and a narrow font, is no wider than the
 * window once its elements have loaded (slides beyond the window stay inside the carousel's track,
 * with everything in them). And a page without loyalty-widgets.css whose script tag runs before
 * the first paint does not move at all while two carousels load (cumulative layout shift 0).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { useE2eStack } from '../support/e2e.ts';
import { assertDrawnIn, FONT_FAMILIES, showPagesIn, type FontFamily } from '../support/fonts.ts';

const WIDTHS = [320, 390, 1280];
const htmlIn = async (folder: string) => (await readdir(folder)).filter((file) => file.endsWith('.html')).sort();
const PAGES = [
  ...(await htmlIn('demo')).map((file) => `/demo/${file}`),
  ...(await htmlIn('test/e2e/fixtures')).map((file) => `/${file}`),
];

const shop = useE2eStack({ staticSites: { site: { demoPages: true } } });

async function openContext(width: number, font: FontFamily) {
  const context = await shop.browser.newContext({ viewport: { width, height: 800 } });
  await showPagesIn(context, font);
  return context;
}

/** Waits until every element on the page (and in the elements' shadow roots) is defined and done loading. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => {
      const roots: ParentNode[] = [document];
      for (let root = roots.pop(); root; root = roots.pop()) {
        for (const element of root.querySelectorAll('*')) {
          if (!element.localName.includes('-')) continue;
          if (!element.matches(':defined') || !element.shadowRoot) return false;
          if (element.shadowRoot.querySelector('[aria-busy="true"]')) return false;
          roots.push(element.shadowRoot);
        }
      }
      return true;
    },
    undefined,
    { timeout: 15_000 },
  );
  await page.waitForLoadState('networkidle');
}

/** How far the page reaches past the window, and the innermost elements (shadow content included) that do. */
function pageOverflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const reaching: string[] = [];
    const roots: ParentNode[] = [document];
    for (let root = roots.pop(); root; root = roots.pop()) {
      for (const element of root.querySelectorAll('*')) {
        if (element.getBoundingClientRect().right > width + 0.5) {
          reaching.push(
            `${element.localName}${element.className ? `.${String(element.className).trim().replace(/\s+/g, '.')}` : ''}`,
          );
        }
        if (element.shadowRoot) roots.push(element.shadowRoot);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, reaching: reaching.slice(-6) };
  });
}

describe('pages never get wider than the window', () => {
  for (const font of FONT_FAMILIES) {
    for (const width of WIDTHS) {
      it(`every demo and fixture page at ${width}px in ${font.family}`, async (t) => {
        const context = await openContext(width, font);
        const page = await context.newPage();
        const tooWide: string[] = [];
        try {
          for (const path of PAGES) {
            await page.goto(`${shop.sites.site.origin}${path}`);
            await settle(page);
            if (path === '/text-below.html') await assertDrawnIn(page, font);
            const { scrollWidth, width: windowWidth, reaching } = await pageOverflow(page);
            t.diagnostic(`${path}: ${scrollWidth}px wide in a ${windowWidth}px window`);
            if (scrollWidth > windowWidth)
              tooWide.push(`${path} is ${scrollWidth}px wide (reaching past the window: ${reaching.join(', ')})`);
          }
          assert.deepEqual(tooWide, [], `pages wider than the window at ${width}px in ${font.family}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});

describe('a page without the stylesheet does not move while the elements load', () => {
  for (const font of FONT_FAMILIES) {
    for (const width of [390, 1280]) {
      it(`has no layout shift at ${width}px in ${font.family}`, async (t) => {
        const context = await openContext(width, font);
        const page = await context.newPage();
        try {
          await page.addInitScript(() => {
            const shifts: PerformanceEntry[] = [];
            const observer = new PerformanceObserver((list) => void shifts.push(...list.getEntries()));
            observer.observe({ type: 'layout-shift', buffered: true });
            // Every shift of the frames drawn so far, those not yet handed to the observer included.
            (window as unknown as { layoutShifts: () => PerformanceEntry[] }).layoutShifts = () => (
              shifts.push(...observer.takeRecords()),
              shifts
            );
          });
          // The script tag arrives late, as on a slow network: the page must not paint before it runs.
          await page.route('**/dist/loyalty-widgets.js', async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            await route.fallback();
          });
          await page.goto(`${shop.sites.site.origin}/text-below.html`);
          await settle(page);
          await page.waitForFunction(() =>
            [...document.querySelectorAll('campaign-carousel')].every((carousel) =>
              carousel.shadowRoot?.querySelector('[part~="slide"]'),
            ),
          );
          // Checked once the carousels' images in the window (the others wait, lazily) and the page's
          // fonts have loaded and two frames were drawn after that: whatever still arrives late has
          // then arrived.
          await page.waitForFunction(() =>
            [...document.querySelectorAll('campaign-carousel')].every((carousel) =>
              [...carousel.shadowRoot!.querySelectorAll('img')].every((image) => {
                const box = image.getBoundingClientRect();
                const inWindow = box.bottom > 0 && box.top < innerHeight && box.right > 0 && box.left < innerWidth;
                return image.complete || !inWindow;
              }),
            ),
          );
          await page.evaluate(async () => {
            await document.fonts.ready;
            for (let frames = 0; frames < 2; frames++) await new Promise((drawn) => requestAnimationFrame(drawn));
          });
          await assertDrawnIn(page, font);
          const { shifts, heights } = await page.evaluate(() => ({
            shifts: (
              window as unknown as {
                layoutShifts: () => (PerformanceEntry & { value: number; sources: { node?: Node }[] })[];
              }
            )
              .layoutShifts()
              .map(
                (entry) =>
                  `${entry.value.toFixed(4)} (${entry.sources.map((source) => source.node?.nodeName).join(' ')})`,
              ),
            heights: [...document.querySelectorAll('campaign-carousel')].map(
              (carousel) => carousel.getBoundingClientRect().height,
            ),
          }));
          t.diagnostic(
            `carousels ${heights.join('px, ')}px high; layout shifts: ${shifts.length ? shifts.join(', ') : 'none'}`,
          );
          assert.deepEqual(shifts, [], `the page moved at ${width}px in ${font.family}`);
        } finally {
          await context.close();
        }
      });
    }
  }
});
