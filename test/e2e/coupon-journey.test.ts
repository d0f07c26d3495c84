/**
 * A shopper on the demo merchant site, in the system Chromium against the sandbox and the proxy:
 * sees the campaigns, claims a coupon (with an impatient double click), sees it in another open tab,
 * reloads and still has the same coupon; a member signs in from the coupon itself and claims the
 * members' coupon.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { saveScreenshot, useE2eStack } from '../support/e2e.ts';

const slide = (page: Page, title: string): Locator =>
  page.locator('campaign-carousel [part~="slide"]').filter({ hasText: title });

describe('coupon journeys on the demo site', () => {
  const stack = useE2eStack({ demoSite: true });

  it('shows campaigns, mints one coupon for a double click, and shows the same code after a reload', async () => {
    const context = await stack.browser.newContext({ viewport: { width: 1100, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(stack.demoUrl);
      const carousel = page.getByRole('region', { name: 'Campaigns' });
      await carousel.getByRole('group', { name: '1 of 6' }).waitFor();
      const latte = slide(page, 'Morning latte for less');
      assert.equal(await latte.locator('[part~="price"]').textContent(), '€2.50');
      const image = latte.locator('img[part~="image"]');
      await page.waitForFunction(
        (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
        await image.elementHandle(),
      );
      assert.match(await image.evaluate((img) => (img as HTMLImageElement).currentSrc), /w=(320|640)\b/);

      const secondPage = await context.newPage();
      await secondPage.goto(stack.demoUrl);
      const otherTab = slide(secondPage, 'Morning latte for less');
      await otherTab.getByRole('button', { name: 'Get coupon' }).waitFor();
      await page.bringToFront();

      const before = stack.sandbox.stats().couponsMinted;
      await latte.getByRole('button', { name: 'Get coupon' }).dblclick();
      const code = latte.locator('[part~="code"]');
      await code.waitFor();
      const claimed = (await code.textContent())!;
      assert.ok(claimed.length > 0);
      assert.equal(stack.sandbox.stats().couponsMinted, before + 1, 'a double click mints one coupon');
      assert.equal(
        await page
          .getByRole('status')
          .filter({ hasText: `Your coupon is ready: ${claimed}` })
          .count(),
        1,
      );
      await saveScreenshot(page, 'coupon-claimed');

      // Another tab of the shop, open all along, shows the same coupon without a reload.
      await otherTab.locator('[part~="code"]').filter({ hasText: claimed }).waitFor({ timeout: 5_000 });
      assert.equal(await otherTab.getByRole('button', { name: 'Get coupon' }).count(), 0);

      await page.reload();
      await slide(page, 'Morning latte for less').locator('[part~="code"]').filter({ hasText: claimed }).waitFor();
      assert.equal(await slide(page, 'Morning latte for less').getByRole('button', { name: 'Get coupon' }).count(), 0);
      assert.equal(stack.sandbox.stats().couponsMinted, before + 1, 'the reload minted nothing');

      const names = page.locator('business-directory [part~="name"]');
      await names.first().waitFor();
      const partners = await names.allTextContents();
      assert.ok(partners.includes('Harbor Coffee Roasters'), partners.join(', '));
      assert.ok(!partners.includes('Nova Fitness Studio'), 'a pending business is never shown');
      await saveScreenshot(page, 'coupon-after-reload');
    } finally {
      await context.close();
    }
  });

  it('lets a member sign in from the coupon, claims with their token, and keeps the code across a reload', async () => {
    const context = await stack.browser.newContext();
    try {
      const page = await context.newPage();
      const coupons: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/marketing') && request.postData()?.includes('requestCoupon')) {
          coupons.push(request.headers().authorization ?? '');
        }
      });
      await page.goto(stack.demoUrl);
      const member = page.locator('coupon-claim[require-signin]');
      const popupOpened = page.waitForEvent('popup');
      await member.getByRole('button', { name: 'Sign in to get this coupon' }).click();
      const popup = await popupOpened;
      await popup.getByLabel('Username').fill('demo');
      await popup.getByLabel('Password').fill('demo');
      await popup.getByRole('button', { name: 'Sign in' }).click();
      await popup.getByRole('button', { name: 'Allow', exact: true }).click();
      const code = member.locator('[part~="code"]');
      await code.waitFor();
      const claimed = (await code.textContent())!;
      assert.equal(coupons.length, 1);
      assert.match(coupons[0]!, /^Bearer \S+$/, 'the access token went to the proxy');
      await saveScreenshot(page, 'member-coupon-claimed');

      await page.reload();
      await member.locator('[part~="code"]').filter({ hasText: claimed }).waitFor();
      assert.equal(coupons.length, 1, 'no second claim after the reload');
    } finally {
      await context.close();
    }
  });
});
