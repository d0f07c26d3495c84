/**
 * A coupon mint slower than the proxy's timeout, end to end: the real Marketing sandbox behind a slow
 * front, the proxy (timeout 1 s) on a merchant's static page with the built script tag, and
 * `<coupon-claim>` clicked in real Chromium and Firefox. The proxy answers the first request 504 while
 * it keeps waiting; the element tries again with the same Idempotency-Key and shows the one coupon the
 * upstream minted.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { AddressInfo } from 'node:net';
import { createMarketingProxy, type AccessLogEntry } from '../../src/proxy/index.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from '../node/support/proxy-server.ts';
import { startSlowMarketing, type SlowMarketing } from '../support/slow-marketing.ts';
import { launchChromium } from '../support/e2e.ts';
import { launchShopperBrowser, waitFor } from '../support/shopper-browser.ts';

const TIMEOUT_MS = 1000;
const MINT_DELAY_MS = 1800; // past the timeout, within the mint's bound of 3 × TIMEOUT_MS
const CAMPAIGN = 'camp-harbor-morning-latte';
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Slow coupons</title>
    <script type="module" src="/dist/loyalty-widgets.js"></script>
  </head>
  <body>
    <coupon-claim campaign-id="${CAMPAIGN}"></coupon-claim>
  </body>
</html>`;
const claim = `document.querySelector('coupon-claim')?.shadowRoot`;
const shownCode = `${claim}?.querySelector('[part~="code"]')?.textContent ?? null`;
const shownError = `${claim}?.querySelector('[part~="error"]')?.textContent ?? null`;
const claimButton = `${claim}?.querySelector('[part~="claim-button"]')`;

describe('a coupon minted slower than the proxy’s timeout', () => {
  let sandbox: Upstream;
  let slow: SlowMarketing;
  let server: ServerType;
  let origin: string;
  const log: AccessLogEntry[] = [];

  before(async () => {
    sandbox = await startUpstream();
    slow = await startSlowMarketing(sandbox.marketingUrl, MINT_DELAY_MS);
    const proxy = createMarketingProxy({
      upstreamUrl: slow.url,
      apiKey: TEST_API_KEY,
      timeoutMs: TIMEOUT_MS,
      logger: (entry) => log.push(entry),
    });
    const app = new Hono();
    app.all('/api/marketing', (c) => proxy(c.req.raw));
    app.get('/', (c) => c.html(PAGE));
    app.use('/dist/*', serveStatic({ root: '.' }));
    server = await new Promise((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: 'localhost' }, () => resolve(started));
    });
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await slow?.close();
    await sandbox?.dispose();
  });

  /** What the shopper saw, and what the upstream and the proxy did, for one claim in `engine`. */
  function expectOneCoupon(shown: string, mintedBefore: number, logBefore: number) {
    assert.equal(sandbox.stats().couponsMinted - mintedBefore, 1, 'one coupon minted upstream');
    assert.equal(shown, slow.minted.at(-1), 'the shopper sees the coupon the upstream minted');
    const mints = log.slice(logBefore).filter((entry) => entry.operation === 'requestCoupon');
    assert.equal(mints[0]?.status, 504, 'the first answer was the timeout');
    assert.equal(mints.at(-1)?.status, 200);
    assert.equal(mints.at(-1)?.replayed, true, 'the coupon came as the recorded answer of the same key');
  }

  it('in Chromium: the shopper is shown the one coupon that was minted', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(origin);
      const button = page.locator('coupon-claim [part~="claim-button"]');
      await button.waitFor();
      const mintedBefore = sandbox.stats().couponsMinted;
      const logBefore = log.length;
      await button.click();
      const code = page.locator('coupon-claim [part~="code"]');
      await code.waitFor({ timeout: 15_000 });
      expectOneCoupon((await code.textContent())!, mintedBefore, logBefore);
      assert.equal(await page.locator('coupon-claim [part~="error"]').count(), 0, 'no error was shown');
    } finally {
      await browser.close();
    }
  });

  it('in Firefox: the shopper is shown the one coupon that was minted', async () => {
    const browser = await launchShopperBrowser('firefox');
    try {
      const { page } = browser;
      await page.goto(origin);
      await waitFor(page, claimButton, 'the claim button');
      const mintedBefore = sandbox.stats().couponsMinted;
      const logBefore = log.length;
      await page.click(claimButton);
      await waitFor(page, `${shownCode} ?? ${shownError}`, 'a code or an error', 15_000);
      assert.equal(await page.evaluate(shownError), null, 'no error was shown');
      expectOneCoupon((await page.evaluate<string>(shownCode))!, mintedBefore, logBefore);
    } finally {
      await browser.close();
    }
  });
});
