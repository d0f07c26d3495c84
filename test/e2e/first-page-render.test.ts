/**
 * Widgets the merchant's server printed with their first page inside (renderFirstPage): the element
 * takes the page over with no request for it and nothing on the page moving, and with script off the
 * first page reads fully, laid out in the page's flow.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useE2eStack } from '../support/e2e.ts';
import { CHROMIUM_LAYOUT_SHIFT } from '../support/layout-shift.ts';

const pages = new Map([
  [
    '/printed-carousel.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Printed</title>
      <link rel="icon" href="data:," /><script type="module" src="/dist/loyalty-widgets.js"></script></head>
      <body><!-- first-page campaign-carousel {"limit":4} --></body></html>`,
  ],
]);
const stack = useE2eStack({ staticSites: { shop: { pages } } });

/**
 * In what order a page with a printed carousel, whose images arrive `delayMs` late, finished its
 * first image and asked for the carousel's code; and whether the carousel then took the page over.
 */
async function takeOverOrder(delayMs: number): Promise<string[]> {
  const context = await stack.browser.newContext();
  const page = await context.newPage();
  const order: string[] = [];
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() === 'image') await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.continue().catch(() => {});
  });
  page.on('requestfinished', (request) => request.resourceType() === 'image' && order.push('image'));
  page.on('request', (request) => request.url().endsWith('/dist/elements/campaign-carousel.js') && order.push('code'));
  await page.goto(`${stack.sites.shop.origin}/printed-carousel.html`);
  await page.locator('[data-loyalty-widget] campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
  await context.close();
  return order;
}

/** The first pages the page asks the proxy for (later pages carry a nextToken). */
const firstPageReads = (requests: string[]) =>
  requests.filter((request) => /[?&]operation=/.test(request) && !request.includes('nextToken'));

describe('first pages printed by the server', () => {
  it('are taken over by their elements with no request for them and no layout shift', async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    const site = stack.sites.shop;
    // What the server printed, as it arrives (the element may have taken it over by the time the page is read).
    const html = await (await fetch(`${site.origin}/first-page.html`)).text();
    const printed = [...html.matchAll(/<h2 data-field="(?:title|name)">([^<]*)<\/h2>/g)].map(([, title]) => title);
    assert.ok(printed.length >= 3, 'the server printed the first pages');
    const before = site.marketingRequests.length;
    await page.goto(`${site.origin}/first-page.html`);
    await page.locator('[data-loyalty-widget] campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    await page.locator('[data-loyalty-widget] coupon-claim [part~="title"]').first().waitFor({ timeout: 15_000 });
    await page.locator('[data-loyalty-widget] business-directory [part~="name"]').first().waitFor({ timeout: 15_000 });
    const carouselTitles = await page
      .locator('[data-loyalty-widget] campaign-carousel [part~="title"]')
      .allTextContents();
    assert.equal(carouselTitles[0]?.trim(), printed[0], 'the element shows the page the server printed');
    assert.deepEqual(firstPageReads(site.marketingRequests.slice(before)), [], 'no first page was asked for');
    assert.equal(await page.evaluate(CHROMIUM_LAYOUT_SHIFT), 0);
    await context.close();
  });

  it('read fully with script off: every title, subtitle and price, in the page’s flow', async () => {
    // A phone's width: a first page that does not wrap onto the page's width would run off it.
    const context = await stack.browser.newContext({ javaScriptEnabled: false, viewport: { width: 400, height: 800 } });
    const page = await context.newPage();
    const site = stack.sites.shop;
    const answer = (await (await fetch(`${site.origin}/api/marketing?operation=campaigns&limit=4`)).json()) as {
      data: { campaigns: { items: { content: { title: string; subtitle: string | null } }[] } };
    };
    await page.goto(`${site.origin}/first-page.html`);
    const carousel = page.locator('[data-loyalty-widget="campaign-carousel"]');
    for (const { content } of answer.data.campaigns.items) {
      for (const text of [content.title, content.subtitle].filter((value): value is string => Boolean(value))) {
        const line = carousel.getByText(text, { exact: true });
        assert.ok(await line.isVisible(), `"${text}" shows`);
        // Laid out in the flow: the paragraph after the carousel starts below every line of it.
        const [box, after] = await Promise.all([line.boundingBox(), page.locator('#after-carousel').boundingBox()]);
        assert.ok(box && after && box.y + box.height <= after.y, `"${text}" is above what follows the carousel`);
        assert.ok(box.x >= 0 && box.x + box.width <= 400, `"${text}" is within the page's width`);
      }
    }
    const shops = page.locator('[data-loyalty-widget="business-directory"] address');
    assert.ok((await shops.count()) > 0 && (await shops.first().isVisible()), 'the businesses’ addresses show');
    await context.close();
  });

  it('are taken over once the page shows them, their images included: the code never competes with them', async () => {
    const order = await takeOverOrder(1500);
    assert.ok(order.indexOf('image') >= 0 && order.indexOf('image') < order.indexOf('code'), order.join(' '));
  });

  it('are taken over after 3 s at most when their images take longer', async () => {
    const order = await takeOverOrder(6000);
    assert.ok(order.indexOf('code') >= 0, 'the code was fetched');
    assert.ok(order.indexOf('image') === -1 || order.indexOf('code') < order.indexOf('image'), order.join(' '));
  });
});
