/**
 * The proxy's server renderer (src/proxy/render/): the shared markup suite, and the first page read
 * through the proxy's own operation path and cache, with the real Marketing sandbox as upstream.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMarketingProxy, renderFirstPage, renderMount } from '../../../../src/proxy/index.ts';
import { firstPageMarkupSuite } from '../../../support/first-page-markup.ts';
import { startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';

describe('first page markup: the proxy’s renderer', () => {
  firstPageMarkupSuite(renderMount);

  it('refuses a widget without a first page and an attribute name that is not one, with a clear error', () => {
    assert.throws(() => renderMount('loyalty-signin-button', {}), /has no first page; use one of campaign-carousel/);
    assert.throws(
      () => renderMount('campaign-carousel', { 'onclick="x"': 1 }),
      /is not an attribute of <campaign-carousel>/,
    );
    assert.throws(() => renderMount('campaign-carousel', { widget: 'coupon-claim' }), /is not an attribute/);
  });
});

describe('renderFirstPage through the proxy', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());

  const proxyFor = (cache?: false) =>
    createMarketingProxy({ upstreamUrl: upstream.marketingUrl, apiKey: TEST_API_KEY, logger: () => {}, cache });

  it('prints the first page the proxy answers, and reads a cached page with no upstream call', async () => {
    const proxy = proxyFor();
    const first = await renderFirstPage(proxy, 'campaign-carousel', { limit: 2 });
    const called = upstream.stats().graphqlRequests;
    const again = await renderFirstPage(proxy, 'campaign-carousel', { limit: 2 });
    assert.equal(upstream.stats().graphqlRequests, called, 'the second page view was answered by the cache');
    assert.equal(again, first);
    assert.equal((first.match(/<li>/g) ?? []).length, 2);
    // Exactly what the browser is answered for the same read.
    const answer = await (
      await proxy(new Request('http://shop.example/api/marketing?operation=campaigns&limit=2'))
    ).text();
    assert.equal(first, renderMount('campaign-carousel', { limit: 2 }, answer));
  });

  it('prints a coupon and a directory from the proxy', async () => {
    const proxy = proxyFor();
    const coupon = await renderFirstPage(proxy, 'coupon-claim', { 'campaign-id': 'camp-harbor-beans' });
    assert.match(
      coupon,
      /^<div data-loyalty-widget="coupon-claim" data-campaign-id="camp-harbor-beans"><div data-loyalty-first-page="campaign"><h2 data-field="title">[^<]+<\/h2>/,
    );
    const directory = await renderFirstPage(proxy, 'business-directory', { limit: 3 });
    assert.match(directory, /<address>/);
  });

  it('prints the bare mount when the proxy refuses or cannot answer, and for a mount with its own endpoint', async () => {
    const proxy = proxyFor(false);
    const before = upstream.stats().graphqlRequests;
    assert.equal(
      await renderFirstPage(proxy, 'campaign-carousel', { 'business-account-id': 'x'.repeat(300) }),
      `<div data-loyalty-widget="campaign-carousel" data-business-account-id="${'x'.repeat(300)}"></div>`,
    );
    assert.equal(
      await renderFirstPage(proxy, 'campaign-carousel', { endpoint: '/elsewhere' }),
      '<div data-loyalty-widget="campaign-carousel" data-endpoint="/elsewhere"></div>',
    );
    assert.equal(await renderFirstPage(proxy, 'coupon-claim'), '<div data-loyalty-widget="coupon-claim"></div>');
    assert.equal(upstream.stats().graphqlRequests, before, 'none of them reached the upstream');
    const unreachable = createMarketingProxy({
      upstreamUrl: 'http://127.0.0.1:9/',
      apiKey: TEST_API_KEY,
      logger: () => {},
      timeoutMs: 500,
    });
    assert.equal(
      await renderFirstPage(unreachable, 'campaign-carousel', { limit: 2 }),
      '<div data-loyalty-widget="campaign-carousel" data-limit="2"></div>',
    );
  });
});
