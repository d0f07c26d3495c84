/**
 * The proxy's stores: the store conformance suite (test/support/store-conformance.ts) run against the
 * memory store (also without its `claim`, as a store of the merchant's own may be), a real
 * redis-server and a real three-master Redis Cluster (started here on free ports); then two proxy
 * instances sharing one Redis, and sharing one cluster, the way instances behind a load balancer do:
 * one coupon per Idempotency-Key across both, shared rate limits and cache.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMemoryStore, type ProxyStore } from '../../../../src/proxy/index.ts';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import { createClient } from 'redis';
import {
  holdingRelay,
  startRedis,
  startRedisCluster,
  type RunningCluster,
  type RunningRedis,
} from '../../support/redis.ts';
import { storeConformance } from '../../../support/store-conformance.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

storeConformance('memory', () => createMemoryStore());
// A store of the merchant's own without `claim`: the proxy takes the same steps through its other methods.
storeConformance('memory without claim', () => {
  const { claim: _claim, ...steps } = createMemoryStore();
  return steps;
});

describe('memory store bounds', () => {
  it('drops the oldest keys beyond maxEntries', async () => {
    const store = createMemoryStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.set(key, key, 60_000);
    assert.equal(await store.get('a'), undefined);
    assert.equal(await store.get('d'), 'd');
  });

  it('keeps live rate-limit counters when full: a new counter is over the limit until one expires', async () => {
    let time = 1_000_000;
    const store = createMemoryStore({ maxEntries: 2, now: () => time });
    assert.equal((await store.increment('rate:addr:a', 1000)).count, 1);
    time += 500;
    assert.equal((await store.increment('rate:addr:b', 1000)).count, 1);
    const refused = await store.increment('rate:addr:c', 1000);
    assert.ok(refused.count > 1_000_000, 'a new counter in a full table counts as over any limit');
    assert.equal(refused.resetMs, 500, 'until the soonest counter expires');
    assert.equal((await store.increment('rate:addr:a', 1000)).count, 2, 'the live counters keep their counts');
    assert.equal((await store.increment('rate:shopper:x', 1000)).count, 1, 'each rule has its own bound');
    time += 500;
    assert.equal((await store.increment('rate:addr:c', 1000)).count, 1, 'an expired counter makes room');
    assert.equal((await store.increment('rate:addr:b', 1000)).count, 2);
  });

  it('a flood of distinct shoppers does not wipe the counters, the flooder’s own included', async () => {
    const upstream = await startUpstream();
    const proxy = await serveProxy({
      upstreamUrl: upstream.marketingUrl,
      store: createMemoryStore({ maxEntries: 5 }),
      rateLimits: { perAddress: false, perShopper: { limit: 2, windowSeconds: 600 } },
    });
    try {
      const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-morning-latte' } };
      const flooder = { 'user-agent': 'Flooder/1.0' };
      assert.deepEqual(
        [(await post(proxy.url, coupon, flooder)).status, (await post(proxy.url, coupon, flooder)).status],
        [200, 200],
      );
      assert.equal((await post(proxy.url, coupon, flooder)).status, 429);
      const flood: number[] = [];
      for (let index = 0; index < 12; index += 1)
        flood.push((await post(proxy.url, coupon, { 'user-agent': `Browser/${index}` })).status);
      assert.deepEqual(
        flood,
        [200, 200, 200, 200, ...Array<number>(8).fill(429)],
        'new shoppers wait once the table is full',
      );
      assert.equal((await post(proxy.url, coupon, flooder)).status, 429, 'the flooder is still limited');
    } finally {
      await proxy.close();
      await upstream.dispose();
    }
  });

  it('bounds each kind of key on its own: a flood of cached queries erases no rate limit and no idempotency record', async () => {
    const upstream = await startUpstream();
    const proxy = await serveProxy({
      upstreamUrl: upstream.marketingUrl,
      store: createMemoryStore({ maxEntries: 20 }),
      rateLimits: { perAddress: false, perShopper: { limit: 2, windowSeconds: 600 } },
    });
    try {
      const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-morning-latte' } };
      const minted = upstream.stats().couponsMinted;
      const first = await post(proxy.url, coupon, { 'idempotency-key': 'flooded-key' });
      assert.equal(first.status, 200);
      assert.equal((await post(proxy.url, coupon)).status, 200);
      assert.equal((await post(proxy.url, coupon)).status, 429);
      // Every distinct campaign id is a cached answer ({ campaign: null }): twice as many as the bound.
      for (let index = 0; index < 40; index += 1) {
        assert.equal(
          (await post(proxy.url, { operation: 'campaign', variables: { id: `flood-${index}` } })).status,
          200,
        );
      }
      assert.equal((await post(proxy.url, coupon)).status, 429, 'the shopper is still rate limited');
      const replay = await post(proxy.url, coupon, { 'idempotency-key': 'flooded-key' });
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, first.body, 'the same coupon, not a second one');
      assert.equal(upstream.stats().couponsMinted, minted + 2);
    } finally {
      await proxy.close();
      await upstream.dispose();
    }
  });
});

describe('Redis', () => {
  let redis: RunningRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(() => redis?.stop());

  storeConformance('Redis', () => createRedisStore({ url: redis.url, keyPrefix: `test-${randomUUID()}:` }));

  it('while Redis is down: coupons get 503 store_unavailable at once and mint nothing, queries skip the cache', async () => {
    const own = await startRedis();
    const upstream = await startUpstream();
    let reconnected!: () => void;
    const back = new Promise<void>((resolve) => (reconnected = resolve));
    const store = createRedisStore({
      url: own.url,
      connectWaitMs: 500,
      onError: () => {},
      onStateChange: (message) => /connected again/.test(message) && reconnected(),
    });
    const proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, store });
    let restarted: RunningRedis | undefined;
    const storeLines = () => proxy.logs.filter((entry) => entry.method !== 'POST');
    try {
      assert.equal((await post(proxy.url, { operation: 'campaigns', variables: { limit: 1 } })).status, 200);
      await own.stop();
      const minted = upstream.stats().couponsMinted;
      const down = await post(
        proxy.url,
        { operation: 'requestCoupon', variables: { campaignId: 'camp-harbor-beans' } },
        { 'idempotency-key': randomUUID() },
      );
      assert.equal(down.status, 503);
      assert.equal(down.body.error.code, 'store_unavailable');
      assert.ok(Number(down.headers.get('retry-after')) > 0);
      assert.equal(upstream.stats().couponsMinted, minted);
      for (let index = 0; index < 30; index += 1) {
        const query = await post(proxy.url, { operation: 'campaign', variables: { id: `down-${index}` } });
        assert.equal(query.status, 200, 'queries go upstream without the cache');
        assert.equal(query.headers.get('x-cache'), 'MISS');
      }
      // Each read failed twice (the cache read, the miss's count): one line for all.
      assert.deepEqual(
        storeLines().map(({ method, error }) => ({ method, error })),
        [{ method: 'STORE', error: 'store_unavailable' }],
      );
      restarted = await startRedis({ port: own.port });
      await back;
      assert.equal((await post(proxy.url, { operation: 'campaign', variables: { id: 'back' } })).status, 200);
      const lines = storeLines();
      assert.equal(lines.length, 2, JSON.stringify(lines));
      assert.equal(lines[1]!.method, 'STORE');
      assert.equal(lines[1]!.error, undefined);
      assert.equal(lines[1]!.failures, 60);
      assert.match(lines[1]!.detail ?? '', /answers again/);
    } finally {
      await proxy.close();
      await store.close();
      await upstream.dispose();
      await own.stop();
      await restarted?.stop();
    }
  });

  it('refuses a URL that is not redis://', () => {
    assert.throws(() => createRedisStore({ url: 'http://127.0.0.1:6379' }), /redis:\/\//);
    assert.throws(() => createRedisStore({ url: 'not a url' }), /redis:\/\//);
    assert.throws(() => createRedisStore({ url: 'redis://127.0.0.1', cacheUrl: 'http://127.0.0.1' }), /redis:\/\//);
  });

  twoInstances('one Redis', () => redis.url);
});

/** Two proxy instances on one shared Redis store (one server or a cluster), as behind a load balancer. */
function twoInstances(what: string, url: () => string): void {
  describe(`two proxy instances sharing ${what}`, () => {
    let upstream: Upstream;
    let stores: ProxyStore[];
    let instances: ProxyUnderTest[];

    before(async () => {
      upstream = await startUpstream();
      const keyPrefix = `shared-${randomUUID()}:`;
      stores = [createRedisStore({ url: url(), keyPrefix }), createRedisStore({ url: url(), keyPrefix })];
      instances = await Promise.all(
        stores.map((store) =>
          serveProxy({
            upstreamUrl: upstream.marketingUrl,
            store,
            trustProxy: true,
            rateLimits: { perAddress: { limit: 4, windowSeconds: 60 }, perShopper: false },
          }),
        ),
      );
    });
    after(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(stores.map((store) => store.close?.()));
      await upstream.dispose();
    });

    it('mint exactly one coupon for 200 concurrent requests with one Idempotency-Key spread over both', async () => {
      const key = randomUUID();
      const minted = upstream.stats().couponsMinted;
      const headers = { 'idempotency-key': key, 'x-forwarded-for': '198.51.100.1' };
      const replies = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          post(
            instances[index % 2]!.url,
            { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } },
            headers,
          ),
        ),
      );
      assert.deepEqual(
        replies.map((reply) => reply.status).filter((status) => status !== 200),
        [],
      );
      assert.equal(upstream.stats().couponsMinted - minted, 1);
      assert.equal(new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code)).size, 1);
      const otherVariables = await post(
        instances[1]!.url,
        { operation: 'requestCoupon', variables: { campaignId: 'camp-peak-rental' } },
        headers,
      );
      assert.equal(otherVariables.status, 409);
    });

    it('share rate limits', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.2' };
      const body = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };
      const statuses = [];
      for (let index = 0; index < 5; index += 1)
        statuses.push((await post(instances[index % 2]!.url, body, headers)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      const limited = await post(instances[0]!.url, body, headers);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
    });

    it('share the response cache', async () => {
      const query = { operation: 'campaigns', variables: { limit: 9 } };
      const before = upstream.stats().byOperation.campaigns ?? 0;
      assert.equal((await post(instances[0]!.url, query)).headers.get('x-cache'), 'MISS');
      assert.equal((await post(instances[1]!.url, query)).headers.get('x-cache'), 'HIT');
      assert.equal((upstream.stats().byOperation.campaigns ?? 0) - before, 1);
    });
  });
}

