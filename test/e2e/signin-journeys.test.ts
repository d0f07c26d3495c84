/**
 * A shopper signing in on the demo merchant site with the sandbox's Connect, in the system
 * Chromium: the sandbox's real sign-in form and consent page, the real popup, the redirect fallback,
 * reload and expiry.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { saveScreenshot, useE2eStack } from '../support/e2e.ts';

interface RecordedEvent {
  type: string;
  detail: { code?: string; reason?: string; profile?: boolean; user?: { username?: string; loyaltyId?: string } };
}

/** Records every sign-in event the page sends, readable with recordedEvents(). */
async function recordEvents(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const events: unknown[] = [];
    (window as unknown as { __signinEvents: unknown[] }).__signinEvents = events;
    for (const type of ['loyalty-signin', 'loyalty-signout', 'loyalty-signin-error']) {
      document.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
    }
  });
}

function recordedEvents(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(
    () =>
      JSON.parse(
        JSON.stringify((window as unknown as { __signinEvents: unknown[] }).__signinEvents),
      ) as RecordedEvent[],
  );
}

const signInButton = (page: Page) =>
  page.locator('loyalty-signin-button').getByRole('button', { name: 'Sign in with your loyalty wallet' });
const shownUser = (page: Page) => page.locator('loyalty-signin-button [part="user"]');
const message = (page: Page) => page.locator('loyalty-signin-button [part="message"][role="alert"]');

/** Fills the sandbox's sign-in form as the seeded shopper, then answers the consent page. */
async function signInAtConnect(window: Page, decision: 'Allow' | 'Cancel'): Promise<void> {
  await window.getByLabel('Username').fill('demo');
  await window.getByLabel('Password').fill('demo');
  await window.getByRole('button', { name: 'Sign in' }).click();
  await window.getByRole('button', { name: decision, exact: true }).click();
}

async function openPopup(page: Page): Promise<Page> {
  const popup = page.waitForEvent('popup');
  await signInButton(page).click();
  return popup;
}

