/**
 * Code and data at once: the script tag asks for each Marketing element's first page as soon as it
 * sees the element, while the element's code is still on its way, and the element takes that answer
 * instead of asking again. Only the merchant's endpoint is asked early, never one written in the body.
 * The `<div data-loyalty-widget>` mounts CMS editors write are asked for in the same way.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Page, Request, Route } from 'playwright-core';
import { useE2eStack } from '../support/e2e.ts';
import { proxyCall } from '../support/proxy-calls.ts';

const stack = useE2eStack({ staticSites: { shop: {} } });

/** The built file of an element, as the script tag loads it. */
async function elementFile(tag: string): Promise<string> {
  const manifest = JSON.parse(await readFile('dist/.vite/manifest.json', 'utf8')) as Record<string, { file: string }>;
  return `/dist/${manifest[`src/elements/${tag}/index.ts`]!.file}`;
}

/** Every call to a proxy the page sends, with its path and its operation and variables, in the order sent. */
function recordPosts(page: Page): { path: string; body: { operation: string; variables: unknown } }[] {
  const posts: { path: string; body: { operation: string; variables: unknown } }[] = [];
  page.on('request', (request: Request) => {
    const body = proxyCall(request);
    if (body) posts.push({ path: new URL(request.url()).pathname, body });
  });
  return posts;
}

/** A request that reads from the merchant's proxy. */
const isRead = (request: Request, operation?: string): boolean =>
  new URL(request.url()).pathname === '/api/marketing' &&
  proxyCall(request) !== undefined &&
  (operation === undefined || proxyCall(request)?.operation === operation);

describe('first pages of data, asked for with the code', () => {
  it('takes the first page the head preloaded: one request for it, made by the preload link', async () => {
    // A context of its own: nothing in the browser's cache from another test.
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    const site = stack.sites.shop;
    const before = site.marketingRequests.length;
    await page.goto(`${site.origin}/preload.html`);
    await page.locator('campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    const firstPages = site.marketingRequests
      .slice(before)
      .filter(
        (request) => request.startsWith('GET /api/marketing?operation=campaigns&') && !request.includes('nextToken'),
      );
    assert.deepEqual(firstPages, ['GET /api/marketing?operation=campaigns&limit=4']);
    // Not even a copy from the browser's cache: the page's only read of it is the link's.
    const reads = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter(({ name }) => name.includes('operation=campaigns') && !name.includes('nextToken'))
        .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    );
    assert.deepEqual(reads, ['link']);
    await context.close();
  });

  it("requests a carousel's first page while every other file is held back, and two alike share one request", async () => {
    const page = await stack.browser.newPage();
    const posts = recordPosts(page);
    const held = await elementFile('campaign-carousel');
    const heldAsked = page.waitForRequest((request) => new URL(request.url()).pathname === held);
    // Neither the carousel's code nor any shared file arrives while these routes hold them: the script
    // tag alone asks for the data, so data and code start together, one round trip after it.
    let release: () => void = () => {};
    const releasing = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route): Promise<void> => {
      await releasing;
      await route.continue();
    };
    await page.route(`**${held}`, hold);
    await page.route('**/dist/chunks/**', hold);
    const dataAsked = page.waitForRequest((request) => isRead(request));
    // The coupon's request, made by the script tag in the same run as the carousels' one.
    const couponAsked = page.waitForRequest((request) => isRead(request, 'campaign'));
    await page.goto(`${stack.sites.shop.origin}/two-carousels.html`);
    await heldAsked;
    await dataAsked;
    await couponAsked;
    assert.deepEqual(
      posts.map(({ path, body }) => [path, body]),
      [
        ['/api/marketing', { operation: 'campaigns', variables: { limit: 4 } }],
        ['/api/marketing', { operation: 'campaign', variables: { id: 'camp-harbor-beans' } }],
      ],
      'the data asked for before the carousel code or any shared file came',
    );
    release();
    const titles = page.locator('campaign-carousel [part~="title"]');
    await titles.first().waitFor({ timeout: 15_000 });
    await page.locator('campaign-carousel').nth(1).locator('[part~="title"]').first().waitFor({ timeout: 15_000 });
    await page.locator('coupon-claim [part~="title"]').first().waitFor({ timeout: 15_000 });
    // Later pages (with a nextToken) are the carousel reading on; first pages were asked once each.
    const firstPages = posts.filter(({ body }) => !(body.variables as { nextToken?: string }).nextToken);
    assert.equal(firstPages.length, 2, `first pages asked for: ${JSON.stringify(firstPages)}`);
    await page.close();
  });

  it('asks early only at the merchant endpoint: not one an element or a body <meta> names', async () => {
    const page = await stack.browser.newPage();
    const posts = recordPosts(page);
    const held = await Promise.all(['campaign-carousel', 'business-directory'].map(elementFile));
    await page.route(/\/dist\/elements\//, () => {});
    const asked = held.map((file) => page.waitForRequest((request) => new URL(request.url()).pathname === file));
    const dataAsked = page.waitForRequest((request) => isRead(request));
    await page.goto(`${stack.sites.shop.origin}/body-endpoints.html`);
    await Promise.all(asked);
    await dataAsked;
    assert.deepEqual(
      posts.map(({ path, body }) => [path, body]),
      [['/api/marketing', { operation: 'businessAccounts', variables: { limit: 12 } }]],
    );
    await page.close();
  });

  it("requests mounts' first pages while the code is held back, from the data- attributes their elements get", async () => {
    const page = await stack.browser.newPage();
    const posts = recordPosts(page);
    const tags = ['campaign-carousel', 'business-directory', 'coupon-claim'];
    const held = await Promise.all(tags.map(elementFile));
    let release: () => void = () => {};
    const releasing = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/dist\/elements\//, async (route) => {
      await releasing;
      await route.continue();
    });
    const asked = held.map((file) => page.waitForRequest((request) => new URL(request.url()).pathname === file));
    const dataAsked = page.waitForRequest((request) => isRead(request));
    await page.goto(`${stack.sites.shop.origin}/mounts.html`);
    await Promise.all(asked);
    await dataAsked;
    assert.deepEqual(
      posts.map(({ path, body }) => [path, body]),
      [
        ['/api/marketing', { operation: 'campaigns', variables: { businessAccountId: 'biz-harbor-coffee', limit: 3 } }],
        ['/api/marketing', { operation: 'businessAccounts', variables: { category: 'Cafe', limit: 2 } }],
        ['/api/marketing', { operation: 'campaign', variables: { id: 'camp-harbor-beans' } }],
      ],
      'the data asked for before the elements’ code came: one for the tag and the mount alike, none at a mount’s own endpoint',
    );
    release();
    const mounted = (tag: string) => page.locator(`[data-loyalty-widget] ${tag}`);
    await mounted('campaign-carousel').first().locator('[part~="title"]').first().waitFor({ timeout: 15_000 });
    await page.locator('body > campaign-carousel [part~="title"]').first().waitFor({ timeout: 15_000 });
    await mounted('business-directory').locator('[part~="name"]').first().waitFor({ timeout: 15_000 });
    await mounted('coupon-claim').locator('[part~="title"]').first().waitFor({ timeout: 15_000 });
    const firstPages = posts.filter(
      ({ path, body }) => path === '/api/marketing' && !(body.variables as { nextToken?: string }).nextToken,
    );
    assert.equal(firstPages.length, 3, `first pages asked for: ${JSON.stringify(firstPages)}`);
    await page.close();
  });
});
