/**
 * Signing in from the built script tag (dist/, as a merchant uploads it) on static pages under a
 * strict Content-Security-Policy: by default through the shipped dist/callback.html beside the script
 * tag, and through the callback page a button's redirect-uri names. Needs a build (`npm run test:e2e` builds first).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { saveScreenshot, signInThroughPopup, useE2eStack } from '../support/e2e.ts';
import { strictCsp } from '../support/static-site.ts';

const stack = useE2eStack({
  staticSites: { strict: { strictCsp: true } },
  app: { name: 'Strict shop', redirectPaths: { strict: ['/dist/callback.html'] } },
});

describe('sign-in from the script tag under a strict CSP', () => {
  for (const [name, path] of [
    ['by default, through the shipped callback page beside the script tag', '/strict-csp.html'],
    ['through the callback page its redirect-uri names', '/signin-callback-csp.html'],
  ] as const) {
    it(`signs in through the popup ${name}, without violations`, async () => {
      const context = await stack.browser.newContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        const response = await page.goto(`${stack.sites.strict.origin}${path}`);
        const policy = strictCsp(stack.connectUrl, new URL(stack.marketingUrl).origin)(stack.sites.strict.origin);
        assert.equal(response?.headers()['content-security-policy'], policy, 'the page is served under the policy');
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
