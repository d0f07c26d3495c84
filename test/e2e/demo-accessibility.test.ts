/**
 * The demo merchant site's pages, as a shopper gets them (the built script tag, the real proxy and
 * sandbox), pass axe-core with the elements loaded, at a desktop width and at 320 CSS px.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useE2eStack } from '../support/e2e.ts';
import { axeViolations } from '../support/axe.ts';

const PAGES = ['/', '/cms.html', '/theming.html', '/events.html'];

describe('the demo site’s pages are accessible', () => {
  const stack = useE2eStack({ demoSite: true });

  for (const width of [1280, 320]) {
    it(`every page at ${width}px, with its elements loaded`, async () => {
      const context = await stack.browser.newContext({ viewport: { width, height: 900 } });
      const found: string[] = [];
      try {
        const page = await context.newPage();
        for (const path of PAGES) {
          await page.goto(new URL(path.slice(1), stack.demoUrl).href);
          // Every Marketing element shows its content, its empty state or a failure.
          await page.waitForFunction(() =>
            [...document.querySelectorAll('campaign-carousel, coupon-claim, business-directory')].every((el) =>
              el.shadowRoot?.querySelector(
                '[part~="slide"], [part~="card"], [part~="claim-button"], [part~="signin-button"], [part~="empty"], [part~="error"]',
              ),
            ),
          );
          found.push(...(await axeViolations(page)).map((violation) => `${path}: ${violation}`));
        }
      } finally {
        await context.close();
      }
      assert.deepEqual(found, []);
    });
  }
});
