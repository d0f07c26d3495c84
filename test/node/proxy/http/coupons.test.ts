/**
 * Coupon requests through the proxy over real HTTP, with the real sandbox as upstream:
 * Idempotency-Key under concurrency, and rate limits with Retry-After. requireSignin: shopper/signin.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMemoryStore } from '../../../../src/proxy/index.ts';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.ts';
import { temporaryDataDir } from '../../support/connect.ts';
import { post, serveProxy, TEST_API_KEY, type ProxyUnderTest } from '../../support/proxy-server.ts';

const coupon = (campaignId = 'camp-harbor-morning-latte') => ({
  operation: 'requestCoupon',
  variables: { campaignId },
});
const generous = { perAddress: { limit: 10_000, windowSeconds: 60 }, perShopper: { limit: 10_000, windowSeconds: 60 } };

describe('Marketing proxy coupon requests', () => {
  let sandbox: RunningSandbox;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;

  before(async () => {
    data = await temporaryDataDir();
    sandbox = await startSandbox({ connectPort: 0, marketingPort: 0, dataDir: data.dir, apiKey: TEST_API_KEY });
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
      const replies = await Promise.all(
        Array.from({ length: 200 }, () => post(proxy.url, coupon(), { 'idempotency-key': key })),
      );
      assert.equal(sandbox.stats().couponsMinted - minted, 1);
      const codes = new Set(replies.map((reply) => reply.body?.data?.requestCoupon?.coupon?.code));
      assert.deepEqual(
        replies.map((reply) => reply.status).filter((status) => status !== 200),
        [],
      );
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

    it('replays an anonymous key only to the client that sent it: another browser with the same key gets its own coupon', async () => {
      // A key seen by another server (a page's block pointed a claim at it) is worth nothing to its holder.
      const key = randomUUID();
      const shopper = { 'idempotency-key': key, 'user-agent': 'Shopper browser/1.0' };
      const first = await post(proxy.url, coupon(), shopper);
      const minted = sandbox.stats().couponsMinted;
      const other = await post(proxy.url, coupon(), { ...shopper, 'user-agent': 'curl/8.5.0' });
      assert.equal(other.status, 200);
      assert.equal(other.headers.get('idempotent-replayed'), null);
      assert.notEqual(other.body.data.requestCoupon.coupon.code, first.body.data.requestCoupon.coupon.code);
      assert.equal(sandbox.stats().couponsMinted, minted + 1);
      const again = await post(proxy.url, coupon(), shopper);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.text, first.text);
    });

    it('refuses the same key with other variables (409), also while the first is running', async () => {
      const key = randomUUID();
      const campaigns = ['camp-harbor-beans', 'camp-peak-rental'];
      // Sent together: whichever reaches the proxy first takes the key, the other is refused.
      const replies = await Promise.all(
        campaigns.map((campaign) => post(proxy.url, coupon(campaign), { 'idempotency-key': key })),
      );
      assert.deepEqual(replies.map((reply) => reply.status).sort(), [200, 409]);
      const refused = replies.findIndex((reply) => reply.status === 409);
      assert.equal(replies[refused]!.body.error.code, 'idempotency_key_reused');
      const later = await post(proxy.url, coupon(campaigns[refused]!), { 'idempotency-key': key });
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

    it('keeps the answer for a campaign that does not exist for minutes, not a day: made-up ids cannot fill the store', async () => {
      const written: { key: string; ttlMs: number }[] = [];
      const memory = createMemoryStore();
      const watched = {
        ...memory,
        set: (key: string, value: string, ttlMs: number) => (
          written.push({ key, ttlMs }),
          memory.set(key, value, ttlMs)
        ),
      };
      const recording = await serveProxy({ upstreamUrl: sandbox.marketingUrl, rateLimits: generous, store: watched });
      try {
        const key = randomUUID();
        assert.equal((await post(recording.url, coupon('camp-made-up-1'), { 'idempotency-key': key })).status, 404);
        const replay = await post(recording.url, coupon('camp-made-up-1'), { 'idempotency-key': key });
        assert.equal(replay.status, 404);
        assert.equal(replay.headers.get('idempotent-replayed'), 'true', 'a retry soon after gets the same answer');
        assert.equal((await post(recording.url, coupon(), { 'idempotency-key': randomUUID() })).status, 200);
        const records = written.filter((write) => write.key.startsWith('idem:'));
        assert.equal(records.length, 2);
        assert.ok(records[0]!.ttlMs <= 10 * 60_000, `a refusal is kept ${records[0]!.ttlMs} ms`);
        assert.equal(records[1]!.ttlMs, 24 * 60 * 60_000, 'a coupon is kept for a day');
      } finally {
        await recording.close();
      }
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
        for (let index = 0; index < 3; index += 1)
          statuses.push(
            (await post(proxy.url, coupon(), { 'idempotency-key': index === 0 ? key : randomUUID() })).status,
          );
        assert.deepEqual(statuses, [200, 200, 200]);
        const minted = sandbox.stats().couponsMinted;
        const limited = await post(proxy.url, coupon());
        assert.equal(limited.status, 429);
        assert.equal(limited.body.error.code, 'rate_limited');
        const retryAfter = Number(limited.headers.get('retry-after'));
        assert.ok(retryAfter > 0 && retryAfter <= 120, `Retry-After ${retryAfter}`);
        assert.equal(limited.headers.get('cache-control'), 'no-store');
        assert.equal(sandbox.stats().couponsMinted, minted, 'a limited request mints nothing');
        assert.equal(
          (await post(proxy.url, coupon(), { 'idempotency-key': key })).status,
          200,
          'a replay is not a mint',
        );
        const limitedKey = randomUUID();
        assert.equal((await post(proxy.url, coupon(), { 'idempotency-key': limitedKey })).status, 429);
        assert.equal((await post(proxy.url, { operation: 'campaigns' })).status, 200, 'queries have their own limit');
      } finally {
        await proxy.close();
      }
    });

    it('limits queries that miss the cache per address; hits and other addresses are not held back', async () => {
      let upstreamCalls = 0;
      for (const cache of [undefined, false] as const) {
        const proxy = await serveProxy({
          upstreamUrl: sandbox.marketingUrl,
          trustProxy: true,
          cache,
          rateLimits: { queryMisses: { limit: 3, windowSeconds: 120 } },
          transport: async (request) => {
            // The campaign reads of this test only (the proxy may also read the upstream schema).
            if (request.body.includes('varied-')) upstreamCalls += 1;
            const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body });
            return { status: response.status, text: await response.text() };
          },
        });
        try {
          const from = { 'x-forwarded-for': '198.51.100.20' };
          const campaign = (id: string, headers = from) =>
            post(proxy.url, { operation: 'campaign', variables: { id } }, headers);
          const statuses = [];
          for (let index = 0; index < 5; index += 1) statuses.push((await campaign(`varied-${index}`)).status);
          assert.deepEqual(statuses, [200, 200, 200, 429, 429], `cache ${String(cache)}`);
          const limited = await campaign('varied-9');
          assert.match(limited.body.error.message, /Too many queries/);
          assert.ok(Number(limited.headers.get('retry-after')) > 0);
          if (cache === undefined)
            assert.equal((await campaign('varied-0')).status, 200, 'a cached answer costs nothing');
          assert.equal(
            (await campaign('varied-0', { 'x-forwarded-for': '198.51.100.21' })).status,
            200,
            'another address has its own count',
          );
        } finally {
          await proxy.close();
        }
      }
      assert.equal(upstreamCalls, 3 + 3 + 1, 'refused misses never reached the upstream');
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
        const from = async (address: string) =>
          (await post(proxy.url, coupon(), { 'x-forwarded-for': address })).status;
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

    it('counts a forwarded hop that carries a port by its address, and hops that are no address in one bucket', async () => {
      const proxy = await serveProxy({
        upstreamUrl: sandbox.marketingUrl,
        trustProxy: true,
        rateLimits: { perAddress: { limit: 2, windowSeconds: 60 }, perShopper: false },
      });
      try {
        const from = async (address: string) =>
          (await post(proxy.url, coupon(), { 'x-forwarded-for': `203.0.113.250, ${address}` })).status;
        assert.deepEqual(
          [await from('198.51.100.9:40001'), await from('198.51.100.9:40002'), await from('198.51.100.9:40003')],
          [200, 200, 429],
        );
        assert.deepEqual(
          [await from('[2001:db8::1]:443'), await from('[2001:db8::2]:444'), await from('2001:db8::3')],
          [200, 200, 429],
        );
        assert.deepEqual(
          [await from('unknown'), await from('_hidden'), await from('not-an-address:1')],
          [200, 200, 429],
        );
      } finally {
        await proxy.close();
      }
    });
  });
});
