/**
 * The built script tag imports no other file and holds the plumbing every element shares; the
 * elements' files import it from there (vite.config.ts). Under another address than the elements'
 * imports (a query a CMS adds), the page runs two copies of it, and the first does the page's work
 * once; the headless entries never run it (scripts/vite-entry-copies.ts). What every copy must see is
 * kept on the page (src/shared/page-registry.ts): the merchant's strings registered through the
 * script tag, a language's strings it started loading, and the callback page it found beside it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useE2eStack } from '../support/e2e.ts';

const head = (lang: string, script = '', src = '/dist/loyalty-widgets.js', body = ''): string => `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8" />
    <title>Copies</title>
    <script type="module" src="${src}"></script>
    ${script}
  </head>
  <body>
    <campaign-carousel limit="4"></campaign-carousel>
    ${body}
  </body>
</html>`;

const pages = new Map([
  [
    '/registered.html',
    head(
      'en',
      `<script type="module">
        import { registerMessages } from '/dist/loyalty-widgets.js';
        registerMessages({ en: { 'carousel.next': 'Onward' } });
      </script>`,
    ),
  ],
  ['/french.html', head('fr')],
  [
    '/versioned.html',
    head(
      'en',
      '',
      '/dist/loyalty-widgets.js?ver=0.1.0',
      '<loyalty-signin-button authority="%CONNECT_URL%" client-id="%CLIENT_ID%"></loyalty-signin-button>',
    ),
  ],
  [
    '/headless.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Headless</title></head><body>
      <campaign-carousel></campaign-carousel>
      <script type="module">
        const { session } = await import('/dist/connect.js');
        const { MarketingClient } = await import('/dist/marketing.js');
        window.__loaded = typeof session.subscribe === 'function' && typeof MarketingClient === 'function';
      </script></body></html>`,
  ],
]);

const stack = useE2eStack({
  staticSites: { shop: { pages } },
  app: { name: 'Copies shop', redirectPaths: { shop: ['/dist/callback.html'] } },
});

describe('the script tag and the elements sharing its plumbing', () => {
  it('shows the strings a merchant registers through the script tag', async () => {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.sites.shop.origin}/registered.html`);
    const next = page.locator('campaign-carousel [part~="next-button"]');
    await next.waitFor({ timeout: 15_000 });
    assert.equal(await next.getAttribute('aria-label'), 'Onward');
    // Registered after the element rendered: it renders again with them.
    await page.evaluate(async () => {
      const { registerMessages } = (await import('/dist/loyalty-widgets.js' as string)) as {
        registerMessages(messages: Record<string, Record<string, string>>): void;
      };
      registerMessages({ en: { 'carousel.next': 'Further' } });
    });
    await page.waitForFunction(
      () =>
        document
          .querySelector('campaign-carousel')
          ?.shadowRoot?.querySelector('[part~="next-button"]')
          ?.getAttribute('aria-label') === 'Further',
    );
    await page.close();
  });

  it("loads a language's strings once, started by the script tag and used by the element", async () => {
    const page = await stack.browser.newPage();
    const stringFiles: string[] = [];
    page.on('request', (request) => {
      if (/\/dist\/chunks\/fr-[\w-]+\.js$/.test(new URL(request.url()).pathname)) stringFiles.push(request.url());
    });
    await page.goto(`${stack.sites.shop.origin}/french.html`);
    const next = page.locator('campaign-carousel [part~="next-button"]');
    await next.waitFor({ timeout: 15_000 });
    assert.equal(await next.getAttribute('aria-label'), 'Diapositive suivante');
    assert.equal(stringFiles.length, 1, `French strings fetched: ${stringFiles.join(', ')}`);
    await page.close();
  });

  it('under a query the elements do not carry, does the page’s work once: one first page, the callback page kept', async () => {
    const page = await stack.browser.newPage();
    const scripts: string[] = [];
    const firstPages: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/dist/loyalty-widgets.js') scripts.push(url.search);
      const read = `${url.search}${request.postData() ?? ''}`;
      if (url.pathname === '/api/marketing' && read.includes('campaigns') && !read.includes('nextToken'))
        firstPages.push(request.url());
    });
    await page.goto(`${stack.sites.shop.origin}/versioned.html`);
    await page.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    // The page's script tag, and the same file under the address the elements' files import.
    assert.deepEqual(scripts.sort(), ['', '?ver=0.1.0']);
    assert.equal(firstPages.length, 1, `first pages asked for: ${firstPages.join(', ')}`);
    // The copy under the plain address found no script tag of its own: had it started too, the
    // sign-in would come back to this page rather than to the callback page beside the script.
    const popup = page.waitForEvent('popup');
    await page.locator('loyalty-signin-button').getByRole('button').first().click();
    const opened = await popup;
    await opened.waitForURL((url) => url.searchParams.has('redirect_uri'));
    const auth = new URL(opened.url());
    assert.equal(auth.searchParams.get('redirect_uri'), `${stack.sites.shop.origin}/dist/callback.html`);
    await page.close();
  });

  it('never runs the script tag from the headless entries', async () => {
    const page = await stack.browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${stack.sites.shop.origin}/headless.html`);
    await page.waitForFunction(() => (window as unknown as { __loaded?: boolean }).__loaded === true);
    assert.equal(requests.includes('/dist/loyalty-widgets.js'), false, requests.join(', '));
    assert.equal(await page.evaluate(() => customElements.get('campaign-carousel')), undefined);
    await page.close();
  });
});
