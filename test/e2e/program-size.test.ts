/**
 * A merchant whose two campaigns come last of 5,000 in scan order, on a static page with the built
 * script tag, in Chromium: through an upstream with an index on the business account the carousel
 * shows them at once; through one without, it never says "No campaigns" while the list goes on, and
 * "Keep looking" reads on until it finds them. Real appsync-flavoured sandboxes, real proxies.
 * Run after `npm run build`.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startMarketing, type RunningMarketing } from '../../src/sandbox/index.ts';
import { launchChromium } from '../support/e2e.ts';
import { startStaticSite, type StaticSite } from '../support/static-site.ts';
import { lateSeed } from '../node/support/appsync-proxy.ts';

const ROWS = 5000;

describe('one business account in a program of 5,000 campaigns', () => {
  const running = {} as {
    browser: Browser;
    upstreams: RunningMarketing[];
    indexed: StaticSite;
    scanned: StaticSite;
  };
  before(async () => {
    const [withIndex, withoutIndex] = await Promise.all(
      [true, false].map((campaignIndex) =>
        startMarketing({ flavor: 'appsync', marketingPort: 0, seed: lateSeed(ROWS), campaignIndex }),
      ),
    );
    running.upstreams = [withIndex!, withoutIndex!];
    const site = (upstream: RunningMarketing) =>
      startStaticSite({
        upstreamUrl: upstream.marketingUrl,
        apiKey: upstream.apiKey,
        connectUrl: 'http://127.0.0.1:9',
      });
    [running.indexed, running.scanned] = await Promise.all([site(withIndex!), site(withoutIndex!)]);
    running.browser = await launchChromium();
  });
  after(async () => {
    await running.browser?.close();
    await Promise.all([running.indexed?.close(), running.scanned?.close()]);
    await Promise.all((running.upstreams ?? []).map((upstream) => upstream.close()));
  });

  const titles = (page: Page) => page.locator('campaign-carousel [part~="title"]').allTextContents();
  const status = (page: Page) => page.locator('campaign-carousel [role="status"]').textContent();

  it('through the index: both campaigns on the first load, one upstream call', async () => {
    const [upstream] = running.upstreams;
    upstream!.resetStats();
    const page = await running.browser.newPage();
    await page.goto(`${running.indexed.origin}/program-size.html`);
    await page.locator('campaign-carousel [part~="slide"]').nth(1).waitFor({ timeout: 15_000 });
    assert.deepEqual(
      (await titles(page)).map((title) => title.trim()),
      ['Late offer 1', 'Late offer 2'],
    );
    const { __schema: _introspection, ...read } = upstream!.stats().byOperation;
    assert.deepEqual(read, { campaignsByBusinessAccountId: 1 }, 'one index query, no scan');
    await page.close();
  });

  it('without an index: never "No campaigns" while a token remains, and "Keep looking" finds them', async () => {
    const page = await running.browser.newPage();
    await page.goto(`${running.scanned.origin}/program-size.html`);
    const keepLooking = page.locator('campaign-carousel [part~="keep-looking-button"]');
    const slide = page.locator('campaign-carousel [part~="slide"]').first();
    for (let presses = 0; presses < 20; presses += 1) {
      await Promise.race([
        keepLooking.and(page.locator('[aria-disabled="false"]')).waitFor({ timeout: 30_000 }),
        slide.waitFor({ timeout: 30_000 }),
      ]);
      if (await slide.isVisible()) break;
      assert.doesNotMatch((await status(page)) ?? '', /No campaigns right now/);
      assert.match((await status(page)) ?? '', /No campaigns found yet/);
      await keepLooking.click();
    }
    await page.locator('campaign-carousel [part~="slide"]').nth(1).waitFor({ timeout: 15_000 });
    assert.deepEqual(
      (await titles(page)).map((title) => title.trim()),
      ['Late offer 1', 'Late offer 2'],
    );
    assert.equal(await page.locator('campaign-carousel [part~="empty"]').count(), 0);
    await page.close();
  });
});