describe('Redis Cluster, three masters', () => {
  let cluster: RunningCluster;
  before(async () => {
    cluster = await startRedisCluster();
  });
  after(() => cluster?.stop());

  storeConformance('Redis Cluster', () =>
    createRedisStore({ url: cluster.url, keyPrefix: `test-${randomUUID()}:`, onError: () => {} }),
  );
  twoInstances('a Redis Cluster', () => cluster.url);

  it('is found from the URL of any one node, and said to be a cluster', async () => {
    for (const node of cluster.nodes) {
      const store = createRedisStore({ url: node.url });
      try {
        assert.deepEqual((await store.describe()).claims, {
          kind: 'cluster',
          masters: 3,
          maxmemoryPolicy: 'noeviction',
        });
      } finally {
        await store.close();
      }
    }
  });

  it('sends no claim before it knows it is on a cluster: claims made while it asks wait for the cluster client', async () => {
    // The node answers the store's first question (INFO) only once the claims have been made.
    const relay = await holdingRelay(cluster.nodes[0]!, 'INFO');
    const errors: Error[] = [];
    const store = createRedisStore({
      url: relay.url,
      keyPrefix: `early-${randomUUID()}:`,
      onError: (error) => errors.push(error),
    });
    try {
      const first = store.get('cache:first');
      await relay.holding;
      const counters = ['rate:addr:198.51.100.7', 'rate:shopper:early'].map((key) => ({
        key,
        windowMs: 60_000,
        limit: 10,
      }));
      const claims = Array.from({ length: 10 }, (_, index) =>
        store.claim!(`idem:early-${index}`, 'pending', 60_000, counters).then(
          (result) => result.kind,
          (error: Error) => error.message,
        ),
      );
      // Long enough for a claim sent on the connection asking INFO to be on its way behind it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      relay.release();
      await first;
      assert.deepEqual(await Promise.all(claims), Array<string>(10).fill('taken'));
      assert.deepEqual(
        errors.map((error) => error.message),
        [],
      );
    } finally {
      await store.close();
      await relay.close();
    }
  });

  it('keeps claim records, locks and limits in one hash slot, and cached answers on every master', async () => {
    const upstream = await startUpstream();
    const keyPrefix = `slots-${randomUUID()}:`;
    const store = createRedisStore({ url: cluster.url, keyPrefix });
    const proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, store, introspection: false });
    const admins = await Promise.all(cluster.nodes.map((node) => createClient({ url: node.url }).connect()));
    try {
      for (let index = 0; index < 3; index += 1) {
        const reply = await post(
          proxy.url,
          { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } },
          { 'idempotency-key': randomUUID(), 'user-agent': `Shopper/${index}` },
        );
        assert.equal(reply.status, 200, reply.text);
      }
      for (let index = 0; index < 30; index += 1)
        assert.equal((await post(proxy.url, { operation: 'campaign', variables: { id: `c-${index}` } })).status, 200);
      const keysOf = await Promise.all(admins.map((admin) => admin.keys(`${keyPrefix}*`)));
      const claimNodes = keysOf.filter((keys) => keys.some((key) => /:(idem|rate):/.test(key)));
      assert.equal(claimNodes.length, 1, 'every claim key on one node');
      assert.ok(
        claimNodes[0]!
          .filter((key) => /:(idem|rate):/.test(key))
          .every((key) => key.startsWith(`${keyPrefix}{claims}:`)),
      );
      assert.ok(
        keysOf.every((keys) => keys.some((key) => key.includes(':cache:'))),
        'cached answers on every master',
      );
    } finally {
      await Promise.all(admins.map((admin) => admin.close()));
      await proxy.close();
      await store.close();
      await upstream.dispose();
    }
  });
});
