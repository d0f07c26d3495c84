/**
 * The strict-CSP shop page (test/e2e/fixtures/strict-csp.html: the built script tag, no inline
 * script or style, Trusted Types) in Firefox and WebKit, as signin-strict-csp.test.ts does it in
 * Chromium: the shopper signs in through the popup and the shipped callback page, and claims a coupon
 * from the carousel, and the page reports no violation of its policy. The policy is checked to be
 * there and in force, so a page served without it cannot pass. An engine that is not installed is
 * skipped, except in CI, where it fails. Needs a build (`npm run test:e2e` builds first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingPrograms } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import { strictCsp } from '../support/static-site.ts';
import { signInAtConnect, useShopperBrowser, waitFor } from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const carousel = `document.querySelector('campaign-carousel').shadowRoot`;
const signInButton = `${signin}.querySelector('[part~="button"][aria-busy="false"]')`;
const shownUser = `${signin}.querySelector('[part~="user"]')?.textContent`;
/** The first slide in view with a coupon to claim, and what its claim shows. */
const claimSlide = `[...${carousel}.querySelectorAll('[part~="slide"]')].find((slide) => !slide.inert && slide.querySelector('coupon-claim'))`;
const claim = `${claimSlide}?.querySelector('coupon-claim')?.shadowRoot`;
const violations = `window.__cspViolations`;

for (const engine of ['firefox', 'webkit'] as const) {
  const missing = missingPrograms(engine);
  describe(
    `the strict-CSP shop page in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const stack = useE2eStack({
        staticSites: { strict: { strictCsp: true } },
        app: { name: 'Strict shop', redirectPaths: { strict: ['/dist/callback.html'] } },
        chromium: false,
      });
      const browser = useShopperBrowser(engine, missing);

      it('signs in through the popup and claims a coupon, without a violation of the policy', async () => {
        const url = `${stack.sites.strict.origin}/strict-csp.html`;
        // The page and the shipped callback page are served under the strict policy.
        const expected = strictCsp(stack.connectUrl, new URL(stack.marketingUrl).origin)(stack.sites.strict.origin);
        for (const path of ['/strict-csp.html', '/dist/callback.html', '/dist/loyalty-widgets.js']) {
          const response = await fetch(`${stack.sites.strict.origin}${path}`);
          await response.body?.cancel();
          assert.equal(response.headers.get('content-security-policy'), expected, path);
        }

        const { page } = browser;
        await page.goto(url);
        await waitFor(page, signInButton, 'the sign-in button');
        assert.deepEqual(await page.evaluate(violations), [], 'the page is watched from its start');
        const popup = await browser.popup(() => page.click(signInButton));
        await signInAtConnect(popup, 'allow');
        await waitFor(page, `${shownUser} === 'Signed in as demo'`, 'signed in as demo');
        assert.equal(await page.evaluate(`location.hash`), '', 'no tokens in the address bar');

        await waitFor(page, `${claim}?.querySelector('[part~="claim-button"]')`, 'a coupon to claim');
        const before = stack.sandbox.stats().couponsMinted;
        await page.click(`${claim}.querySelector('[part~="claim-button"]')`);
        await waitFor(page, `${claim}?.querySelector('[part~="code"]')?.textContent`, 'the coupon code');
        assert.equal(stack.sandbox.stats().couponsMinted, before + 1, 'one coupon minted');
        await waitFor(page, `${carousel}.querySelector('img[part~="image"]')?.complete`, 'a campaign image');
        assert.deepEqual(await page.evaluate(violations), [], 'no violation of the policy');

        // The policy is in force in this engine, and a violation would have been seen: an image from
        // an origin img-src does not name is blocked and reported.
        await page.evaluate(
          `(document.body.append(Object.assign(document.createElement('img'), { src: 'http://127.0.0.2:9/blocked.png' })), true)`,
        );
        await waitFor(page, `${violations}.length > 0`, 'the blocked image reported');
        const reported = await page.evaluate<string[]>(violations);
        assert.equal(reported.length, 1, reported.join('\n'));
        assert.match(reported[0]!, /^img-src\b.*127\.0\.0\.2/);
      });
    },
  );
}
