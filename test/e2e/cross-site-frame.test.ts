/**
 * The widgets pasted into a site builder's embed block: a page on `localhost` frames the shop's page
 * on `127.0.0.1` (another site, another port), whose storage the browser blocks or partitions. In
 * Chromium, Firefox and WebKit the shopper signs in through the popup (its answer reaches the frame by
 * message), sees the campaigns and claims a coupon as a guest, with storage refused two ways (where
 * Firefox refuses the frame a BroadcastChannel too, the sign-in says why it cannot run there):
 * - the browser's own rule for a cross-site frame: Chromium with third-party cookies blocked and
 *   storage partitioning off (sessionStorage, localStorage and Web Locks throw SecurityError), Firefox
 *   rejecting third-party cookies (localStorage and Web Locks throw), WebKit as it comes (it partitions
 *   the frame's storage; nothing throws);
 * - the framed page's `window.sessionStorage` and `localStorage` throwing SecurityError (and its Web
 *   Locks refused), as a browser that blocks them does, in every engine.
 * An engine that is not installed is skipped, except in CI, where it fails. Needs a build.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingPrograms, type Engine } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import {
  launchShopperBrowser,
  signInAtConnect,
  waitFor,
  type ShopperBrowser,
  type ShopperBrowserOptions,
  type ShopperWindow,
} from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const carousel = `document.querySelector('campaign-carousel').shadowRoot`;
const signInButton = `${signin}.querySelector('[part~="button"][aria-busy="false"]')`;
const shownUser = `${signin}.querySelector('[part~="user"]')?.textContent`;
const alertText = `${signin}.querySelector('[part~="message"][role="alert"]')?.textContent ?? ''`;
const claimSlide = `[...${carousel}.querySelectorAll('[part~="slide"]')].find((slide) => !slide.inert && slide.querySelector('coupon-claim'))`;
const claim = `${claimSlide}?.querySelector('coupon-claim')?.shadowRoot`;

/** Which of the frame's storages refuse to be written, with the error's name. */
const refusedStorage = `(() => {
  const refused = [];
  for (const name of ['sessionStorage', 'localStorage']) {
    try {
      window[name].setItem('probe', '1');
      window[name].removeItem('probe');
    } catch (error) {
      refused.push(name + ': ' + error.name);
    }
  }
  return refused;
})()`;

interface Setting {
  name: string;
  launch: ShopperBrowserOptions;
  /** The framed page's address's query. */
  query: string;
  /** What the frame's storage refuses, per engine: the proof that the setting is in force. */
  refused: Record<Engine, string[]>;
}

const BOTH_REFUSED = ['sessionStorage: SecurityError', 'localStorage: SecurityError'];
const SETTINGS: Setting[] = [
  {
    name: "the browser's rule for a cross-site frame's storage",
    launch: { blockThirdPartyStorage: true },
    query: '',
    refused: { chromium: BOTH_REFUSED, firefox: ['localStorage: SecurityError'], webkit: [] },
  },
  {
    name: "the frame's sessionStorage and localStorage throwing",
    launch: {},
    query: '?storage=throws',
    refused: { chromium: BOTH_REFUSED, firefox: BOTH_REFUSED, webkit: BOTH_REFUSED },
  },
];

for (const engine of ['chromium', 'firefox', 'webkit'] as const) {
  const missing = missingPrograms(engine);
  describe(
    `the widgets in a cross-site frame in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const pages = new Map<string, string>();
      const stack = useE2eStack({
        staticSites: { shop: { host: '127.0.0.1' }, builder: { pages } },
        app: { name: 'Framed shop', redirectPaths: { shop: ['/dist/callback.html'] } },
        chromium: false,
      });

      for (const setting of SETTINGS) {
        describe(setting.name, () => {
          let browser: ShopperBrowser;
          before(async () => {
            assert.deepEqual(missing, [], `${engine} must be installed in CI`);
            browser = await launchShopperBrowser(engine, setting.launch);
          });
          after(() => browser?.close());

          /** The site builder's page framing the shop's, and the frame. */
          async function openEmbed(): Promise<ShopperWindow> {
            const shop = stack.sites.shop.origin;
            assert.notEqual(new URL(shop).hostname, new URL(stack.sites.builder.origin).hostname, 'another site');
            pages.set(
              '/embed.html',
              `<!doctype html><html lang="en"><title>A site builder's page</title><body style="margin:0">` +
                `<iframe src="${shop}/framed-shop.html${setting.query}" style="width:1000px;height:800px"></iframe>`,
            );
            await browser.page.goto(`${stack.sites.builder.origin}/embed.html`);
            const frame = await browser.frame(shop);
            await waitFor(frame, `${carousel}?.querySelector('[part~="slide"]')`, 'the campaigns in the frame');
            assert.deepEqual(await frame.evaluate(refusedStorage), setting.refused[engine], 'the storage refused');
            return frame;
          }

          it('lists the campaigns and claims a guest’s coupon', async () => {
            const frame = await openEmbed();
            await waitFor(frame, `${claim}?.querySelector('[part~="claim-button"]')`, 'a coupon to claim');
            const minted = stack.sandbox.stats().couponsMinted;
            await frame.click(`${claim}.querySelector('[part~="claim-button"]')`);
            await waitFor(frame, `${claim}?.querySelector('[part~="code"]')?.textContent`, 'the guest’s coupon code');
            assert.equal(stack.sandbox.stats().couponsMinted, minted + 1, 'one coupon minted');
          });

          // Firefox rejecting third-party cookies refuses the frame the BroadcastChannel that
          // oidc-client-ts's popup listens on besides the message: that sign-in cannot start there, and
          // says why and what to do rather than blaming the connection.
          const channelRefused = engine === 'firefox' && setting.launch.blockThirdPartyStorage === true;

          if (channelRefused)
            it('says why the sign-in cannot run in this frame, and closes its popup', async () => {
              const frame = await openEmbed();
              await frame.evaluate(
                `(window.signInErrors = [], document.querySelector('loyalty-signin-button').addEventListener('loyalty-signin-error', (event) => window.signInErrors.push(event.detail)), true)`,
              );
              const popup = await browser.popup(() => frame.click(signInButton));
              await waitFor(frame, `${alertText}.includes('not set up correctly')`, 'the set-up failure shown');
              const [error] = await frame.evaluate<{ code: string; message: string }[]>('window.signInErrors');
              assert.equal(error?.code, 'config');
              assert.match(error.message, /allow-same-origin and allow-popups, or put the widgets on the page itself/);
              for (const deadline = Date.now() + 5000; !(await popup.isClosed()) && Date.now() < deadline;)
                await new Promise((resolve) => setTimeout(resolve, 100));
              assert.equal(await popup.isClosed(), true, 'the popup closed');
            });
          else
            it('signs in through the popup, whose answer reaches the frame by message', async () => {
              const frame = await openEmbed();
              const popup = await browser.popup(() => frame.click(signInButton));
              await signInAtConnect(popup, 'allow');
              await waitFor(frame, `${shownUser} === 'Signed in as demo'`, 'signed in as demo in the frame');
              assert.equal(await frame.evaluate(alertText), '', 'no failure shown');
              for (const deadline = Date.now() + 5000; !(await popup.isClosed()) && Date.now() < deadline;)
                await new Promise((resolve) => setTimeout(resolve, 100));
              assert.equal(await popup.isClosed(), true, 'the popup closed');
            });
        });
      }
    },
  );
}
