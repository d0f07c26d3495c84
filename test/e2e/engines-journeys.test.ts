/**
 * The shopper's journeys on the demo merchant site in Firefox and WebKit (the other suites run them
 * in Chromium): sign in through the sandbox's real popup (and cancel, and close it), claim a coupon
 * (seen in another open tab) and reload, browse the carousel by keyboard and by its buttons, read the directory. Each engine
 * runs with its popup blocker on, as shoppers have it. An engine that is not installed is skipped,
 * except in CI, where it fails.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { missingPrograms } from '../support/engines.ts';
import { useE2eStack } from '../support/e2e.ts';
import { launchShopperBrowser, waitFor, type ShopperBrowser, type ShopperWindow } from '../support/shopper-browser.ts';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';

/** Expressions evaluated in the demo page (the elements' shadow roots are open). */
const signin = `document.querySelector('loyalty-signin-button').shadowRoot`;
const carousel = `document.querySelector('campaign-carousel').shadowRoot`;
const directory = `document.querySelector('business-directory').shadowRoot`;
const slideTitled = (title: string) =>
  `[...${carousel}.querySelectorAll('[part~="slide"]')].find((slide) => slide.querySelector('[part~="title"]')?.textContent === ${JSON.stringify(title)})`;
const claimIn = (slide: string) => `${slide}?.querySelector('coupon-claim')?.shadowRoot`;
const signInButton = `${signin}.querySelector('[part~="button"][aria-busy="false"]')`;
const shownUser = `${signin}.querySelector('[part~="user"]')?.textContent`;
const alertText = `${signin}.querySelector('[part~="message"][role="alert"]')?.textContent ?? ''`;
const focusedSlide = `${carousel}.activeElement?.closest('[part~="slide"]')?.getAttribute('aria-label')`;

async function signInAtConnect(popup: ShopperWindow, decision: 'allow' | 'cancel'): Promise<void> {
  await waitFor(popup, `document.getElementById('username')`, 'the sign-in form');
  await popup.click(`document.getElementById('username')`);
  await popup.type('demo');
  await popup.click(`document.getElementById('password')`);
  await popup.type('demo');
  await popup.click(`document.querySelector('form button[type="submit"]')`);
  await waitFor(popup, `document.querySelector('button[value="${decision}"]')`, 'the consent page');
  await popup.click(`document.querySelector('button[value="${decision}"]')`);
}

