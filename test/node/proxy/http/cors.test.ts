/**
 * Who may call the proxy from a browser, checked over real HTTP: same-origin without configuration
 * (also when mounted under a path in vite's connect stack, as the demo site does), listed origins
 * with CORS headers and preflight, every other origin refused with 403 and no CORS headers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { createMarketingProxy } from '../../../../src/proxy/index.ts';
import { toNodeHandler } from '../../../../src/proxy/node.ts';
import {
  closeServer,
  listen,
  post,
  serveProxy,
  startUpstream,
  TEST_API_KEY,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';

const SHOP = 'https://shop.example';
const campaigns = { operation: 'campaigns', variables: { limit: 1 } };

describe('Marketing proxy CORS', () => {
  let upstream: Upstream;
  let proxy: ProxyUnderTest;

  before(async () => {
    upstream = await startUpstream();
    proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, allowedOrigins: [SHOP, 'http://localhost:3000'] });
  });
  after(async () => {
    await proxy.close();
    await upstream.dispose();
  });

  it('serves same-origin requests without configuration and without CORS headers', async () => {
    const reply = await post(proxy.url, campaigns, { origin: proxy.origin });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), null);
    assert.equal(reply.headers.get('vary'), 'Origin', 'the answer differs for listed origins');
  });

  it('serves requests without an Origin (not from a cross-origin page)', async () => {
    const reply = await post(proxy.url, campaigns);
    assert.equal(reply.status, 200);
  });

  it('serves listed origins with CORS headers, exposing Retry-After and X-Cache', async () => {
    const reply = await post(proxy.url, campaigns, { origin: SHOP });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), SHOP);
    assert.match(reply.headers.get('access-control-expose-headers') ?? '', /retry-after/);
    assert.match(reply.headers.get('vary') ?? '', /Origin/);
    const error = await post(proxy.url, { operation: 'nope' }, { origin: SHOP });
    assert.equal(error.status, 400);
    assert.equal(error.headers.get('access-control-allow-origin'), SHOP, 'a listed origin can read error bodies too');
  });

  it('refuses any other origin with 403 and no CORS headers, before reaching upstream', async () => {
    const before = upstream.stats().graphqlRequests;
    for (const origin of [
      'https://evil.example',
      'https://shop.example.evil.example',
      'http://shop.example',
      'https://shop.example:8443',
      'null',
    ]) {
      const reply = await post(
        proxy.url,
        { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
        { origin },
      );
      assert.equal(reply.status, 403, origin);
      assert.equal(reply.body.error.code, 'origin_not_allowed');
      assert.equal(reply.headers.get('access-control-allow-origin'), null);
    }
    assert.equal(upstream.stats().graphqlRequests, before);
  });

  it('answers the preflight of a listed origin, and refuses others', async () => {
    const preflight = await fetch(proxy.url, {
      method: 'OPTIONS',
      headers: {
        origin: SHOP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, idempotency-key, authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), SHOP);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST');
    const allowedHeaders = preflight.headers.get('access-control-allow-headers') ?? '';
    for (const header of ['content-type', 'idempotency-key', 'authorization', 'x-loyalty-id-token'])
      assert.match(allowedHeaders, new RegExp(header));
    assert.ok(Number(preflight.headers.get('access-control-max-age')) > 0);

    const refused = await fetch(proxy.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('access-control-allow-methods'), null);
  });

  it('marks every answer as the proxy’s (Loyalty-Proxy: 1), success, error and preflight, and lets listed origins read it', async () => {
    const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } };
    const answers = [
      ['a read', await post(proxy.url, campaigns)],
      ['a coupon', await post(proxy.url, coupon, { 'idempotency-key': 'marker-1' })],
      ['a coupon, replayed', await post(proxy.url, coupon, { 'idempotency-key': 'marker-1' })],
      ['an unknown operation', await post(proxy.url, { operation: 'nope' }, { origin: SHOP })],
      ['a refused origin', await post(proxy.url, coupon, { origin: 'https://evil.example' })],
    ] as const;
    assert.deepEqual(
      answers.map(([what, reply]) => [what, reply.status, reply.headers.get('loyalty-proxy')]),
      [
        ['a read', 200, '1'],
        ['a coupon', 200, '1'],
        ['a coupon, replayed', 200, '1'],
        ['an unknown operation', 400, '1'],
        ['a refused origin', 403, '1'],
      ],
    );
    const listed = await post(proxy.url, campaigns, { origin: SHOP });
    assert.match(listed.headers.get('access-control-expose-headers') ?? '', /(^|,\s*)loyalty-proxy(,|$)/);
    const preflight = await fetch(proxy.url, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.headers.get('loyalty-proxy'), '1');
  });

  it('checks the configured origins when the proxy is created', () => {
    for (const bad of ['shop.example', 'https://shop.example/path', 'ftp://shop.example', '*']) {
      assert.throws(
        () => createMarketingProxy({ upstreamUrl: upstream.marketingUrl, apiKey: TEST_API_KEY, allowedOrigins: [bad] }),
        /allowed origin/,
      );
    }
  });

  it('trusts X-Forwarded-Host/-Proto for the own origin only with trustProxy', async () => {
    const forwarded = {
      origin: 'https://www.merchant.example',
      'x-forwarded-host': 'www.merchant.example',
      'x-forwarded-proto': 'https',
    };
    const untrusting = await post(proxy.url, campaigns, forwarded);
    assert.equal(untrusting.status, 403);
    const trusting = await serveProxy({ upstreamUrl: upstream.marketingUrl, trustProxy: true });
    try {
      assert.equal((await post(trusting.url, campaigns, forwarded)).status, 200);
      assert.equal((await post(trusting.url, campaigns, { ...forwarded, origin: 'https://evil.example' })).status, 403);
    } finally {
      await trusting.close();
    }
  });

  describe('mounted at /api/marketing in vite (connect strips the prefix)', () => {
    let vite: ViteDevServer;
    let server: ReturnType<typeof createServer>;
    let origin: string;

    before(async () => {
      vite = await createViteServer({
        configFile: false,
        logLevel: 'silent',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      const handler = createMarketingProxy({
        upstreamUrl: upstream.marketingUrl,
        apiKey: TEST_API_KEY,
        logger: () => {},
      });
      vite.middlewares.use('/api/marketing', toNodeHandler(handler));
      server = createServer(vite.middlewares);
      origin = await listen(server);
    });
    after(async () => {
      await closeServer(server);
      await vite.close();
    });

    it('serves the protocol at the mount and treats the page origin as same-origin', async () => {
      const reply = await post(`${origin}/api/marketing`, campaigns, { origin });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.body.data.campaigns.items.length, 1);
      const foreign = await post(`${origin}/api/marketing`, campaigns, { origin: 'https://evil.example' });
      assert.equal(foreign.status, 403);
    });
  });
});
