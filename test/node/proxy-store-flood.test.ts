/**
 * A flood of distinct reads fills the cache: with cached answers in a Redis of their own (`cacheUrl`,
 * `allkeys-lru`, filled to its `maxmemory`), the Redis of claim records and locks (`noeviction`) is
 * untouched, so claims on two instances still answer and one Idempotency-Key still mints once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { createRedisStore } from '../../src/proxy/redis-store.ts';
import type { ProxyStore } from '../../src/proxy/stores/memory.ts';
import { startRedis, type RunningRedis } from './support/redis.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from './support/proxy-server.ts';

const connectAdmin = (url: string) => createClient({ url }).connect();

describe('a cache Redis filled by a flood of distinct reads', () => {
  let upstream: Upstream;
  let records: RunningRedis;
  let cache: RunningRedis;
  let stores: ProxyStore[];
  let instances: ProxyUnderTest[];
  let cacheAdmin: Awaited<ReturnType<typeof connectAdmin>>;

  before(async () => {
    upstream = await startUpstream();
    [records, cache] = await Promise.all([startRedis(), startRedis()]);
    cacheAdmin = await connectAdmin(cache.url);
    // Room for a few hundred answers above what an empty Redis uses.
    const used = Number(/used_memory:(\d+)/.exec(await cacheAdmin.info('memory'))![1]);
    await cacheAdmin.configSet({ maxmemory: String(used + 256 * 1024), 'maxmemory-policy': 'allkeys-lru' });
    const keyPrefix = `flood-${randomUUID()}:`;
    stores = [0, 1].map(() => createRedisStore({ url: records.url, cacheUrl: cache.url, keyPrefix }));
    instances = await Promise.all(
      stores.map((store) =>
        serveProxy({ upstreamUrl: upstream.marketingUrl, store, rateLimits: { queryMisses: false } }),
      ),
    );
  });
  after(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(stores.map((store) => store.close?.()));
    await cacheAdmin?.close();
    await Promise.all([records?.stop(), cache?.stop()]);
    await upstream.dispose();
  });

  it('claims still answer and mint exactly once', async () => {
    const lanes = Array.from({ length: 10 }, async (_, lane) => {
      for (let index = 0; index < 150; index += 1) {
        const reply = await post(instances[index % 2]!.url, {
          operation: 'campaign',
          variables: { id: `flood-${lane}-${index}-${'x'.repeat(200)}` },
        });
        assert.equal(reply.status, 200, reply.text);
      }
    });
    await Promise.all(lanes);
    const stats = await cacheAdmin.info('stats');
    assert.ok(Number(/evicted_keys:(\d+)/.exec(stats)![1]) > 0, 'the cache Redis was full and evicted answers');

    const minted = upstream.stats().couponsMinted;
    const headers = { 'idempotency-key': randomUUID() };
    const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, index) => post(instances[index % 2]!.url, coupon, headers)),
    );
    assert.deepEqual(
      replies.map((reply) => reply.status).filter((status) => status !== 200),
      [],
    );
    assert.equal(new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code)).size, 1);
    assert.equal(upstream.stats().couponsMinted - minted, 1);
    const keys = await cacheAdmin.keys('*');
    assert.ok(
      keys.every((key) => key.includes(':cache:')),
      'only cached answers live in the cache Redis',
    );
  });

  it('a full Redis of claim records (noeviction) answers claims 503 store_unavailable, never a 500, and mints nothing', async () => {
    const admin = await connectAdmin(records.url);
    try {
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
      await admin.configSet({ maxmemory: String(used), 'maxmemory-policy': 'noeviction' });
      const minted = upstream.stats().couponsMinted;
      const reply = await post(
        instances[0]!.url,
        { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } },
        { 'idempotency-key': randomUUID() },
      );
      assert.deepEqual([reply.status, reply.body.error.code], [503, 'store_unavailable']);
      assert.equal(upstream.stats().couponsMinted, minted);
    } finally {
      await admin.configSet({ maxmemory: '0' });
      await admin.close();
    }
  });
});
