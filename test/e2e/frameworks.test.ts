/**
 * The elements inside a React 19 app and a Vue 3 app, in the system Chromium, against the sandbox
 * and the proxy: values set from the framework's state reach the elements, events are handled with
 * the framework's own syntax, and elements the framework creates and removes load and clean up.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import type { Page } from 'playwright-core';
import { demoSitePlugins } from '../../demo/vite-plugins.ts';
import { withoutTrailingSlash } from '../../src/shared/url.ts';
import { useE2eStack } from '../support/e2e.ts';
import { proxyCall } from '../support/proxy-calls.ts';

const root = fileURLToPath(new URL('./fixtures/frameworks/', import.meta.url));
const entry = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

describe('the elements in framework apps', () => {
  const stack = useE2eStack();
  let site: ViteDevServer;
  let origin: string;

  before(async () => {
    const { sandbox } = stack;
    site = await createServer({
      configFile: false,
      root,
      logLevel: 'warn',
      clearScreen: false,
      server: { port: 0, host: 'localhost' },
      // `import 'loyalty-widgets'` as in an app that installed the package, from source here.
      resolve: { alias: { 'loyalty-widgets': entry } },
      plugins: demoSitePlugins({
        upstreamUrl: sandbox.marketingUrl,
        apiKey: sandbox.apiKey,
        connectUrl: sandbox.connectUrl,
        clientId: 'unused',
        accessLog: false,
      }),
    });
    await site.listen();
    origin = withoutTrailingSlash(site.resolvedUrls!.local[0]!);
  });

  after(() => site?.close());

  /** Marketing requests the page makes, as `operation` + variables. */
  function recordOperations(page: Page): { operation: string; variables: Record<string, unknown> }[] {
    const seen: { operation: string; variables: Record<string, unknown> }[] = [];
    page.on('request', (request) => {
      const call = new URL(request.url()).pathname === '/api/marketing' ? proxyCall(request) : undefined;
      if (call) seen.push(call);
    });
    return seen;
  }

  for (const framework of ['react', 'vue']) {
    describe(`the elements in a ${framework === 'react' ? 'React 19' : 'Vue 3'} app`, () => {
      it('take values from state, send events to the framework’s handlers, and come and go with rendering', async () => {
        const page = await stack.browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        const operations = recordOperations(page);
        try {
          await page.goto(`${origin}/${framework}.html`);
          const slides = page.locator('campaign-carousel [part~="slide"]');
          await slides.first().waitFor();
          const campaignPages = () =>
            operations.filter((op) => op.operation === 'campaigns').map((op) => op.variables.limit);
          assert.equal(campaignPages()[0], 2, 'pages of 2, from state');

          // State changes the value: the carousel starts again with pages of the new size.
          await page.click('#more');
          assert.equal(
            await page.locator('campaign-carousel').evaluate((el) => (el as HTMLElement & { limit: number }).limit),
            3,
          );
          for (const deadline = Date.now() + 5000; !campaignPages().includes(3) && Date.now() < deadline;)
            await page.waitForTimeout(50);
          assert.ok(campaignPages().includes(3), JSON.stringify(campaignPages()));

          // An element event reaches the framework's handler, which renders the new state.
          const title = (await slides.nth(1).locator('[part~="title"]').textContent())!;
          await slides.nth(1).locator('[part~="description"]').click();
          await page.locator('#selected').filter({ hasText: title }).waitFor();

          // A bound attribute: the coupon follows the campaign id in state, and its claim event is handled.
          const claim = page.locator('coupon-claim');
          await claim.locator('[part~="title"]').filter({ hasText: 'Morning latte for less' }).waitFor();
          await page.click('#other-coupon');
          await claim.locator('[part~="title"]').filter({ hasText: 'Deli lunch deal' }).waitFor();
          await claim.getByRole('button', { name: 'Get coupon' }).click();
          const code = (await claim.locator('[part~="code"]').textContent())!;
          await page.locator('#claimed').filter({ hasText: code }).waitFor();

          // Removed by rendering, then created again: it loads again and nothing fails.
          await page.locator('business-directory [part~="name"]').first().waitFor();
          await page.click('#toggle-directory');
          assert.equal(await page.locator('business-directory').count(), 0);
          await page.click('#toggle-directory');
          await page.locator('business-directory [part~="name"]').first().waitFor();
          assert.equal(
            await page.locator('business-directory [part~="card"]').count(),
            2,
            'limit 2 on the new element',
          );
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      });
    });
  }
});
