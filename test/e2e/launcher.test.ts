/**
 * `<loyalty-launcher>` from the built script tag (dist/, as a merchant uploads it) on a static page
 * under a strict Content-Security-Policy, in Chromium: the page never moves, the panel's code waits for
 * the shopper's intent, and the whole journey happens inside the panel: sign-in through the sandbox's
 * Connect, a coupon claimed from the offers, listed with its code, gone after sign-out. Needs a build
 * (`npm run test:e2e` builds first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { saveScreenshot, signInOnPopup, useE2eStack } from '../support/e2e.ts';

const stack = useE2eStack({
  staticSites: { shop: { strictCsp: true } },
  app: { name: 'Launcher shop', redirectPaths: { shop: ['/dist/callback.html'] } },
});

/**
 * The page's cumulative layout shift from its start, as CLS counts it (a shift just after the shopper's
 * input is not counted), with the nodes that moved, for the assertion's message.
 */
function layoutShift(page: Page): Promise<{ total: number; moved: string[] }> {
  return page.evaluate(
    () =>
      new Promise<{ total: number; moved: string[] }>((resolve) => {
        let total = 0;
        const moved: string[] = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            hadRecentInput: boolean;
            sources: { node?: Node | null }[];
          }[]) {
            if (entry.hadRecentInput) continue;
            total += entry.value;
            for (const source of entry.sources)
              moved.push((source.node as Element | null)?.localName ?? String(source.node?.nodeName));
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve({ total, moved }), 500);
      }),
  );
}

describe('the launcher from the script tag', () => {
  it('moves nothing, loads its panel on intent, and signs in, claims and signs out inside the panel', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors: string[] = [];
    const fetched: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${stack.sites.shop.origin}/launcher.html`);
      const launcher = page.locator('loyalty-launcher');
      const button = launcher.locator('[part~="button"][aria-haspopup="dialog"]');
      await button.filter({ hasText: 'Rewards' }).waitFor();
      assert.deepEqual(await layoutShift(page), { total: 0, moved: [] }, 'the launcher never moves the page');
      const panelCode = () => fetched.filter((path) => /launcher-panel-.*\.js$/.test(path));
      assert.deepEqual(panelCode(), [], 'no panel code before intent');
      assert.equal(
        fetched.some((path) => path.includes('/graphql') || path.includes('/api/marketing')),
        false,
        'no data before intent',
      );

      await button.hover();
      await page.waitForFunction(() => document.querySelector('loyalty-launcher')?.shadowRoot?.querySelector('dialog'));
      assert.equal(panelCode().length, 1, 'pointing at the button loads the panel');

      await button.focus();
      await page.keyboard.press('Enter');
      const dialog = launcher.locator('dialog[open]');
      await dialog.waitFor();
      await saveScreenshot(page, 'launcher-open-1280');

      const popupOpened = page.waitForEvent('popup');
      await launcher.getByRole('button', { name: 'Sign in with your loyalty wallet' }).click();
      await signInOnPopup(await popupOpened);
      await launcher.locator('[part~="user"]').filter({ hasText: 'Signed in as demo' }).waitFor();

      const claim = launcher.locator('campaign-carousel coupon-claim').first();
      await claim.getByRole('button', { name: 'Get coupon' }).click();
      const code = (await claim.locator('[part~="code"]').textContent())?.trim();
      assert.ok(code, 'a code');
      const listed = launcher.locator('[part~="coupon-list"] coupon-claim [part~="code"]');
      await listed.filter({ hasText: code }).waitFor();

      await launcher.getByRole('button', { name: 'Sign out' }).click();
      await launcher.getByRole('button', { name: 'Sign in with your loyalty wallet' }).waitFor();
      assert.equal(await launcher.locator('[part~="coupon-list"]').count(), 0, 'the list is gone at sign-out');

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' }).catch(() => undefined);
      assert.equal(await launcher.locator('dialog[open]').count(), 0);
      assert.deepEqual(await layoutShift(page), { total: 0, moved: [] }, 'using it moved nothing in the page');
      const violations = await page.evaluate(
        () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
      );
      assert.deepEqual(violations, []);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
