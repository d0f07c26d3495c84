/**
 * Reads sent as GET over real HTTP, with the real Marketing sandbox as upstream: the same answer as
 * the POST, through the same cache (one upstream call for both), with an ETag and the cache's
 * Cache-Control, 304 for a copy the client has, the same origin rules, and never a mutation.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

describe('Marketing proxy reads as GET', () => {
  let upstream: Upstream;
  let proxy: ProxyUnderTest;
  const shop = 'https://shop.example';

  before(async () => {
    upstream = await startUpstream();
    proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, allowedOrigins: [shop] });
  });
  after(async () => {
    await proxy.close();
    await upstream.dispose();
  });

  const get = (query: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}?${query}`, { headers });

  it('answers what the POST answers, from the same cache entry, with an ETag a CDN can keep', async () => {
    const posted = await post(proxy.url, { operation: 'campaigns', variables: { limit: 3 } });
    const before = upstream.stats().graphqlRequests;
    const response = await get('operation=campaigns&limit=3');
    assert.equal(response.status, 200);
    assert.equal(await response.text(), posted.text);
    assert.equal(upstream.stats().graphqlRequests, before, 'the GET was answered from the POST’s cache entry');
    assert.match(response.headers.get('cache-control') ?? '', /^public, max-age=\d+/);
    assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
    assert.equal(response.headers.get('x-cache'), 'HIT');
    assert.equal(posted.headers.get('etag'), null, 'a POST is cached by no one and gets no ETag');
  });

  it('answers 304 with no body to a client that has the answer, and 200 to one whose copy is old', async () => {
    const first = await get('operation=businessAccounts&limit=2');
    const etag = first.headers.get('etag')!;
    const again = await get('operation=businessAccounts&limit=2', { 'if-none-match': `"stale", W/${etag}` });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.equal(again.headers.get('etag'), etag);
    assert.match(again.headers.get('cache-control') ?? '', /^public/);
    const old = await get('operation=businessAccounts&limit=2', { 'if-none-match': '"stale"' });
    assert.equal(old.status, 200);
    assert.equal(old.headers.get('etag'), etag);
  });

  it('keeps the origin rules: a listed origin is let in by name, with Vary: Origin; another is refused', async () => {
    const listed = await get('operation=campaigns&limit=3', { origin: shop });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('access-control-allow-origin'), shop);
    assert.match(listed.headers.get('vary') ?? '', /Origin/);
    const other = await get('operation=campaigns&limit=3', { origin: 'https://evil.example' });
    assert.equal(other.status, 403);
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    assert.equal(other.headers.get('etag'), null);
  });

  it('reads typed variables from the query string and refuses what the POST refuses', async () => {
    const one = await get('operation=campaign&id=camp-harbor-beans');
    assert.equal(one.status, 200, await one.clone().text());
    assert.equal(((await one.json()) as { data: { campaign: { id: string } } }).data.campaign.id, 'camp-harbor-beans');
    const before = upstream.stats().graphqlRequests;
    const refusals: [string, number, string][] = [
      ['', 400, 'bad_request'],
      ['operation=campaigns&operation=campaign', 400, 'bad_request'],
      ['operation=nope', 400, 'unknown_operation'],
      ['operation=campaigns&limit=six', 400, 'invalid_variables'],
      ['operation=campaigns&limit=1.5', 400, 'invalid_variables'],
      ['operation=campaigns&limit=99', 400, 'invalid_variables'],
      ['operation=campaigns&limit=2&limit=3', 400, 'invalid_variables'],
      ['operation=campaigns&query=%7B__schema%7D', 400, 'invalid_variables'],
      ['operation=campaign', 400, 'invalid_variables'],
    ];
    for (const [query, status, code] of refusals) {
      const response = await get(query);
      assert.equal(response.status, status, query);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, code, query);
      assert.equal(response.headers.get('cache-control'), 'no-store', query);
    }
    assert.equal(upstream.stats().graphqlRequests, before, 'nothing refused reached the upstream');
  });

  it('never mints a coupon from a GET, which a link or a form could send', async () => {
    const minted = upstream.stats().couponsMinted;
    const response = await get('operation=requestCoupon&campaignId=camp-harbor-beans');
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST, OPTIONS');
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'method_not_allowed');
    assert.equal(upstream.stats().couponsMinted, minted);
  });
});
