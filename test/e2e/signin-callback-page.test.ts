/**
 * The standalone callback page: a merchant page signs in by full-page redirect with the shipped
 * callback page as its redirect URI; the callback page runs the checks, keeps the session and goes
 * back to the page, which shows the shopper. A page of the site with the script tag and no button does
 * the same. Served by vite from the repository sources, against the
 * sandbox's Connect.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ViteDevServer } from 'vite';
import type { Page } from 'playwright-core';
import { withoutTrailingSlash } from '../../src/shared/url.ts';
import { saveScreenshot, useE2eStack } from '../support/e2e.ts';

describe('the standalone callback page, and any page as redirect URI', () => {
  const stack = useE2eStack({ demoSite: true });
  let site: ViteDevServer;
  let siteUrl: string;
  let clientId: string;

  before(async () => {
    site = await createServer({
      configFile: false,
      root: process.cwd(),
      logLevel: 'warn',
      server: { port: 0, host: 'localhost' },
    });
    await site.listen();
    siteUrl = withoutTrailingSlash(site.resolvedUrls!.local[0]!);
    const app = await stack.sandbox.registerApp({
      name: 'Callback page test',
      redirectUris: [`${siteUrl}/test/browser/fixtures/callback.html`, `${siteUrl}/test/browser/fixtures/landing.html`],
    });
    clientId = app.app_id;
  });
  after(() => site?.close());

  /** Clicks the button on `start`, signs in and consents at Connect, and waits to be back, signed in. */
  async function signInByRedirect(page: Page, start: string): Promise<void> {
    await page.goto(start);
    await page
      .locator('loyalty-signin-button')
      .getByRole('button', { name: 'Sign in with your loyalty wallet' })
      .click();
    await page.waitForURL((url) => url.origin === stack.connectUrl);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill('demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL(start);
    await page.locator('loyalty-signin-button [part="user"]').filter({ hasText: 'Signed in as demo' }).waitFor();
  }

  it('finishes a redirect sign-in and goes back to the page that started it', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    try {
      const start = `${siteUrl}/test/browser/fixtures/signin-page.html?${new URLSearchParams({ authority: stack.connectUrl, 'client-id': clientId })}`;
      await signInByRedirect(page, start);
      assert.equal(new URL(page.url()).hash, '');
      await saveScreenshot(page, 'signin-callback-page-redirect');
    } finally {
      await context.close();
    }
  });

  it('finishes a redirect sign-in on any page of the site with the script tag, even one without a button', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    try {
      const start = `${siteUrl}/test/browser/fixtures/signin-page.html?${new URLSearchParams({
        authority: stack.connectUrl,
        'client-id': clientId,
        'redirect-uri': '/test/browser/fixtures/landing.html',
      })}`;
      await signInByRedirect(page, start);
      assert.equal(new URL(page.url()).hash, '');
    } finally {
      await context.close();
    }
  });

  it('uses a response it was not waiting for for nothing', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(
        `${siteUrl}/test/browser/fixtures/callback.html#id_token=a.b.c&access_token=x&token_type=Bearer&expires_in=3600&state=forged`,
      );
      await page.getByText('There is no sign-in in progress').waitFor();
      assert.equal(new URL(page.url()).hash, '');
      assert.equal(await page.evaluate(() => sessionStorage.getItem('loyalty-widgets:user')), null);
      const referrer = await page.locator('meta[name="referrer"]').getAttribute('content');
      assert.equal(referrer, 'no-referrer');
    } finally {
      await context.close();
    }
  });
});
