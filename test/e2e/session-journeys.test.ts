/**
 * A shopper's session over navigation and on a shared computer, on a merchant's static site serving
 * the built dist/ (so the browser really keeps pages in its back/forward cache), in Chromium and
 * Firefox with the sandbox's real Connect: Back after sign-out stays signed out, and the next sign-in
 * after an explicit sign-out asks for the password again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingPrograms } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import {
  allowAsDemo,
  CONNECT_PAGE,
  launchShopperBrowser,
  signInAtConnect,
  waitFor,
  type ShopperBrowser,
  type ShopperWindow,
} from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const signInButton = `${signin}.querySelector('[part~="button"][aria-busy="false"]')`;
const signOutButton = `${signin}.querySelector('[part~="signout"]')`;
const shownUser = `(${signin}.querySelector('[part~="user"]')?.textContent ?? '')`;
const claim = `document.querySelector('coupon-claim').shadowRoot`;

/**
 * Goes to an address as a followed link would (Firefox's page.goto() can wait forever after the
 * journeys above) and waits for the new document: the page left is marked, so a check can never be
 * answered by it while it is still there, even when the address is the same.
 */
async function follow(window: ShopperWindow, url: string): Promise<void> {
  await window.evaluate(`(window.__leftForNextPage = true, location.href = ${JSON.stringify(url)}, true)`);
  await waitFor(
    window,
    `!window.__leftForNextPage && location.href === ${JSON.stringify(url)} && document.readyState !== 'loading'`,
    url,
  );
}

for (const engine of ['chromium', 'firefox'] as const) {
  const missing = missingPrograms(engine);
  describe(
    `a session over navigation in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const stack = useE2eStack({
        staticSites: { shop: {} },
        app: { name: 'Session shop', redirectPaths: { shop: ['/dist/callback.html'] } },
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

      it('Back after a sign-out shows a signed-out page, and the next sign-in asks for the password again', async () => {
        const shop = stack.sites.shop.origin;
        await page.goto(`${shop}/session-offers.html`);
        await waitFor(page, signInButton, 'the sign-in button');
        const popup = await browser.popup(() => page.click(signInButton));
        await signInAtConnect(popup, 'allow');
        await waitFor(page, `${shownUser}.includes('Signed in as demo')`, 'signed in on the offers page');

        await page.click(`document.getElementById('account')`);
        await waitFor(page, `location.pathname === '/session-account.html' && ${signOutButton}`, 'the account page');
        await page.click(signOutButton);
        await waitFor(page, signInButton, 'signed out on the account page');

        await page.back();
        await waitFor(page, `location.pathname === '/session-offers.html'`, 'the offers page again');
        assert.equal(
          await page.evaluate<boolean>('window.__restoredFromCache'),
          true,
          'the browser brought the page back from its back/forward cache',
        );
        await waitFor(page, signInButton, 'the restored page shows the sign-in button');
        assert.equal(await page.evaluate<string>(shownUser), '', 'no "Signed in as demo"');
        await waitFor(page, `${claim}.querySelector('[part~="signin-button"]')`, 'the coupon asks for a sign-in');
        assert.equal(
          await page.evaluate<string | null>(`sessionStorage.getItem('loyalty-widgets:user')`),
          null,
          'no tokens kept',
        );

        await nextPersonLogsIn();
      });

      /** The next person at this computer: Connect asks who they are instead of continuing as demo. */
      async function nextPersonLogsIn(): Promise<void> {
        const next = await browser.popup(() => page.click(signInButton));
        await waitFor(next, CONNECT_PAGE, 'a page of Connect');
        assert.equal(
          await next.evaluate<boolean>(`Boolean(document.getElementById('password'))`),
          true,
          'the sign-in form, not straight to "Allow … demo"',
        );
        await signInAtConnect(next, 'allow');
        await waitFor(page, `${shownUser}.includes('Signed in as demo')`, 'signed in again');
      }

      it('after signing out, the next sign-in on the same page asks for the password again', async () => {
        // Continues on the page the journey above left, signed in or out.
        await waitFor(page, `${signInButton} || ${signOutButton}`, 'the sign-in button');
        if (await page.evaluate<boolean>(`Boolean(${signOutButton})`)) await page.click(signOutButton);
        await waitFor(page, signInButton, 'signed out');
        // Connect may remember demo from the first journey; either way the shopper gets signed in.
        await allowAsDemo(await browser.popup(() => page.click(signInButton)));
        await waitFor(page, `${shownUser}.includes('Signed in as demo')`, 'signed in');
        await page.click(signOutButton);
        await waitFor(page, signInButton, 'signed out');
        await nextPersonLogsIn();
      });

      it('a reload of the shop page while the popup is open still signs the shopper in', async () => {
        await follow(page, `${stack.sites.shop.origin}/session-offers.html`);
        await waitFor(page, `${signInButton} || ${signOutButton}`, 'the sign-in button');
        if (await page.evaluate<boolean>(`Boolean(${signOutButton})`)) await page.click(signOutButton);
        await waitFor(page, signInButton, 'signed out');
        const popup = await browser.popup(() => page.click(signInButton));
        await waitFor(popup, CONNECT_PAGE, 'a page of Connect');
        await page.evaluate('(location.reload(), true)');
        await waitFor(page, `document.readyState === 'complete' && ${signInButton}`, 'the reloaded page');
        await allowAsDemo(popup);
        await waitFor(page, `${shownUser}.includes('Signed in as demo')`, 'the reloaded page took the sign-in');
        await waitFor(
          page,
          `!Object.keys(sessionStorage).some((key) => key.startsWith('loyalty-widgets:state:'))`,
          'no pending sign-in left behind',
        );
      });

      it('a second tab of the shop is signed in and out with the first, with the default storage', async () => {
        const offers = `${stack.sites.shop.origin}/session-offers.html`;
        await follow(page, offers);
        await waitFor(page, signOutButton, 'signed in');
        const second = await browser.openWindow(`${stack.sites.shop.origin}/session-account.html`);
        try {
          await waitFor(second, `${shownUser}.includes('Signed in as demo')`, 'the new tab is signed in too');
          await page.click(signOutButton);
          await waitFor(second, signInButton, 'the sign-out reached the other tab');
          assert.equal(await second.evaluate<string | null>(`sessionStorage.getItem('loyalty-widgets:user')`), null);
        } finally {
          await second.close();
        }
      });
    },
  );
}
