/**
 * The whole product as a shopper and as a merchant on the demo site, in the system Chromium against
 * the sandbox and the proxy: sign in, see campaigns, claim the members' coupon, reload, sign out;
 * the CMS page with pasted elements, the theming page and the events page. Screenshots are kept in
 * test-results/screenshots.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { saveScreenshot, signInThroughPopup, useE2eStack } from '../support/e2e.ts';
import { axeViolations } from '../support/axe.ts';

const signInButton = (page: Page) =>
  page.locator('loyalty-signin-button').getByRole('button', { name: 'Sign in with your loyalty wallet' });
const membersCoupon = (page: Page) => page.locator('coupon-claim[require-signin]');

describe('the demo merchant site', () => {
  const stack = useE2eStack({ demoSite: true });

  it('a shopper signs in, sees campaigns, claims the members coupon, reloads and signs out', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(stack.demoUrl);
      await page.getByRole('region', { name: 'Campaigns' }).getByRole('group', { name: '1 of 6' }).waitFor();
      await membersCoupon(page).getByRole('button', { name: 'Sign in to get this coupon' }).waitFor();
      await page.locator('business-directory [part~="name"]').first().waitFor();
      assert.deepEqual(await axeViolations(page), [], 'the shop page with every element, signed out');
      // The members' coupon is the proxy's rule too, not only the page's: asked directly, it refuses.
      const direct = await page.evaluate(async () => {
        const body = JSON.stringify({ operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } });
        return (
          await fetch('/api/marketing', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        ).status;
      });
      assert.equal(direct, 401);

      await signInThroughPopup(page);
      await page.locator('loyalty-signin-button [part="user"]').filter({ hasText: 'Signed in as demo' }).waitFor();
      await saveScreenshot(page, 'journey-1-signed-in');

      const minted = stack.sandbox.stats().couponsMinted;
      await membersCoupon(page).getByRole('button', { name: 'Get coupon' }).click();
      const code = membersCoupon(page).locator('[part~="code"]');
      await code.waitFor();
      const claimed = (await code.textContent())!.trim();
      assert.match(claimed, /^SAVE-/);
      assert.equal(stack.sandbox.stats().couponsMinted, minted + 1);
      await saveScreenshot(page, 'journey-2-coupon-claimed');
      assert.deepEqual(await axeViolations(page), [], 'the shop page, signed in with a claimed coupon');

      await page.reload();
      await page.locator('loyalty-signin-button [part="user"]').filter({ hasText: 'Signed in as demo' }).waitFor();
      await membersCoupon(page).locator('[part~="code"]').filter({ hasText: claimed }).waitFor();
      assert.equal(stack.sandbox.stats().couponsMinted, minted + 1, 'the reload minted nothing');
      await saveScreenshot(page, 'journey-3-after-reload');

      await page.locator('loyalty-signin-button').getByRole('button', { name: 'Sign out' }).click();
      await signInButton(page).waitFor();
      // The coupon belongs to the signed-in shopper: signed out, the element asks to sign in again.
      await membersCoupon(page).getByRole('button', { name: 'Sign in to get this coupon' }).waitFor();
      assert.equal(await membersCoupon(page).locator('[part~="code"]').count(), 0);
      assert.equal(
        await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.includes('user')).length),
        0,
        'no user left in storage',
      );
      await saveScreenshot(page, 'journey-4-signed-out');
    } finally {
      await context.close();
    }
  });

  it('a CMS page with pasted elements: a filtered carousel, a French coupon and a filtered directory', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1000, height: 900 } });
    try {
      await page.goto(new URL('cms.html', stack.demoUrl).href);
      const titles = page.locator('campaign-carousel [part~="slide"] [part~="title"]');
      await titles.first().waitFor();
      const shown = await titles.allTextContents();
      assert.ok(shown.includes('Morning latte for less'), shown.join(', '));
      assert.ok(
        !shown.some((title) => /veg box|rental/i.test(title)),
        `only the roastery's campaigns: ${shown.join(', ')}`,
      );
      await page.locator('[lang="fr"] coupon-claim').getByRole('button', { name: 'Obtenir le coupon' }).waitFor();
      const partners = page.locator('business-directory [part~="name"]');
      await partners.first().waitFor();
      assert.deepEqual(await partners.allTextContents(), ['Harbor Coffee Roasters']);
      await saveScreenshot(page, 'cms-page');
    } finally {
      await page.close();
    }
  });

  it('the theming page: brand colour, dark theme and right-to-left through custom properties', async () => {
    const page = await stack.browser.newPage({ viewport: { width: 1200, height: 1000 } });
    try {
      await page.goto(new URL('theming.html', stack.demoUrl).href);
      await page.locator('.theme-dark campaign-carousel [part~="slide"]').first().waitFor();
      const slideBackground = await page
        .locator('.theme-dark campaign-carousel [part~="slide"]')
        .first()
        .evaluate((slide) => getComputedStyle(slide).backgroundColor);
      assert.equal(slideBackground, 'rgb(22, 27, 34)', 'the dark theme surface colour reaches the slide');
      const rtl = page.locator('[dir="rtl"] campaign-carousel');
      await rtl.locator('[part~="slide"]').first().waitFor();
      assert.equal(await rtl.evaluate((el) => getComputedStyle(el).direction), 'rtl');
      // The section's lang="ar" reaches the element: its controls speak Arabic.
      await rtl.getByRole('button', { name: 'الشريحة التالية' }).waitFor();
      await saveScreenshot(page, 'theming-page');
    } finally {
      await page.close();
    }
  });

  it('the events page logs what the elements send, with the access token redacted', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(new URL('events.html', stack.demoUrl).href);
      const log = page.locator('#event-log');
      await page.locator('campaign-carousel [part~="slide"]').first().click();
      await log.filter({ hasText: 'campaign-select' }).waitFor();
      await signInThroughPopup(page);
      await log.filter({ hasText: 'loyalty-signin' }).waitFor();
      const text = (await log.textContent()) ?? '';
      assert.match(text, /"accessToken":"[^"]{4}…"/, 'the token is shown redacted');
      await saveScreenshot(page, 'events-page');
    } finally {
      await context.close();
    }
  });
});
