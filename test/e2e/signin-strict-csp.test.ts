/**
 * Signing in from the built script tag (dist/, as a merchant uploads it) on static pages under a
 * strict Content-Security-Policy: through the page itself as redirect URI, and through the shipped
 * dist/callback.html. Needs a build (`npm run test:e2e` builds first).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { startStaticSite, strictCsp, type StaticSite } from '../support/static-site.ts';
import { launchChromium, saveScreenshot, signInThroughPopup } from '../support/e2e.ts';

let sandbox: RunningSandbox;
let site: StaticSite;
let browser: Browser;
let dataDir: string;

before(async () => {
  await access('dist/callback.html').catch(() => {
    throw new Error('dist/ is missing or stale: run `npm run build` (npm run test:e2e does) first');
  });
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-signin-csp-'));
  sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir });
  const replacements: Record<string, string> = { '%CONNECT_URL%': sandbox.connectUrl };
  site = await startStaticSite({
    upstreamUrl: sandbox.marketingUrl,
    apiKey: sandbox.apiKey,
    connectUrl: sandbox.connectUrl,
    replacements,
    csp: strictCsp(sandbox.connectUrl, new URL(sandbox.marketingUrl).origin),
  });
  const app = await sandbox.registerApp({
    name: 'Strict shop',
    redirectUris: [`${site.origin}/strict-csp.html`, `${site.origin}/dist/callback.html`],
  });
  replacements['%CLIENT_ID%'] = app.app_id;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await sandbox?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('sign-in from the script tag under a strict CSP', () => {
  for (const [name, path] of [
    ['with the page itself as redirect URI', '/strict-csp.html'],
    ['through the shipped callback page', '/signin-callback-csp.html'],
  ] as const) {
    it(`signs in through the popup ${name}, without violations`, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${site.origin}${path}`);
        await signInThroughPopup(page);
        await page.locator('loyalty-signin-button [part="user"]').filter({ hasText: 'Signed in as demo' }).waitFor();
        const violations = await page.evaluate(
          () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
        );
        assert.deepEqual(violations, []);
        assert.deepEqual(errors, []);
        await saveScreenshot(page, `signin-strict-csp-${path.slice(1, -5)}`);
      } finally {
        await context.close();
      }
    });
  }
});
