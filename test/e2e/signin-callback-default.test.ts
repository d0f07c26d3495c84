/**
 * A merchant that serves dist/ from its own site: with no redirect-uri and no head meta, a sign-in
 * comes back to the shipped dist/callback.html beside the script tag, so the shop page's own
 * scripts never have a token in their address, by popup or by full-page redirect. In Chromium and
 * Firefox, on a static site serving the built dist/, with the sandbox's real Connect. The app
 * registers the shop page too, so that a sign-in coming back to it would succeed and be seen.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingPrograms } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import {
  allowAsDemo,
  CONNECT_PAGE,
  launchShopperBrowser,
  waitFor,
  type ShopperBrowser,
  type ShopperWindow,
} from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const PAGE = '/self-hosted.html';

const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const signInButton = `${signin}?.querySelector('[part~="button"][aria-busy="false"]')`;
const shownUser = `(${signin}?.querySelector('[part~="user"]')?.textContent ?? '')`;

for (const engine of ['chromium', 'firefox'] as const) {
  const missing = missingPrograms(engine);
  describe(
    `the self-hosted callback page by default in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const stack = useE2eStack({
        staticSites: { shop: {} },
        app: { name: 'Self-hosted shop', redirectPaths: { shop: [PAGE, '/dist/callback.html'] } },
        chromium: false,
      });
      let browser: ShopperBrowser;
      let page: ShopperWindow;

      before(async () => {
        assert.deepEqual(missing, [], `${engine} must be installed in CI`);
        browser = await launchShopperBrowser(engine);
        page = browser.page;
      });
      after(() => browser?.close());

      /** Opens the shop page signed out, with nothing noted yet by its head script. */
      async function openShop(): Promise<void> {
        await page.goto(`${stack.sites.shop.origin}${PAGE}`);
        await waitFor(page, signin, 'the sign-in button');
        await page.evaluate(`(sessionStorage.clear(), localStorage.clear(), true)`);
        await page.reload();
        await waitFor(page, signInButton, 'the sign-in button, signed out');
      }

      const seen = (): Promise<string[]> =>
        page.evaluate<string[]>(`JSON.parse(localStorage.getItem('addresses-seen') || '[]')`);

      it('signs in through the popup at dist/callback.html; the page head script never sees a token', async () => {
        await openShop();
        const popup = await browser.popup(() => page.click(signInButton));
        await waitFor(popup, CONNECT_PAGE, 'a page of Connect');
        const asked = new URL(await popup.evaluate<string>('location.href'));
        assert.equal(asked.searchParams.get('redirect_uri'), `${stack.sites.shop.origin}/dist/callback.html`);
        await allowAsDemo(popup);
        await waitFor(page, `${shownUser}.includes('Signed in as demo')`, 'signed in');
        const addresses = await seen();
        assert.ok(addresses.length > 0, 'the head script ran');
        assert.deepEqual(
          addresses.filter((address) => /token|#/.test(address)),
          [],
          'no address the head script saw held a token',
        );
      });

      it('signs in by full-page redirect through dist/callback.html; the page head script never sees a token', async () => {
        await openShop();
        await page.evaluate(`(document.querySelector('loyalty-signin-button').mode = 'redirect', true)`);
        await waitFor(page, signInButton, 'the redirect button');
        await page.click(signInButton);
        await allowAsDemo(page);
        await waitFor(
          page,
          `location.pathname === ${JSON.stringify(PAGE)} && ${shownUser}.includes('Signed in as demo')`,
          'back on the shop page, signed in',
        );
        const addresses = await seen();
        assert.ok(addresses.length > 0, 'the head script ran');
        assert.deepEqual(
          addresses.filter((address) => /token|#/.test(address)),
          [],
          'no address the head script saw held a token',
        );
      });
    },
  );
}