for (const engine of ['firefox', 'webkit'] as const) {
  const missing = missingPrograms(engine);
  describe(
    `shopper journeys in ${engine}`,
    { skip: missing.length && !inCi ? `${engine} is not installed (${missing.join(', ')})` : false },
    () => {
      const stack = useE2eStack({ demoSite: true, chromium: false });
      let browser: ShopperBrowser;
      let page: ShopperWindow;

      before(async () => {
        assert.deepEqual(missing, [], `${engine} must be installed in CI`);
        browser = await launchShopperBrowser(engine);
        page = browser.page;
      });
      after(() => browser?.close());

      async function freshDemo(): Promise<void> {
        await page.goto(stack.demoUrl);
        await browser.clearCookies();
        await page.evaluate(`(sessionStorage.clear(), localStorage.clear(), true)`);
        await page.reload();
        await waitFor(page, signInButton, 'the sign-in button');
      }

      it('signs in through the popup, keeps the session on reload, and signs out', async () => {
        await freshDemo();
        const popup = await browser.popup(() => page.click(signInButton));
        await signInAtConnect(popup, 'allow');
        await waitFor(page, `${shownUser} === 'Signed in as demo'`, 'signed in as demo');
        assert.equal(await page.evaluate(`location.hash`), '', 'no tokens in the address bar');
        for (const deadline = Date.now() + 5000; !(await popup.isClosed()) && Date.now() < deadline;)
          await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(await popup.isClosed(), true, 'the popup closed itself');
        await page.reload();
        await waitFor(page, `${shownUser} === 'Signed in as demo'`, 'still signed in after a reload');
        await page.click(`${signin}.querySelector('[part~="signout"]')`);
        await waitFor(page, signInButton, 'signed out');
        assert.equal(await page.evaluate(`sessionStorage.getItem('loyalty-widgets:user')`), null);
      });

      it('tells the shopper in plain words when they cancel consent', async () => {
        await freshDemo();
        const popup = await browser.popup(() => page.click(signInButton));
        await signInAtConnect(popup, 'cancel');
        await waitFor(page, `${alertText}.includes("without signing in")`, 'the cancellation is explained');
        await waitFor(page, signInButton, 'the button is usable again');
      });

      it('reports a popup closed by the shopper', async () => {
        await freshDemo();
        const popup = await browser.popup(() => page.click(signInButton));
        await waitFor(popup, `document.getElementById('username')`, 'the sign-in form');
        await popup.close();
        await waitFor(page, `${alertText}.includes('closed before you finished')`, 'the closed popup is reported');
        await waitFor(page, signInButton, 'the button is usable again');
      });

      it('claims a coupon once, shows it in another open tab, and shows the same code after a reload', async () => {
        await freshDemo();
        const latte = slideTitled('Morning latte for less');
        await waitFor(page, `${claimIn(latte)}?.querySelector('[part~="claim-button"]')`, 'the claim button');
        const otherTab = await browser.openWindow(stack.demoUrl);
        await waitFor(
          otherTab,
          `${claimIn(latte)}?.querySelector('[part~="claim-button"]')`,
          'the claim button in the other tab',
        );
        const before = stack.sandbox.stats().couponsMinted;
        await page.click(`${claimIn(latte)}.querySelector('[part~="claim-button"]')`);
        await waitFor(page, `${claimIn(latte)}?.querySelector('[part~="code"]')?.textContent`, 'the coupon code');
        const code = await page.evaluate<string>(`${claimIn(latte)}.querySelector('[part~="code"]').textContent`);
        assert.equal(stack.sandbox.stats().couponsMinted, before + 1);
        // Another open tab of the site shows it too (storage events between windows).
        await waitFor(
          otherTab,
          `${claimIn(latte)}?.querySelector('[part~="code"]')?.textContent === ${JSON.stringify(code)}`,
          'the code in the other tab',
        );
        await otherTab.close();
        await page.reload();
        await waitFor(
          page,
          `${claimIn(latte)}?.querySelector('[part~="code"]')?.textContent === ${JSON.stringify(code)}`,
          'the same code after the reload',
        );
        assert.equal(stack.sandbox.stats().couponsMinted, before + 1, 'the reload minted nothing');
      });

      it('browses the carousel with its buttons and by keyboard', async () => {
        await freshDemo();
        await waitFor(page, `${carousel}.querySelectorAll('[part~="slide"]').length >= 2`, 'the slides');
        // The first slide in view: those scrolled out of it are inert.
        const current = `[...${carousel}.querySelectorAll('[part~="slide"]')].findIndex((slide) => !slide.inert)`;
        const track = `${carousel}.querySelector('[part~="slides"]')`;
        await page.click(`${carousel}.querySelector('[part~="next-button"]')`);
        await waitFor(page, `${current} === 1`, 'the next button moves one slide');
        // The shopper looks at the new slide before going back: the track has stopped moving.
        let position = -1;
        for (let settled = false, deadline = Date.now() + 5000; !settled && Date.now() < deadline;) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          const now = await page.evaluate<number>(`${track}.scrollLeft`);
          settled = now === position && now > 0;
          position = now;
        }
        await page.click(`${carousel}.querySelector('[part~="previous-button"]')`);
        await waitFor(page, `${current} === 0`, 'the previous button moves back');
        await page.evaluate(`(${carousel}.querySelector('[part~="title-button"]').focus(), true)`);
        await page.press('ArrowRight');
        await waitFor(page, `${focusedSlide}?.startsWith('2 of ')`, 'ArrowRight focuses the next slide’s button');
        await page.press('End');
        await waitFor(page, `${focusedSlide}?.startsWith('6 of ')`, 'End focuses the last slide');
        await page.press('Home');
        await waitFor(page, `${focusedSlide}?.startsWith('1 of ')`, 'Home focuses the first slide');
      });

      it('lists the approved businesses in the directory, with their properties as words', async () => {
        await freshDemo();
        await waitFor(page, `${directory}.querySelector('[part~="name"]')`, 'the directory');
        const names = await page.evaluate<string[]>(
          `[...${directory}.querySelectorAll('[part~="name"]')].map((name) => name.textContent)`,
        );
        assert.ok(names.includes('Harbor Coffee Roasters'), names.join(', '));
        assert.ok(!names.includes('Nova Fitness Studio'), 'a pending business is never shown');
        const terms = await page.evaluate<string[]>(
          `[...${directory}.querySelectorAll('dl[part~="properties"] dt')].map((term) => term.textContent)`,
        );
        assert.ok(terms.includes('Opening hours'), terms.join(', '));
      });
    },
  );
}
