/**
 * What a coupon claim costs the Redis store, as Redis itself sees it (MONITOR): a new claim is two
 * round trips (the claim script by its SHA, taking the lock and counting both rate limits; then the
 * outcome's record), a replay or a refused claim one. The script's text is sent only once per Redis.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRedisStore } from '../../../../src/proxy/redis-store.ts';
import type { ProxyStore } from '../../../../src/proxy/stores/contract.ts';
import { startRedis, watchCommands, type RunningRedis, type SeenCommand } from '../../support/redis.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };
const sent = (commands: SeenCommand[]) =>
  commands.filter((command) => !command.byScript).map((command) => command.name);

describe('a coupon claim’s round trips to Redis', () => {
  let upstream: Upstream;
  let redis: RunningRedis;
  let store: ProxyStore;
  let proxy: ProxyUnderTest;
  let watch: Awaited<ReturnType<typeof watchCommands>>;

  before(async () => {
    [upstream, redis] = await Promise.all([startUpstream(), startRedis()]);
    store = createRedisStore({ url: redis.url });
    proxy = await serveProxy({
      upstreamUrl: upstream.marketingUrl,
      store,
      introspection: false,
      rateLimits: { perAddress: { limit: 5, windowSeconds: 60 }, perShopper: { limit: 3, windowSeconds: 60 } },
    });
    watch = await watchCommands(redis.url);
  });
  after(async () => {
    await watch?.stop();
    await proxy?.close();
    await store?.close?.();
    await redis?.stop();
    await upstream?.dispose();
  });

  it('the first claim loads the script once (EVALSHA, NOSCRIPT, EVAL), then claims are two round trips', async () => {
    assert.equal((await post(proxy.url, coupon, { 'idempotency-key': randomUUID() })).status, 200);
    const first = sent(await watch.take());
    assert.deepEqual(first.slice(-3), ['evalsha', 'eval', 'set'], first.join());

    const key = randomUUID();
    const claim = await post(proxy.url, coupon, { 'idempotency-key': key });
    assert.equal(claim.status, 200);
    const commands = await watch.take();
    assert.deepEqual(sent(commands), ['evalsha', 'set'], 'the claim script, then the record');
    assert.deepEqual(
      commands.filter((command) => command.byScript).map((command) => command.name),
      ['get', 'incr', 'pttl', 'incr', 'pttl', 'set'],
      'the script reads the key, counts both limits and takes the lock',
    );

    const replay = await post(proxy.url, coupon, { 'idempotency-key': key });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(sent(await watch.take()), ['evalsha'], 'a replay: one round trip');
  });

  it('a claim past the shopper’s limit is one round trip, 429 with Retry-After, and mints nothing', async () => {
    await post(proxy.url, coupon, { 'idempotency-key': randomUUID() }); // the shopper's third
    await watch.take();
    const minted = upstream.stats().couponsMinted;
    const refused = await post(proxy.url, coupon, { 'idempotency-key': randomUUID() });
    assert.deepEqual([refused.status, refused.body.error.code], [429, 'rate_limited']);
    assert.ok(Number(refused.headers.get('retry-after')) > 0 && Number(refused.headers.get('retry-after')) <= 60);
    assert.deepEqual(sent(await watch.take()), ['evalsha']);
    assert.equal(upstream.stats().couponsMinted, minted);
  });
});
