/**
 * A first page the head preloaded, printed inside its bare element while the element's code is still
 * on its way (src/first-page.ts, loaded by the page's own line or by the script tag): the same markup
 * the servers print, laid over the element's held space by the stylesheet, taken over by the element
 * with no second request and no layout shift. Printed only from the head's preload of the merchant's
 * endpoint, only for a carousel or a coupon, only where the stylesheet lays it out, and as text: an
 * answer's markup never becomes the page's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { useE2eStack } from '../support/e2e.ts';
import { CHROMIUM_LAYOUT_SHIFT } from '../support/layout-shift.ts';
import { renderMount } from '../../src/proxy/render/index.ts';

const PRELOAD = '<link rel="preload" as="fetch" crossorigin href="/api/marketing?operation=campaigns&amp;limit=4" />';
const PRINTER = '<script type="module" async src="/dist/first-page.js"></script>';
const STYLESHEET = '<link rel="stylesheet" href="/dist/loyalty-widgets.css" />';

const page = (head: string, body = '<campaign-carousel heading-level="3" limit="4"></campaign-carousel>') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Preloaded</title>
    <link rel="icon" href="data:," />${head}<script type="module" src="/dist/loyalty-widgets.js"></script></head>
    <body><h1>Offers</h1>${body}<p id="below">Below the carousel.</p></body></html>`;

const pages = new Map([
  ['/preload-printed.html', page(`${STYLESHEET}${PRELOAD}${PRINTER}`)],
  // Without the printer's line the script tag loads it, a round trip later, still before the element's code.
  ['/preload-no-printer-line.html', page(`${STYLESHEET}${PRELOAD}`)],
  ['/preload-no-stylesheet.html', page(`${PRELOAD}${PRINTER}`)],
  ['/no-preload.html', page(`${STYLESHEET}${PRINTER}`)],
  // A directory's cards are as tall as their text: printed after the first paint, they would push the
  // page down.
  [
    '/preload-directory.html',
    page(
      `${STYLESHEET}<link rel="preload" as="fetch" crossorigin href="/api/marketing?operation=businessAccounts&amp;limit=3" />`,
      '<business-directory limit="3"></business-directory>',
    ),
  ],
  // A preload link the body holds (an editor may write one) is not the head's.
  [
    '/preload-in-body.html',
    page(`${STYLESHEET}${PRINTER}`, `${PRELOAD}<campaign-carousel heading-level="3" limit="4"></campaign-carousel>`),
  ],
  [
    '/preload-own-endpoint.html',
    page(
      `${STYLESHEET}${PRELOAD}${PRINTER}`,
      '<campaign-carousel endpoint="/api/marketing" heading-level="3" limit="4"></campaign-carousel>',
    ),
  ],
]);
const stack = useE2eStack({ staticSites: { shop: { pages } } });

const PRINTED = 'campaign-carousel > [data-loyalty-first-page]';

/**
 * A page whose elements' code (every file but the script tag and the printer) is held until
 * `release()`; `asked` lists the paths of the files the page asked for.
 */
async function holdingCode(context: BrowserContext): Promise<{ page: Page; release(): void; asked: string[] }> {
  const opened = await context.newPage();
  let release: () => void = () => {};
  const releasing = new Promise<void>((resolve) => (release = resolve));
  const asked: string[] = [];
  opened.on('request', (request) => asked.push(new URL(request.url()).pathname));
  const hold = async (route: Route): Promise<void> => {
    await releasing;
    await route.continue().catch(() => {});
  };
  await opened.route('**/dist/elements/**', hold);
  await opened.route('**/dist/chunks/**', hold);
  return { page: opened, release, asked };
}

/** The proxy's answer to the carousel's first request, as the site serves it. */
async function firstAnswer(): Promise<string> {
  const response = await fetch(`${stack.sites.shop.origin}/api/marketing?operation=campaigns&limit=4`);
  assert.equal(response.status, 200);
  return response.text();
}

/** What a page printed inside its `tag` element while the code was held, or null when it printed nothing. */
async function printedWhileHeld(
  path: string,
  tag = 'campaign-carousel',
): Promise<{ html: string | null; asked: string[] }> {
  const context = await stack.browser.newContext();
  const { page: opened, release, asked } = await holdingCode(context);
  const codeAsked = opened.waitForRequest((request) => request.url().endsWith(`/dist/elements/${tag}.js`));
  await opened.goto(`${stack.sites.shop.origin}${path}`);
  // The carousel's code has been asked for (and is held): anything printed from the preload is there by now.
  await codeAsked;
  await opened.waitForTimeout(1_000);
  const html = await opened.evaluate(
    (selector) => document.querySelector(selector)?.innerHTML ?? null,
    `${tag} > [data-loyalty-first-page]`,
  );
  release();
  await context.close();
  return { html, asked };
}

