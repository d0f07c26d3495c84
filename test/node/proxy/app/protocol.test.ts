/**
 * The Marketing proxy's protocol over real HTTP, with the real Marketing sandbox as upstream: the
 * four named operations, strict variables, and the request rules (405, 415, 413, 400).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import {
  createMarketingProxy,
  createMemoryStore,
  IMAGE_WIDTHS,
  MAX_BODY_BYTES,
  type ProxyStore,
} from '../../../../src/proxy/index.ts';
import {
  post,
  serveProxy,
  startUpstream,
  TEST_API_KEY,
  type ProxyUnderTest,
  type Upstream,
} from '../../support/proxy-server.ts';

describe('Marketing proxy protocol', () => {
  let upstream: Upstream;
  let proxy: ProxyUnderTest;

  before(async () => {
    upstream = await startUpstream();
    proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, cache: false });
  });
  after(async () => {
    await proxy.close();
    await upstream.dispose();
  });

  describe('named operations', () => {
    it('campaigns: a page of campaigns with images at the fixed widths, and its nextToken', async () => {
      const reply = await post(proxy.url, { operation: 'campaigns', variables: { limit: 2 } });
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
      const page = reply.body.data.campaigns;
      assert.equal(page.items.length, 2);
      assert.equal(typeof page.nextToken, 'string');
      const content = page.items[0].content;
      assert.equal(typeof content.title, 'string');
      for (const width of IMAGE_WIDTHS) assert.match(content[`img${width}`].url, new RegExp(`w=${width}`));
      assert.equal(content.featuredImage, undefined);

      const next = await post(proxy.url, {
        operation: 'campaigns',
        variables: { limit: 2, nextToken: page.nextToken },
      });
      assert.equal(next.status, 200);
      assert.notEqual(next.body.data.campaigns.items[0].id, page.items[0].id);
    });

    it('campaigns: filtered by businessAccountId', async () => {
      const reply = await post(proxy.url, {
        operation: 'campaigns',
        variables: { businessAccountId: 'biz-harbor-coffee', limit: 50 },
      });
      assert.equal(reply.status, 200);
      const items: { businessAccountId: string; content: { objective: { __typename: string } | null } }[] =
        reply.body.data.campaigns.items;
      assert.ok(items.length > 0);
      assert.ok(items.every((item) => item.businessAccountId === 'biz-harbor-coffee'));
      assert.ok(items.some((item) => item.content.objective?.__typename === 'CouponObjective'));
    });

    it('campaign: one campaign by id, or null data for an unknown id', async () => {
      const reply = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-harbor-morning-latte' } });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.data.campaign.id, 'camp-harbor-morning-latte');
      assert.deepEqual(reply.body.data.campaign.content.objective, { __typename: 'CouponObjective', price: '2.50' });
      const missing = await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-nope' } });
      assert.equal(missing.status, 200);
      assert.deepEqual(missing.body, { data: { campaign: null } });
    });

    it('businessAccounts: every field, optionally filtered by category', async () => {
      const all = await post(proxy.url, { operation: 'businessAccounts', variables: { limit: 50 } });
      assert.equal(all.status, 200);
      const accounts: { category: string | null; pending: boolean; name: string; customProperties: unknown[] }[] =
        all.body.data.businessAccounts.items;
      assert.ok(accounts.length > 1);
      assert.ok(
        accounts.every((account) => typeof account.pending === 'boolean' && Array.isArray(account.customProperties)),
      );
      const category = accounts.find((account) => account.category)!.category!;
      const filtered = await post(proxy.url, { operation: 'businessAccounts', variables: { category } });
      assert.equal(filtered.status, 200);
      const items: { category: string }[] = filtered.body.data.businessAccounts.items;
      assert.ok(items.length > 0 && items.every((account) => account.category === category));
    });

    it('requestCoupon: a new coupon code on every call without an Idempotency-Key', async () => {
      const first = await post(proxy.url, {
        operation: 'requestCoupon',
        variables: { campaignId: 'camp-harbor-morning-latte' },
      });
      const second = await post(proxy.url, {
        operation: 'requestCoupon',
        variables: { campaignId: 'camp-harbor-morning-latte' },
      });
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('cache-control'), 'no-store');
      assert.equal(typeof first.body.data.requestCoupon.coupon.code, 'string');
      assert.notEqual(first.body.data.requestCoupon.coupon.code, second.body.data.requestCoupon.coupon.code);
    });

    it('passes upstream GraphQL errors on as their code and message with a fitting status', async () => {
      const unknown = await post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-nope' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 'not_found');
      assert.match(unknown.body.error.message, /camp-nope/);
      const visit = await post(proxy.url, {
        operation: 'requestCoupon',
        variables: { campaignId: 'camp-harbor-tenth-cup' },
      });
      assert.equal(visit.status, 422);
      assert.equal(visit.body.error.code, 'no_coupon_objective');
      // Page tokens are the proxy's own cursors: one it did not issue never reaches the upstream.
      const badToken = await post(proxy.url, { operation: 'campaigns', variables: { nextToken: 'forged-token' } });
      assert.equal(badToken.status, 400);
      assert.equal(badToken.body.error.code, 'invalid_cursor');
      const longToken = await post(proxy.url, { operation: 'campaigns', variables: { nextToken: 'x'.repeat(2000) } });
      assert.equal(longToken.body.error.code, 'invalid_cursor');
    });

    it('refuses a forged page cursor before it costs the store anything (no cache read, no miss counted)', async () => {
      const store = createMemoryStore();
      const calls: string[] = [];
      const counted: ProxyStore = {
        ...store,
        get: (key) => (calls.push(`get ${key}`), store.get(key)),
        increment: (key, windowMs) => (calls.push(`increment ${key}`), store.increment(key, windowMs)),
      };
      const cached = await serveProxy({ upstreamUrl: upstream.marketingUrl, store: counted });
      try {
        const forged = await post(cached.url, { operation: 'businessAccounts', variables: { nextToken: 'forged' } });
        assert.deepEqual([forged.status, forged.body.error.code], [400, 'invalid_cursor']);
        assert.deepEqual(calls, []);
        const first = await post(cached.url, { operation: 'campaigns', variables: { limit: 1 } });
        const next = await post(cached.url, {
          operation: 'campaigns',
          variables: { limit: 1, nextToken: first.body.data.campaigns.nextToken },
        });
        assert.equal(next.status, 200, 'a cursor the proxy issued still opens its page');
        assert.ok(calls.length > 0);
      } finally {
        await cached.close();
      }
    });
  });

  describe('refused requests', () => {
    const refusals: [string, unknown, number, string][] = [
      ['a raw GraphQL document', { query: '{ campaigns { items { id } } }' }, 400, 'bad_request'],
      [
        'a document beside an operation',
        { operation: 'campaigns', query: '{ __schema { types { name } } }' },
        400,
        'bad_request',
      ],
      ['an unknown top-level field', { operation: 'campaigns', extensions: {} }, 400, 'bad_request'],
      ['no operation', { variables: {} }, 400, 'bad_request'],
      ['an unknown operation', { operation: 'deleteEverything' }, 400, 'unknown_operation'],
      ['an inherited property name as operation', { operation: '__proto__' }, 400, 'unknown_operation'],
      ['an array body', [{ operation: 'campaigns' }], 400, 'bad_request'],
      ['variables that are not an object', { operation: 'campaigns', variables: [1] }, 400, 'invalid_variables'],
      [
        'an unknown variable',
        { operation: 'campaigns', variables: { limit: 1, width: 4000 } },
        400,
        'invalid_variables',
      ],
      ['a limit of 0', { operation: 'campaigns', variables: { limit: 0 } }, 400, 'invalid_variables'],
      [
        'a nextToken over 8192 characters',
        { operation: 'campaigns', variables: { nextToken: 'x'.repeat(8193) } },
        400,
        'invalid_variables',
      ],
      ['a limit of 51', { operation: 'campaigns', variables: { limit: 51 } }, 400, 'invalid_variables'],
      ['a fractional limit', { operation: 'campaigns', variables: { limit: 2.5 } }, 400, 'invalid_variables'],
      [
        'a limit given as a string',
        { operation: 'businessAccounts', variables: { limit: '5' } },
        400,
        'invalid_variables',
      ],
      ['a missing required id', { operation: 'campaign', variables: {} }, 400, 'invalid_variables'],
      ['an id that is a number', { operation: 'campaign', variables: { id: 7 } }, 400, 'invalid_variables'],
      ['an empty id', { operation: 'campaign', variables: { id: '' } }, 400, 'invalid_variables'],
      ['a 257-character id', { operation: 'campaign', variables: { id: 'x'.repeat(257) } }, 400, 'invalid_variables'],
      [
        'a campaignId that is an object',
        { operation: 'requestCoupon', variables: { campaignId: { eq: 'x' } } },
        400,
        'invalid_variables',
      ],
    ];
    for (const [what, body, status, code] of refusals) {
      it(`refuses ${what} with ${status} ${code}`, async () => {
        const before = upstream.stats().graphqlRequests;
        const reply = await post(proxy.url, body);
        assert.equal(reply.status, status, reply.text);
        assert.equal(reply.body.error.code, code);
        assert.equal(typeof reply.body.error.message, 'string');
        assert.equal(reply.headers.get('cache-control'), 'no-store');
        assert.equal(upstream.stats().graphqlRequests, before, 'nothing reached the upstream');
      });
    }

    it('refuses a body that is not JSON with 400', async () => {
      const reply = await post(proxy.url, '{"operation": "campaigns"');
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'bad_request');
    });

    it('refuses other methods with 405 and Allow', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(proxy.url, { method });
        assert.equal(response.status, 405, method);
        assert.equal(response.headers.get('allow'), 'GET, POST, OPTIONS');
        assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'method_not_allowed');
      }
    });

    it('refuses what an HTML form can send (and no content type) with 415', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        undefined,
      ]) {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        const response = await fetch(proxy.url, {
          method: 'POST',
          headers,
          body: new TextEncoder().encode('{"operation":"campaigns"}'),
        });
        assert.equal(response.status, 415, String(type));
        assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'unsupported_media_type');
      }
      const withCharset = await post(
        proxy.url,
        { operation: 'campaigns', variables: { limit: 1 } },
        { 'content-type': 'application/json; charset=utf-8' },
      );
      assert.equal(withCharset.status, 200);
    });

    it(`refuses bodies over ${MAX_BODY_BYTES} bytes with 413, declared or streamed`, async () => {
      const padded = JSON.stringify({ operation: 'campaign', variables: { id: 'x' } }).replace(
        '}}',
        `}${' '.repeat(MAX_BODY_BYTES)}}`,
      );
      const declared = await post(proxy.url, padded);
      assert.equal(declared.status, 413);
      assert.equal(declared.body.error.code, 'payload_too_large');

      // Chunked transfer: no Content-Length, the proxy must count as it reads.
      const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          proxy.url,
          { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        const chunk = ' '.repeat(4096);
        for (let index = 0; index < 8; index += 1) req.write(chunk);
        req.end();
      });
      assert.equal(streamed.status, 413);
      assert.equal(JSON.parse(streamed.body).error.code, 'payload_too_large');

      const exactlyAtLimit = JSON.stringify({ operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
      const fits = await post(proxy.url, exactlyAtLimit + ' '.repeat(MAX_BODY_BYTES - exactlyAtLimit.length));
      assert.equal(fits.status, 200);
    });
  });

  it('works as a plain Fetch-API handler (a route handler, a Worker), with the address from the runtime', async () => {
    const handler = createMarketingProxy({
      upstreamUrl: upstream.marketingUrl,
      apiKey: TEST_API_KEY,
      logger: () => {},
      clientAddress: (request) => request.headers.get('cf-connecting-ip') ?? undefined,
      rateLimits: { perAddress: { limit: 1, windowSeconds: 60 }, perShopper: false },
    });
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      handler(
        new Request('https://shop.example/api/marketing', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://shop.example', ...headers },
          body: JSON.stringify(body),
        }),
      );
    const query = await call({ operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
    assert.equal(query.status, 200, 'same-origin from the request URL');
    assert.equal(
      ((await query.json()) as { data: { campaign: { id: string } } }).data.campaign.id,
      'camp-harbor-beans',
    );
    const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } };
    assert.equal((await call(coupon, { 'cf-connecting-ip': '203.0.113.1' })).status, 200);
    assert.equal((await call(coupon, { 'cf-connecting-ip': '203.0.113.1' })).status, 429);
    assert.equal((await call(coupon, { 'cf-connecting-ip': '203.0.113.2' })).status, 200);
    const foreign = await handler(
      new Request('https://shop.example/api/marketing', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      }),
    );
    assert.equal(foreign.status, 403);
  });

  it('never lets the API key out: not in any body or header, not in the access log', async () => {
    const replies = await Promise.all([
      post(proxy.url, { operation: 'campaigns', variables: { limit: 1 } }),
      post(proxy.url, { operation: 'requestCoupon', variables: { campaignId: 'camp-nope' } }),
      post(proxy.url, { query: '{ x }' }),
    ]);
    for (const reply of replies) {
      assert.ok(!reply.text.includes(TEST_API_KEY));
      for (const [name, value] of reply.headers) assert.ok(!value.includes(TEST_API_KEY), name);
    }
    assert.ok(proxy.logs.length > 0);
    assert.ok(!JSON.stringify(proxy.logs).includes(TEST_API_KEY));
  });

  it('writes one access-log entry per request: operation, status, duration, cache state', async () => {
    const before = proxy.logs.length;
    await post(proxy.url, { operation: 'campaign', variables: { id: 'camp-harbor-beans' } });
    await post(proxy.url, { operation: 'nope' });
    const [ok, refused] = proxy.logs.slice(before);
    assert.equal(proxy.logs.length, before + 2);
    assert.equal(ok!.operation, 'campaign');
    assert.equal(ok!.status, 200);
    assert.equal(ok!.method, 'POST');
    assert.ok(ok!.durationMs >= 0);
    assert.ok(!Number.isNaN(Date.parse(ok!.time)));
    assert.equal(refused!.status, 400);
    assert.equal(refused!.error, 'unknown_operation');
  });
});
