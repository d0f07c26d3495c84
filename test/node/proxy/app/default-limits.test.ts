/**
 * The rate limits a merchant gets without setting any (the README's and DEFAULT_RATE_LIMITS'
 * promise): coupon mints, 10 per 10 minutes per shopper and 60 per 10 minutes per client address;
 * queries that miss the cache, 300 per 10 minutes per client address. Each is reached for real
 * through a proxy created without `rateLimits`, in front of the real sandbox: the request at the limit
 * passes, the next one is 429 with a Retry-After of the window's remainder.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RATE_LIMITS } from '../../../../src/proxy/index.ts';
import { post, serveProxy, startUpstream, type ProxyUnderTest, type Upstream } from '../../support/proxy-server.ts';

const TEN_MINUTES = 600;
const coupon = { operation: 'requestCoupon', variables: { campaignId: 'camp-greenleaf-veg-box' } };

/** The statuses of `count` requests sent one after another. */
async function statuses(count: number, send: (index: number) => Promise<{ status: number }>): Promise<number[]> {
  const seen: number[] = [];
  for (let index = 0; index < count; index += 1) seen.push((await send(index)).status);
  return seen;
}

function assertLimited(reply: { status: number; headers: Headers; body: { error?: { code?: string } } }): void {
  assert.equal(reply.status, 429);
  assert.equal(reply.body.error?.code, 'rate_limited');
  const retryAfter = Number(reply.headers.get('retry-after'));
  assert.ok(
    retryAfter > TEN_MINUTES - 60 && retryAfter <= TEN_MINUTES,
    `Retry-After ${retryAfter} s: the rest of a 10-minute window`,
  );
}

describe('default rate limits', () => {
  let upstream: Upstream;
  let proxy: ProxyUnderTest;
  before(async () => {
    upstream = await startUpstream();
    // No rateLimits: the defaults. trustProxy only so that each case counts under an address of its own.
    proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, trustProxy: true });
  });
  after(async () => {
    await proxy?.close();
    await upstream?.dispose();
  });

  it('are the documented ones', () => {
    assert.deepEqual(DEFAULT_RATE_LIMITS, {
      perAddress: { limit: 60, windowSeconds: TEN_MINUTES },
      perShopper: { limit: 10, windowSeconds: TEN_MINUTES },
      queryMisses: { limit: 300, windowSeconds: TEN_MINUTES },
    });
  });

  it('let one shopper mint 10 coupons in 10 minutes, not 11', async () => {
    const shopper = { 'x-forwarded-for': '198.51.100.10', 'user-agent': 'Shopper/1' };
    const minted = upstream.stats().couponsMinted;
    assert.deepEqual(await statuses(10, () => post(proxy.url, coupon, shopper)), Array<number>(10).fill(200));
    assertLimited(await post(proxy.url, coupon, shopper));
    assert.equal(upstream.stats().couponsMinted - minted, 10);
    assert.equal(
      (await post(proxy.url, coupon, { ...shopper, 'user-agent': 'Shopper/2' })).status,
      200,
      'another shopper at the address is not limited by the first one',
    );
  });

  it('let one address mint 60 coupons in 10 minutes, whoever asks, not 61', async () => {
    const at = (index: number) => ({ 'x-forwarded-for': '198.51.100.20', 'user-agent': `Browser/${index}` });
    assert.deepEqual(await statuses(60, (index) => post(proxy.url, coupon, at(index))), Array<number>(60).fill(200));
    assertLimited(await post(proxy.url, coupon, at(60)));
    assert.equal(
      (await post(proxy.url, coupon, { 'x-forwarded-for': '198.51.100.21', 'user-agent': 'Browser/0' })).status,
      200,
      'another address is not limited',
    );
  });

  it('let one address make 300 queries that miss the cache in 10 minutes, not 301; hits stay free', async () => {
    const from = { 'x-forwarded-for': '198.51.100.30' };
    const query = (index: number) =>
      post(proxy.url, { operation: 'campaign', variables: { id: `miss-${index}` } }, from);
    assert.deepEqual(await statuses(300, query), Array<number>(300).fill(200));
    const hit = await query(0);
    assert.equal(hit.status, 200, 'a cached answer is served past the limit');
    assert.equal(hit.headers.get('x-cache'), 'HIT');
    const limited = await query(300);
    assertLimited(limited);
  });
});