describe('a first page the head preloaded, printed before the element’s code arrives', () => {
  it('shows the servers’ markup at once, then the element takes it over: no second request, no shift', async () => {
    const context = await stack.browser.newContext();
    const { page: opened, release } = await holdingCode(context);
    const site = stack.sites.shop;
    const answer = await firstAnswer();
    const before = site.marketingRequests.length;
    await opened.goto(`${site.origin}/preload-printed.html`);
    const title = opened.locator(`${PRINTED} [data-field="title"]`).first();
    await title.waitFor({ timeout: 15_000 });
    assert.equal(await opened.evaluate(() => customElements.get('campaign-carousel')), undefined);
    assert.ok(await title.isVisible(), 'the printed titles are painted');
    // The very markup the server renderers print for this answer, inside the element.
    const server = renderMount('campaign-carousel', { 'heading-level': 3, limit: 4 }, answer);
    const expected = /<div data-loyalty-first-page="campaigns">(.*)<script type="application\/json">/s.exec(
      server,
    )?.[1];
    assert.ok(expected, 'the server printed a first page');
    const same = await opened.evaluate(
      ([selector, markup]) => {
        const parsed = document.createElement('template');
        parsed.innerHTML = markup!;
        return parsed.innerHTML === document.querySelector(selector!)!.innerHTML;
      },
      [PRINTED, expected],
    );
    assert.ok(same, 'the printed page is the servers’ markup');
    const printedTitles = await opened.locator(`${PRINTED} [data-field="title"]`).allTextContents();
    release();
    await opened.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    assert.equal(await opened.locator(PRINTED).count(), 0, 'the printed page left with the take-over');
    const shown = await opened.locator('campaign-carousel [part~="title"]').allTextContents();
    // The same first page (a next one may follow it).
    assert.deepEqual(
      shown.slice(0, printedTitles.length).map((text) => text.trim()),
      printedTitles,
    );
    const firstPages = site.marketingRequests
      .slice(before)
      .filter((request) => request.includes('operation=campaigns') && !request.includes('nextToken'));
    assert.deepEqual(firstPages, ['GET /api/marketing?operation=campaigns&limit=4'], 'the preload link’s request only');
    await opened.waitForTimeout(300);
    assert.equal(await opened.evaluate(CHROMIUM_LAYOUT_SHIFT), 0);
    await context.close();
  });

  it('without the printer’s line too: the script tag loads it', async () => {
    const { html, asked } = await printedWhileHeld('/preload-no-printer-line.html');
    assert.match(html ?? '', /data-field="title"/);
    assert.ok(asked.includes('/dist/first-page.js'));
  });

  for (const [what, path] of [
    ['with no preload in the head', '/no-preload.html'],
    ['from a preload link in the body', '/preload-in-body.html'],
    ['for an element with an endpoint of its own', '/preload-own-endpoint.html'],
  ] as const) {
    it(`prints nothing ${what}, and loads no printer`, async () => {
      const { html, asked } = await printedWhileHeld(path);
      assert.equal(html, null);
      // Only the page's own line asks for it: the script tag does not.
      assert.ok(asked.filter((file) => file === '/dist/first-page.js').length <= 1);
    });
  }

  it('prints no directory, and loads no printer for one', async () => {
    const { html, asked } = await printedWhileHeld('/preload-directory.html', 'business-directory');
    assert.equal(html, null);
    assert.ok(!asked.includes('/dist/first-page.js'), asked.join());
  });

  it('prints nothing where the page has no stylesheet to lay it over the held space', async () => {
    const { html } = await printedWhileHeld('/preload-no-stylesheet.html');
    assert.equal(html, null);
  });

  it('prints an answer’s markup as text, and only the URLs the elements accept', async () => {
    const answer = JSON.parse(await firstAnswer()) as {
      data: { campaigns: { items: { content: Record<string, unknown> }[] } };
    };
    const content = answer.data.campaigns.items[0]!.content;
    content.title = '<img src=x onerror="window.__printed=1">Beans & <b>more</b>';
    content.subtitle = '"><script>window.__printed=2</script>';
    for (const key of Object.keys(content)) if (/^img\d+$/.test(key)) content[key] = { url: 'javascript:alert(1)' };
    content.img640 = { url: 'http://tracker.example/pixel.png' };
    const context = await stack.browser.newContext();
    const { page: opened, release } = await holdingCode(context);
    await opened.route('**/api/marketing?operation=campaigns*', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'application/json', 'loyalty-proxy': '1' },
        body: JSON.stringify(answer),
      }),
    );
    await opened.goto(`${stack.sites.shop.origin}/preload-printed.html`);
    const title = opened.locator(`${PRINTED} [data-field="title"]`).first();
    await title.waitFor({ timeout: 15_000 });
    assert.equal(await title.textContent(), content.title);
    assert.equal(await opened.locator(`${PRINTED} [data-field="subtitle"]`).first().textContent(), content.subtitle);
    const found = await opened.evaluate((selector) => {
      const printed = document.querySelector(selector)!;
      return {
        elements: [...printed.querySelectorAll('*')].map((element) => element.localName),
        sources: [...printed.querySelectorAll('img')].map((image) => `${image.src} ${image.srcset}`),
        ran: (window as unknown as { __printed?: number }).__printed ?? 0,
      };
    }, PRINTED);
    assert.equal(found.ran, 0);
    assert.ok(!found.elements.includes('script') && !found.elements.includes('b'), found.elements.join());
    // The first slide's image URLs were all refused: it has no image; none anywhere is the tracker's.
    assert.ok(found.sources.every((source) => !source.includes('tracker.example') && !source.includes('javascript:')));
    release();
    await context.close();
  });
});
