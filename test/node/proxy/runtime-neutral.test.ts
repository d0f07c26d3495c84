/**
 * The proxy's runtime-neutral rules, with each runtime's way of failing reproduced exactly (the real
 * runtimes run the same cases in test/runtimes): workerd's fetch refuses `redirect: 'error'`; a
 * refused connection reads differently in Node, Bun, Deno and workerd; Bun and Deno hand the client's
 * address in their own second argument.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMarketingProxy, type AccessLogEntry, type UpstreamTransport } from '../../../src/proxy/index.ts';
import { connectionNeverOpened } from '../../../src/proxy/upstream/network-errors.ts';
import { TEST_API_KEY } from '../support/proxy-server.ts';

const COUPON = JSON.stringify({ operation: 'requestCoupon', variables: { campaignId: 'camp-a' } });
const MINTED = '{"data":{"requestCoupon":{"coupon":{"code":"C-1"}}}}';

function couponRequest(key?: string): Request {
  return new Request('http://shop.example/api/marketing', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: COUPON,
  });
}

/** workerd's words for every connection it lost, refused or dropped. */
const workerdLost = () => new Error('Network connection lost.');

describe('Marketing proxy in any runtime', () => {
  it('reads a refused connection in each runtime\'s words, and says "cannot tell" where the runtime does not', () => {
    const nodeRefused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    const bunRefused = Object.assign(new TypeError('ECONNREFUSED: Unable to connect.'), { code: 'ECONNREFUSED' });
    const denoRefused = new TypeError('fetch failed', {
      cause: new Error(
        'error sending request for url (http://127.0.0.1:1/): client error (Connect): tcp connect error: Connection refused (os error 111)',
      ),
    });
    const denoDropped = new TypeError('fetch failed', {
      cause: new Error(
        'error sending request for url (http://127.0.0.1:1/): client error (SendRequest): connection closed before message completed',
      ),
    });
    const nodeReset = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    assert.deepEqual(
      [nodeRefused, bunRefused, denoRefused, denoDropped, nodeReset, workerdLost()].map(connectionNeverOpened),
      [true, true, true, false, false, undefined],
    );
  });

  it('sends upstream with redirect: "manual" and refuses the 3xx, in a fetch that rejects "error" as workerd does', async () => {
    const sent: { url: string; mint: boolean }[] = [];
    const workerdFetch: typeof fetch = async (input, init) => {
      if (init?.redirect === 'error')
        throw new TypeError('Invalid redirect value, must be one of "follow" or "manual"');
      const url = input instanceof Request ? input.url : String(input);
      sent.push({ url, mint: String(init?.body).includes('requestCoupon') });
      return new Response(null, { status: 307, headers: { location: 'https://elsewhere.example/graphql' } });
    };
    const proxy = createMarketingProxy({
      upstreamUrl: 'https://marketing.example/graphql',
      apiKey: TEST_API_KEY,
      fetch: workerdFetch,
      introspection: false,
      logger: () => {},
    });
    const reply = await proxy(couponRequest());
    assert.equal(reply.status, 502);
    assert.equal(((await reply.json()) as { error: { code: string } }).error.code, 'upstream_error');
    // The mint is sent once (then the campaign is read, to tell a refusal of a campaign without coupons).
    assert.deepEqual(
      sent.filter(({ mint }) => mint),
      [{ url: 'https://marketing.example/graphql', mint: true }],
      'the mint sent once, to the configured upstream, never followed',
    );
    assert.ok(
      sent.every(({ url }) => url === 'https://marketing.example/graphql'),
      'nothing sent where the redirect pointed',
    );
  });

  it('where the runtime cannot tell: frees the key when a probe fails the same way, records it when the upstream answers the probe', async () => {
    let upstreamUp = false;
    let probes = 0;
    const transport: UpstreamTransport = async ({ body }) => {
      if (body.includes('__typename')) {
        probes += 1;
        if (upstreamUp) return { status: 200, text: '{"data":{"__typename":"Query"}}' };
      }
      throw workerdLost();
    };
    const logs: AccessLogEntry[] = [];
    const proxy = createMarketingProxy({
      upstreamUrl: 'https://marketing.example/graphql',
      apiKey: TEST_API_KEY,
      transport,
      logger: (entry) => logs.push(entry),
    });

    const refused = await proxy(couponRequest('key-refused'));
    const refusedBody = (await refused.json()) as { error: { code: string; message: string } };
    assert.deepEqual([refused.status, refusedBody.error.code], [502, 'upstream_unavailable']);
    assert.doesNotMatch(refusedBody.error.message, /may have created/);
    assert.equal(logs.at(-1)!.detail, 'Error: Network connection lost.');
    assert.equal(probes, 1);

    upstreamUp = true; // the upstream takes connections, yet this one was lost: it may have minted
    const dropped = await proxy(couponRequest('key-dropped'));
    assert.match(((await dropped.json()) as { error: { message: string } }).error.message, /may have created a coupon/);
    const replay = await proxy(couponRequest('key-dropped'));
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const retried = await proxy(couponRequest('key-refused'));
    assert.equal(retried.headers.get('idempotent-replayed'), null, 'the refused key was freed');
  });

  it("takes the client address from Bun's server and Deno's connection info", async () => {
    const proxy = createMarketingProxy({
      upstreamUrl: 'https://marketing.example/graphql',
      apiKey: TEST_API_KEY,
      transport: async () => ({ status: 200, text: MINTED }),
      rateLimits: { perAddress: { limit: 1, windowSeconds: 60 }, perShopper: false },
      logger: () => {},
    });
    const bunServer = (address: string) => ({ requestIP: () => ({ address, family: 'IPv4', port: 1 }) });
    const denoInfo = (hostname: string) => ({
      remoteAddr: { transport: 'tcp', hostname, port: 1 },
      completed: Promise.resolve(),
    });
    assert.equal((await proxy(couponRequest(), bunServer('203.0.113.1'))).status, 200);
    assert.equal((await proxy(couponRequest(), bunServer('203.0.113.1'))).status, 429);
    assert.equal(
      (await proxy(couponRequest(), bunServer('203.0.113.2'))).status,
      200,
      'another shopper is not blocked',
    );
    assert.equal((await proxy(couponRequest(), denoInfo('203.0.113.1'))).status, 429, 'the same address from Deno');
    assert.equal((await proxy(couponRequest(), denoInfo('198.51.100.7'))).status, 200);
    assert.equal(
      (await proxy(couponRequest(), { params: Promise.resolve({}) })).status,
      200,
      "Next.js's params: no address",
    );
  });

  it("hands the refresh of a stale answer to the runtime's waitUntil (a Worker's ctx), which would end it otherwise", async () => {
    let loads = 0;
    const proxy = createMarketingProxy({
      upstreamUrl: 'https://marketing.example/graphql',
      apiKey: TEST_API_KEY,
      transport: async () => ({ status: 200, text: `{"data":{"campaign":{"id":"${(loads += 1)}"}}}` }),
      cache: { ttlSeconds: 0.05, staleWhileRevalidateSeconds: 60 },
      // Counting upstream reads: no schema reading in between.
      introspection: false,
      logger: () => {},
    });
    const campaign = () =>
      new Request('http://shop.example/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"operation":"campaign","variables":{"id":"a"}}',
      });
    const kept: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => void kept.push(work), passThroughOnException: () => {} };
    assert.equal((await proxy(campaign(), ctx)).headers.get('x-cache'), 'MISS');
    await new Promise((wait) => setTimeout(wait, 80));
    assert.equal((await proxy(campaign(), ctx)).headers.get('x-cache'), 'STALE');
    assert.equal(kept.length, 1);
    await Promise.all(kept);
    assert.equal(loads, 2);
  });

  it('creates the proxy on its first request when given a function, so a build without the key succeeds', async () => {
    let created = 0;
    const proxy = createMarketingProxy(() => {
      created += 1;
      return {
        upstreamUrl: 'https://marketing.example/graphql',
        apiKey: TEST_API_KEY,
        transport: async () => ({ status: 200, text: MINTED }),
        logger: () => {},
      };
    });
    assert.equal(created, 0);
    assert.equal((await proxy(couponRequest())).status, 200);
    assert.equal((await proxy(couponRequest())).status, 200);
    assert.equal(created, 1);
    const unconfigured = createMarketingProxy(() => ({ upstreamUrl: 'https://marketing.example/graphql', apiKey: '' }));
    await assert.rejects(unconfigured(couponRequest()), /"apiKey"/);
  });
});
