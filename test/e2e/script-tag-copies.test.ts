/**
 * The built script tag imports no other file: it carries its own copy of what it needs to start
 * (scripts/vite-entry-copies.ts), and the elements' files bring theirs. What both copies must see is
 * kept on the page (src/shared/page-registry.ts): the merchant's strings registered through the
 * script tag, a language's strings it started loading, and the callback page it found beside it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useE2eStack } from '../support/e2e.ts';

const head = (lang: string, script = ''): string => `<!doctype html>
<html lang="${lang}">
  <head>
    <meta charset="utf-8" />
    <title>Copies</title>
    <script type="module" src="/dist/loyalty-widgets.js"></script>
    ${script}
  </head>
  <body>
    <campaign-carousel limit="4"></campaign-carousel>
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
]);

const stack = useE2eStack({ staticSites: { shop: { pages } } });

describe('the script tag and the elements, each with its own copy of what they share', () => {
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
});
