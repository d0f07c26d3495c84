/**
 * A flood of distinct reads fills the cache: with cached answers in a Redis of their own (`cacheUrl`,
 * `allkeys-lru`, filled to its `maxmemory`), the Redis of claim records and locks (`noeviction`) is
 * untouched, so claims on two instances still answer and one Idempotency-Key still mints once. The
 * same with each of the two a three-master Redis Cluster (every node of the cache one filled).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import type { ProxyStore } from '../../../../src/proxy/stores/contract.ts';
import { startRedis, startRedisCluster, type RunningRedis } from '../../support/redis.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

const connectAdmin = (url: string) => createClient({ url }).connect();
type Admin = Awaited<ReturnType<typeof connectAdmin>>;

/** A Redis, or a cluster of three: the URL the store is given, and each server's. */
interface Servers {
  url: string;
  nodes: RunningRedis[];
  stop(): Promise<void>;
}
const oneRedis = async (): Promise<Servers> => {
  const redis = await startRedis();
  return { url: redis.url, nodes: [redis], stop: () => redis.stop() };
};

/** What `INFO memory` says the server uses now. */
const usedMemory = async (admin: Admin) => Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);

for (const [kind, start] of [
  ['Redis', oneRedis],
  ['Redis Cluster', () => startRedisCluster({ appendOnly: false })],
] as const)
  describe(`a cache ${kind} filled by a flood of distinct reads`, () => {
    let upstream: Upstream;
    let records: Servers;
    let cache: Servers;
    let stores: ProxyStore[];
    let instances: ProxyUnderTest[];
    let cacheAdmins: Admin[];

    before(async () => {
      upstream = await startUpstream();
      [records, cache] = await Promise.all([start(), start()]);
      cacheAdmins = await Promise.all(cache.nodes.map((node) => connectAdmin(node.url)));
      const keyPrefix = `flood-${randomUUID()}:`;
      stores = [0, 1].map(() => createRedisStore({ url: records.url, cacheUrl: cache.url, keyPrefix }));
      instances = await Promise.all(
        stores.map((store) =>
          serveProxy({ upstreamUrl: upstream.marketingUrl, store, rateLimits: { queryMisses: false } }),
        ),
      );
      // Both instances connected to every server first (each connection uses memory of its own).
      for (const instance of instances)
        assert.equal((await post(instance.url, { operation: 'campaigns', variables: { limit: 1 } })).status, 200);
      // Room for a few hundred answers above what the servers use now.
      for (const admin of cacheAdmins) {
        await admin.configSet({
          maxmemory: String((await usedMemory(admin)) + Math.round((256 * 1024) / cache.nodes.length)),
          'maxmemory-policy': 'allkeys-lru',
        });
      }
    });
    after(async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      await Promise.all(stores.map((store) => store.close?.()));
      await Promise.all((cacheAdmins ?? []).map((admin) => admin.close()));
      await Promise.all([records?.stop(), cache?.stop()]);
      await upstream.dispose();
    });

    it('claims still answer and mint exactly once', async () => {
      const evicted = async () =>
        Promise.all(cacheAdmins.map(async (admin) => Number(/evicted_keys:(\d+)/.exec(await admin.info('stats'))![1])));
      // Distinct reads in rounds (10 at a time), until every cache server is full and has evicted answers.
      for (let round = 0; (await evicted()).some((count) => count === 0); round += 1) {
        assert.ok(round < 40, `the cache servers did not fill: evicted ${(await evicted()).join(', ')}`);
        const lanes = Array.from({ length: 10 }, async (_, lane) => {
          for (let index = 0; index < 50; index += 1) {
            const reply = await post(instances[index % 2]!.url, {
              operation: 'campaign',
              variables: { id: `flood-${round}-${lane}-${index}-${'x'.repeat(200)}` },
            });
            assert.equal(reply.status, 200, reply.text);
          }
        });
        await Promise.all(lanes);
      }

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
      const keys = (await Promise.all(cacheAdmins.map((admin) => admin.keys('*')))).flat();
      assert.ok(
        keys.every((key) => key.includes(':cache:')),
        'only cached answers live in the cache Redis',
      );
    });

    it('a full Redis of claim records (noeviction) answers claims 503 store_unavailable, never a 500, and mints nothing', async () => {
      const admins = await Promise.all(records.nodes.map((node) => connectAdmin(node.url)));
      try {
        // Below what each node uses, not at it: a node's usage moves by a few bytes between reading it
        // and the claim's first write, which would then fit.
        for (const admin of admins)
          await admin.configSet({
            maxmemory: String(Math.floor((await usedMemory(admin)) / 2)),
            'maxmemory-policy': 'noeviction',
          });
        const minted = upstream.stats().couponsMinted;
        const reply = await post(
          instances[0]!.url,
          { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } },
          { 'idempotency-key': randomUUID() },
        );
        assert.deepEqual([reply.status, reply.body.error.code], [503, 'store_unavailable']);
        assert.equal(upstream.stats().couponsMinted, minted);
      } finally {
        for (const admin of admins) {
          await admin.configSet({ maxmemory: '0' });
          await admin.close();
        }
      }
    });
  });