describe('sign-in journeys on the demo site', () => {
  const stack = useE2eStack({ demoSite: true });

  async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await stack.browser.newContext();
    await recordEvents(context);
    const page = await context.newPage();
    await page.goto(stack.demoUrl);
    await signInButton(page).waitFor();
    return { context, page };
  }

  it('signs in through the popup, keeps the session on reload, and signs out', async () => {
    const { context, page } = await freshPage();
    try {
      const popup = await openPopup(page);
      assert.equal(
        new URL(popup.url()).origin === stack.connectUrl || popup.url() === 'about:blank',
        true,
        popup.url(),
      );
      await signInAtConnect(popup, 'Allow');
      await popup.waitForEvent('close');
      await shownUser(page).filter({ hasText: 'Signed in as demo' }).waitFor();
      assert.ok(!page.url().includes('#'), 'no tokens in the address bar');
      const [signin] = await recordedEvents(page);
      assert.equal(signin?.type, 'loyalty-signin');
      assert.equal(signin?.detail.profile, true);
      assert.equal(signin?.detail.user?.username, 'demo');
      assert.ok(signin?.detail.user?.loyaltyId, 'the loyalty ID came with the profile');
      await saveScreenshot(page, 'signin-popup-signed-in');

      await page.reload();
      await shownUser(page).filter({ hasText: 'Signed in as demo' }).waitFor();
      // The event may come a task after the button shows the shopper: wait for it, not for the clock.
      await page.waitForFunction(() => (window as unknown as { __signinEvents: unknown[] }).__signinEvents.length > 0);
      const [restored] = await recordedEvents(page);
      assert.equal(restored?.detail.reason, 'restored');

      await page.locator('loyalty-signin-button').getByRole('button', { name: 'Sign out' }).click();
      await signInButton(page).waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.getItem('loyalty-widgets:user')), null);
      await page.reload();
      await signInButton(page).waitFor();
    } finally {
      await context.close();
    }
  });

  it('tells the shopper in plain words when they cancel consent', async () => {
    const { context, page } = await freshPage();
    try {
      const popup = await openPopup(page);
      await signInAtConnect(popup, 'Cancel');
      await message(page).filter({ hasText: "Rewards can't be credited to your wallet without signing in." }).waitFor();
      const events = await recordedEvents(page);
      assert.deepEqual(
        events.map((e) => [e.type, e.detail.code]),
        [['loyalty-signin-error', 'access_denied']],
      );
      await signInButton(page).waitFor();
      await saveScreenshot(page, 'signin-consent-cancelled');
    } finally {
      await context.close();
    }
  });

  it('reports a popup closed by the shopper', async () => {
    const { context, page } = await freshPage();
    try {
      const popup = await openPopup(page);
      await popup.getByLabel('Username').waitFor();
      await popup.close();
      await message(page).filter({ hasText: 'closed before you finished' }).waitFor();
      const events = await recordedEvents(page);
      assert.deepEqual(
        events.map((e) => e.detail.code),
        ['popup_closed'],
      );
    } finally {
      await context.close();
    }
  });

  it('refuses a sign-in response the page did not ask for, and removes it from the address bar', async () => {
    const context = await stack.browser.newContext();
    await recordEvents(context);
    const page = await context.newPage();
    try {
      await page.goto(
        `${stack.demoUrl}#id_token=a.b.c&access_token=stolen&token_type=Bearer&expires_in=3600&state=forged`,
      );
      await message(page).filter({ hasText: "didn't match a sign-in started here" }).waitFor();
      assert.equal(new URL(page.url()).hash, '');
      const events = await recordedEvents(page);
      assert.deepEqual(
        events.map((e) => [e.type, e.detail.code]),
        [['loyalty-signin-error', 'state_mismatch']],
      );
    } finally {
      await context.close();
    }
  });

  it('leaves the button usable when the shopper comes back from Connect without signing in', async () => {
    const context = await stack.browser.newContext();
    await context.addInitScript(() => {
      window.open = () => null;
    });
    const page = await context.newPage();
    try {
      await page.goto(stack.demoUrl);
      await signInButton(page).click();
      await page.waitForURL((url) => url.origin === stack.connectUrl);
      await page.goBack();
      await page.waitForURL((url) => url.href.startsWith(stack.demoUrl));
      await page.locator('loyalty-signin-button [part="button"][aria-busy="false"]').waitFor();
    } finally {
      await context.close();
    }
  });

  it('falls back to a full-page redirect when the popup is blocked, and finishes the sign-in on return', async () => {
    const context = await stack.browser.newContext();
    // What a popup blocker does: window.open returns null.
    await context.addInitScript(() => {
      window.open = () => null;
    });
    await recordEvents(context);
    const page = await context.newPage();
    try {
      await page.goto(stack.demoUrl);
      await signInButton(page).click();
      await page.waitForURL((url) => url.origin === stack.connectUrl);
      await signInAtConnect(page, 'Allow');
      await page.waitForURL((url) => url.href.startsWith(stack.demoUrl));
      await shownUser(page).filter({ hasText: 'Signed in as demo' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'tokens removed from the address bar');
      const events = await recordedEvents(page);
      assert.deepEqual(
        events.map((e) => [e.type, e.detail.reason]),
        [['loyalty-signin', 'signin']],
      );
      await saveScreenshot(page, 'signin-redirect-fallback');
    } finally {
      await context.close();
    }
  });
});

describe('sign-in expiry', () => {
  const stack = useE2eStack({ demoSite: true, sandbox: { tokenLifetimeSeconds: 4 } });

  it('signs the shopper out when the access token runs out', async () => {
    const context = await stack.browser.newContext();
    await recordEvents(context);
    const page = await context.newPage();
    try {
      await page.goto(stack.demoUrl);
      const popup = await openPopup(page);
      await signInAtConnect(popup, 'Allow');
      await shownUser(page).filter({ hasText: 'Signed in as demo' }).waitFor();
      await signInButton(page).waitFor({ timeout: 15_000 });
      const events = await recordedEvents(page);
      assert.deepEqual(
        events.map((e) => [e.type, e.detail.reason]),
        [
          ['loyalty-signin', 'signin'],
          ['loyalty-signout', 'expired'],
        ],
      );
      assert.equal(await page.evaluate(() => sessionStorage.getItem('loyalty-widgets:user')), null);
    } finally {
      await context.close();
    }
  });
});
