/**
 * One Idempotency-Key, two instances, both reading the key before either takes its lock: the race
 * that only the store's atomic add settles. A barrier in front of each instance's store holds every
 * instance's first read of the key until all of them have read it (and found nothing), so each run
 * is that race, not a chance of it: a lock whose result were ignored mints twice every time.
 * In process over one memory store, and through two real proxy instances on one real redis-server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { IdempotencyKeys } from '../../../../src/proxy/http/idempotency.ts';
import { createMemoryStore, type ProxyStore } from '../../../../src/proxy/index.ts';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import { startRedis, type RunningRedis } from '../../support/redis.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

/**
 * Views of `stores` (one per instance) whose first read of an idempotency record waits until every
 * view has made its first read of one: all instances have looked before any can lock.
 */
function readersMeetBeforeLocking(stores: ProxyStore[]): { views: ProxyStore[]; met: Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const met = new Promise<void>((resolve) => (open = resolve));
  const views = stores.map((store): ProxyStore => {
    let first = true;
    return {
      async get(key) {
        const value = await store.get(key);
        if (key.startsWith('idem:') && first) {
          first = false;
          arrived += 1;
          if (arrived === stores.length) open();
          await met;
        }
        return value;
      },
      set: (key, value, ttlMs) => store.set(key, value, ttlMs),
      add: (key, value, ttlMs) => store.add(key, value, ttlMs),
      delete: (key) => store.delete(key),
      increment: (key, windowMs) => store.increment(key, windowMs),
      close: () => store.close?.() ?? Promise.resolve(),
    };
  });
  return { views, met };
}

describe('one Idempotency-Key raced across instances', () => {
  it('runs once when two instances over one store both read the key before either locks', async () => {
    const store = createMemoryStore();
    const { views, met } = readersMeetBeforeLocking([store, store]);
    const instances = views.map((view) => new IdempotencyKeys(view, 5_000));
    let runs = 0;
    const mint = async () => ({ status: 200, body: `COUPON-${++runs}` });
    const outcomes = await Promise.all(instances.map((keys) => keys.run('-:race', 'f', mint, () => false)));
    await met;
    assert.equal(runs, 1, 'one mint');
    assert.deepEqual(
      outcomes.map((outcome) => outcome.body),
      ['COUPON-1', 'COUPON-1'],
    );
    assert.deepEqual(outcomes.map((outcome) => outcome.replayed).sort(), [false, true]);
  });

  describe('two proxy instances on one Redis', () => {
    let redis: RunningRedis;
    let upstream: Upstream;
    let stores: ProxyStore[];
    let met: Promise<void>;
    let instances: ProxyUnderTest[];

    before(async () => {
      [redis, upstream] = await Promise.all([startRedis(), startUpstream()]);
      const keyPrefix = `race-${randomUUID()}:`;
      stores = [createRedisStore({ url: redis.url, keyPrefix }), createRedisStore({ url: redis.url, keyPrefix })];
      const barrier = readersMeetBeforeLocking(stores);
      met = barrier.met;
      instances = await Promise.all(
        barrier.views.map((store) => serveProxy({ upstreamUrl: upstream.marketingUrl, store })),
      );
    });
    after(async () => {
      await Promise.all((instances ?? []).map((instance) => instance.close()));
      await Promise.all((stores ?? []).map((store) => store.close?.()));
      await upstream?.dispose();
      await redis?.stop();
    });

    it('mint one coupon, and both callers get it', async () => {
      const minted = upstream.stats().couponsMinted;
      const claim = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };
      const headers = { 'idempotency-key': randomUUID() };
      const replies = await Promise.all(instances.map((instance) => post(instance.url, claim, headers)));
      await met;
      assert.deepEqual(
        replies.map((reply) => reply.status),
        [200, 200],
        replies.map((reply) => reply.text).join('\n'),
      );
      assert.equal(upstream.stats().couponsMinted - minted, 1, 'one coupon minted upstream');
      const codes = replies.map((reply) => reply.body.data.requestCoupon.coupon.code as string);
      assert.equal(codes[0], codes[1]);
      assert.deepEqual(replies.map((reply) => reply.headers.get('idempotent-replayed') === 'true').sort(), [
        false,
        true,
      ]);
    });
  });
});
