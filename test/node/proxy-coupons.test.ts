/**
 * Coupon requests through the proxy over real HTTP, with the real sandbox (Marketing for minting,
 * Connect for real access tokens): Idempotency-Key under concurrency, rate limits with Retry-After,
 * and requireSignin checked with Connect's /me.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { TestBrowser } from './support/browser.ts';
import { randomNonce, runImplicitFlow, temporaryDataDir } from './support/connect.ts';
import { post, serveProxy, startFakeUpstream, TEST_API_KEY, type ProxyUnderTest } from './support/proxy-server.ts';

const REDIRECT_URI = 'http://localhost:7100/callback';
const coupon = (campaignId = 'camp-harbor-morning-latte') => ({ operation: 'requestCoupon', variables: { campaignId } });
const generous = { perAddress: { limit: 10_000, windowSeconds: 60 }, perShopper: { limit: 10_000, windowSeconds: 60 } };

describe('Marketing proxy coupon requests', () => {
  let sandbox: RunningSandbox;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  let clientId: string;

  async function accessToken(username: string, password: string, scope = 'openid profile'): Promise<string> {
    const params = { client_id: clientId, redirect_uri: REDIRECT_URI, response_type: 'id_token token', scope, nonce: randomNonce(), state: 's' };
    const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.connectUrl, params, { username, password });
    const token = fragment.get('access_token');
    assert.ok(token, 'Connect issued an access token');
    return token;
  }

  before(async () => {
    data = await temporaryDataDir();
    sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir, apiKey: TEST_API_KEY });
    clientId = (await sandbox.registerApp({ name: 'Proxy tests', redirectUris: [REDIRECT_URI] })).app_id;
  });
  after(async () => {
    await sandbox.close();
    await data.remove();
  });

  describe('Idempotency-Key', () => {
    let proxy: ProxyUnderTest;
    before(async () => {
      proxy = await serveProxy({ upstreamUrl: sandbox.marketingUrl, rateLimits: generous });
    });
    after(() => proxy.close());

    it('200 concurrent requests with one key mint exactly one coupon, and all get it', async () => {
      const key = randomUUID();
      const minted = sandbox.stats().couponsMinted;
      const replies = await Promise.all(Array.from({ length: 200 }, () => post(proxy.url, coupon(), { 'idempotency-key': key })));
      assert.equal(sandbox.stats().couponsMinted - minted, 1);
      const codes = new Set(replies.map((reply) => reply.body?.data?.requestCoupon?.coupon?.code));
      assert.deepEqual(replies.map((reply) => reply.status).filter((status) => status !== 200), []);
      assert.equal(codes.size, 1);
      assert.equal(replies.filter((reply) => reply.headers.get('idempotent-replayed') === 'true').length, 199);
    });

    it('a later retry with the same key returns the same coupon without minting', async () => {
      const key = randomUUID();
      const first = await post(proxy.url, coupon(), { 'idempotency-key': key });
      const minted = sandbox.stats().couponsMinted;
      const retry = await post(proxy.url, coupon(), { 'idempotency-key': key });
      assert.equal(retry.status, 200);
      assert.equal(retry.text, first.text);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(sandbox.stats().couponsMinted, minted);
    });

    it('refuses the same key with other variables (409), also while the first is running', async () => {
      const key = randomUUID();
      const [first, concurrent] = await Promise.all([
        post(proxy.url, coupon('camp-harbor-beans'), { 'idempotency-key': key }),
        post(proxy.url, coupon('camp-peak-rental'), { 'idempotency-key': key }),
      ]);
      assert.equal(first.status, 200);
      assert.equal(concurrent.status, 409);
      assert.equal(concurrent.body.error.code, 'idempotency_key_reused');
      const later = await post(proxy.url, coupon('camp-peak-rental'), { 'idempotency-key': key });
      assert.equal(later.status, 409);
    });

    it('records an upstream refusal for the key as well (no second attempt)', async () => {
      const key = randomUUID();
      const first = await post(proxy.url, coupon('camp-harbor-tenth-cup'), { 'idempotency-key': key });
      assert.equal(first.status, 422);
      const requests = sandbox.stats().byOperation.requestCoupon ?? 0;
      const retry = await post(proxy.url, coupon('camp-harbor-tenth-cup'), { 'idempotency-key': key });
      assert.equal(retry.status, 422);
      assert.equal(retry.body.error.code, 'no_coupon_objective');
      assert.equal(sandbox.stats().byOperation.requestCoupon ?? 0, requests);
    });

    it('refuses malformed keys with 400', async () => {
      for (const key of ['has space', 'x'.repeat(129), 'tab\there']) {
        const reply = await post(proxy.url, coupon(), { 'idempotency-key': key });
        assert.equal(reply.status, 400, key);
        assert.equal(reply.body.error.code, 'bad_request');
      }
    });
  });

  describe('rate limits', () => {
    it('limits coupon mints per client address, with Retry-After; replays of a key do not count', async () => {
      const proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        rateLimits: { perAddress: { limit: 3, windowSeconds: 120 }, perShopper: false },
      });
      try {
        const key = randomUUID();
        const statuses = [];
        for (let index = 0; index < 3; index += 1) statuses.push((await post(proxy.url, coupon(), { 'idempotency-key': index === 0 ? key : randomUUID() })).status);
        assert.deepEqual(statuses, [200, 200, 200]);
        const minted = sandbox.stats().couponsMinted;
        const limited = await post(proxy.url, coupon());
        assert.equal(limited.status, 429);
        assert.equal(limited.body.error.code, 'rate_limited');
        const retryAfter = Number(limited.headers.get('retry-after'));
        assert.ok(retryAfter > 0 && retryAfter <= 120, `Retry-After ${retryAfter}`);
        assert.equal(limited.headers.get('cache-control'), 'no-store');
        assert.equal(sandbox.stats().couponsMinted, minted, 'a limited request mints nothing');
        assert.equal((await post(proxy.url, coupon(), { 'idempotency-key': key })).status, 200, 'a replay is not a mint');
        const limitedKey = randomUUID();
        assert.equal((await post(proxy.url, coupon(), { 'idempotency-key': limitedKey })).status, 429);
        assert.equal((await post(proxy.url, { operation: 'campaigns' })).status, 200, 'queries are not limited');
      } finally {
        await proxy.close();
      }
    });

    it('limits per shopper (address and browser without sign-in) beside the per-address limit', async () => {
      const proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        rateLimits: { perAddress: { limit: 100, windowSeconds: 60 }, perShopper: { limit: 2, windowSeconds: 60 } },
      });
      try {
        const firefox = { 'user-agent': 'Firefox-test' };
        const chrome = { 'user-agent': 'Chrome-test' };
        assert.equal((await post(proxy.url, coupon(), firefox)).status, 200);
        assert.equal((await post(proxy.url, coupon(), firefox)).status, 200);
        const limited = await post(proxy.url, coupon(), firefox);
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.headers.get('retry-after')) > 0);
        assert.equal((await post(proxy.url, coupon(), chrome)).status, 200, 'another browser is another shopper');
      } finally {
        await proxy.close();
      }
    });
    it('cannot be dodged by rotating X-Forwarded-For (not trusted by default) or User-Agent', async () => {
      const proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        rateLimits: { perAddress: { limit: 2, windowSeconds: 60 }, perShopper: { limit: 100, windowSeconds: 60 } },
      });
      try {
        const statuses = [];
        for (let index = 0; index < 4; index += 1) {
          const disguise = { 'x-forwarded-for': `198.51.100.${index}`, 'user-agent': `Browser-${index}` };
          statuses.push((await post(proxy.url, coupon(), disguise)).status);
        }
        assert.deepEqual(statuses, [200, 200, 429, 429]);
      } finally {
        await proxy.close();
      }
    });

    it('counts an IPv6 client by its /64 (one subscriber owns all of it), and an IPv4-mapped address as IPv4', async () => {
      const proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        trustProxy: true,
        rateLimits: { perAddress: { limit: 2, windowSeconds: 60 }, perShopper: false },
      });
      try {
        const from = async (address: string) => (await post(proxy.url, coupon(), { 'x-forwarded-for': address })).status;
        assert.equal(await from('2001:db8:1:2::1'), 200);
        assert.equal(await from('2001:DB8:1:2:ffff:ffff:ffff:ffff'), 200);
        assert.equal(await from('2001:db8:1:2:0:0:0:abcd'), 429, 'another address in the same /64');
        assert.equal(await from('2001:db8:1:3::1'), 200, 'another /64 is another client');
        assert.equal(await from('203.0.113.9'), 200);
        assert.equal(await from('203.0.113.9'), 200);
        assert.equal(await from('::ffff:203.0.113.9'), 429, 'the same IPv4 client');
      } finally {
        await proxy.close();
      }
    });
  });

  describe('requireSignin', () => {
    let proxy: ProxyUnderTest;
    let meCalls: number;
    let demoToken: string;

    before(async () => {
      meCalls = 0;
      proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        connectUrl: sandbox.connectUrl,
        requireSignin: true,
        trustProxy: true,
        rateLimits: { perAddress: { limit: 100, windowSeconds: 60 }, perShopper: { limit: 3, windowSeconds: 60 } },
        fetch: (input, init) => {
          if (String(input).startsWith(`${sandbox.connectUrl}/me`)) meCalls += 1;
          return fetch(input, init);
        },
      });
      demoToken = await accessToken('demo', 'demo');
    });
    after(() => proxy.close());

    it('refuses a coupon request without a token (401 signin_required) and never mints', async () => {
      const minted = sandbox.stats().couponsMinted;
      const reply = await post(proxy.url, coupon());
      assert.equal(reply.status, 401);
      assert.equal(reply.body.error.code, 'signin_required');
      assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.equal(sandbox.stats().couponsMinted, minted);
    });

    it('refuses a bogus or malformed token (401 invalid_token), asking /me once per bogus token', async () => {
      const callsBefore = meCalls;
      for (const authorization of ['Bearer not-a-real-token', 'Basic ZGVtbzpkZW1v', 'Bearer', 'Bearer not-a-real-token']) {
        const reply = await post(proxy.url, coupon(), { authorization });
        assert.equal(reply.status, 401, authorization);
        assert.equal(reply.body.error.code, 'invalid_token');
      }
      assert.equal(meCalls - callsBefore, 1, 'malformed headers never reach Connect; a refused token is remembered');
    });

    it('counts checks of unknown tokens per address, so a flood of made-up tokens never floods Connect', async () => {
      let asked = 0;
      const strict = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        connectUrl: sandbox.connectUrl,
        requireSignin: true,
        rateLimits: { perAddress: { limit: 3, windowSeconds: 60 }, perShopper: false },
        fetch: (input, init) => {
          if (String(input).startsWith(`${sandbox.connectUrl}/me`)) asked += 1;
          return fetch(input, init);
        },
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 8; i++) statuses.push((await post(strict.url, coupon(), { authorization: `Bearer made-up-${i}` })).status);
        assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429, 429, 429]);
        assert.equal(asked, 3, 'Connect is asked for the first three only');
        const again = await post(strict.url, coupon(), { authorization: 'Bearer made-up-0' });
        assert.equal(again.status, 401, 'a refusal already known costs nothing and is still a refusal');
        assert.equal(asked, 3);
      } finally {
        await strict.close();
      }
    });

    it('refuses a token issued without the profile scope (no loyalty ID)', async () => {
      const token = await accessToken('amelia.chen', 'amelia', 'openid');
      const reply = await post(proxy.url, coupon(), { authorization: `Bearer ${token}` });
      assert.equal(reply.status, 401);
      assert.equal(reply.body.error.code, 'invalid_token');
    });

    it('mints with a real Connect token, asking /me once for many requests', async () => {
      const callsBefore = meCalls;
      const replies = await Promise.all(
        Array.from({ length: 3 }, () => post(proxy.url, coupon(), { authorization: `Bearer ${demoToken}`, 'idempotency-key': randomUUID() })),
      );
      assert.deepEqual(replies.map((reply) => reply.status), [200, 200, 200]);
      assert.equal(meCalls - callsBefore, 1, '/me answers are cached (and concurrent checks shared)');
      const queries = await post(proxy.url, { operation: 'campaigns', variables: { limit: 1 } });
      assert.equal(queries.status, 200, 'queries need no sign-in');
    });

    it('keys the per-shopper limit on the loyalty ID, whatever the address', async () => {
      // demo used 3 of 3 above; from another address (trustProxy: X-Forwarded-For) it is still demo.
      const elsewhere = { authorization: `Bearer ${demoToken}`, 'x-forwarded-for': '203.0.113.9' };
      const limited = await post(proxy.url, coupon(), elsewhere);
      assert.equal(limited.status, 429);
      const jonas = await accessToken('jonas.weber', 'jonas');
      assert.equal((await post(proxy.url, coupon(), { authorization: `Bearer ${jonas}`, 'x-forwarded-for': '203.0.113.9' })).status, 200);
    });

    it('scopes Idempotency-Keys by shopper: another shopper cannot replay someone else’s coupon', async () => {
      const key = randomUUID();
      const sofia = await accessToken('sofia.rossi', 'sofia');
      const amelia = await accessToken('amelia.chen', 'amelia');
      const mine = await post(proxy.url, coupon('camp-peak-rental'), { authorization: `Bearer ${sofia}`, 'idempotency-key': key });
      const theirs = await post(proxy.url, coupon('camp-peak-rental'), { authorization: `Bearer ${amelia}`, 'idempotency-key': key });
      assert.equal(mine.status, 200);
      assert.equal(theirs.status, 200);
      assert.notEqual(theirs.body.data.requestCoupon.coupon.code, mine.body.data.requestCoupon.coupon.code);
      assert.equal(theirs.headers.get('idempotent-replayed'), null);
    });

    it('refuses an oversized /me answer (502 connect_unavailable) and mints nothing', async () => {
      const bloatedConnect = await startFakeUpstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sub: 's', loyaltyId: 'LOYAL-1', padding: 'x'.repeat(1024 * 1024) }));
      });
      const bloated = await serveProxy({ upstreamUrl: sandbox.marketingUrl, connectUrl: bloatedConnect.url, requireSignin: true });
      try {
        const minted = sandbox.stats().couponsMinted;
        const reply = await post(bloated.url, coupon(), { authorization: 'Bearer some-token' });
        assert.equal(reply.status, 502);
        assert.equal(reply.body.error.code, 'connect_unavailable');
        assert.equal(sandbox.stats().couponsMinted, minted);
      } finally {
        await bloated.close();
        await bloatedConnect.close();
      }
    });

    it('refuses requireSignin without connectUrl when created', async () => {
      const { createMarketingProxy } = await import('../../src/proxy/index.ts');
      assert.throws(() => createMarketingProxy({ upstreamUrl: sandbox.marketingUrl, apiKey: TEST_API_KEY, requireSignin: true }), /connectUrl/);
      assert.throws(() => createMarketingProxy({ upstreamUrl: sandbox.marketingUrl, apiKey: TEST_API_KEY, requireSignin: ['camp-harbor-beans'] }), /connectUrl/);
    });

    it('with a list of campaigns, needs sign-in for those only and leaves the others open', async () => {
      const members = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        connectUrl: sandbox.connectUrl,
        requireSignin: ['camp-harbor-beans'],
        rateLimits: generous,
      });
      try {
        const minted = sandbox.stats().couponsMinted;
        const anonymous = await post(members.url, coupon('camp-harbor-beans'));
        assert.equal(anonymous.status, 401);
        assert.equal(anonymous.body.error.code, 'signin_required');
        assert.equal((await post(members.url, coupon('camp-harbor-beans'), { authorization: 'Bearer made-up' })).status, 401);
        for (const spelling of [' camp-harbor-beans', 'CAMP-Harbor-Beans', 'ｃａｍｐ-harbor-beans']) {
          assert.equal((await post(members.url, coupon(spelling))).status, 401, `${spelling} is the same campaign to the rule`);
        }
        assert.equal(sandbox.stats().couponsMinted, minted, 'nothing minted for the members-only campaign');
        assert.equal((await post(members.url, coupon('camp-harbor-beans'), { authorization: `Bearer ${demoToken}` })).status, 200);
        assert.equal((await post(members.url, coupon('camp-harbor-morning-latte'))).status, 200, 'another campaign needs no sign-in');
        assert.equal(sandbox.stats().couponsMinted, minted + 2);
      } finally {
        await members.close();
      }
    });

    it('refuses a requireSignin that is neither a flag nor a list of campaign ids', async () => {
      const { createMarketingProxy } = await import('../../src/proxy/index.ts');
      for (const requireSignin of ['camp-harbor-beans', [''], [' camp-harbor-beans'], [42], {}]) {
        assert.throws(
          () => createMarketingProxy({ upstreamUrl: sandbox.marketingUrl, apiKey: TEST_API_KEY, connectUrl: sandbox.connectUrl, requireSignin: requireSignin as never }),
          /requireSignin/,
          JSON.stringify(requireSignin),
        );
      }
    });
  });
});
