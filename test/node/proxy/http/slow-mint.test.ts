/**
 * A mint slower than the proxy's timeout: the caller is answered 504 "still waiting" (not recorded),
 * the upstream call goes on, its coupon is recorded for the Idempotency-Key, and a retry with the same
 * key (on this instance or another sharing the store) receives exactly that coupon. Real sandbox
 * behind a slow front, the proxy on a real HTTP server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMarketingProxy, createMemoryStore } from '../../../../src/proxy/index.ts';
import { post, serveProxy, startUpstream, TEST_API_KEY, type Upstream } from '../../support/proxy-server.ts';
import { startSlowMarketing, type SlowMarketing } from '../../../support/slow-marketing.ts';

const TIMEOUT_MS = 500;
const MINT_DELAY_MS = 900; // past the caller's timeout, within the mint's bound (3 × TIMEOUT_MS)
const CAMPAIGN = 'camp-harbor-morning-latte';
const coupon = { operation: 'requestCoupon', variables: { campaignId: CAMPAIGN } };

let sandbox: Upstream;
let slow: SlowMarketing;
before(async () => {
  sandbox = await startUpstream();
  slow = await startSlowMarketing(sandbox.marketingUrl, MINT_DELAY_MS);
});
after(async () => {
  await slow?.close();
  await sandbox?.dispose();
});

describe('a mint slower than the timeout', () => {
  it('answers 504 "still waiting", records the late coupon for the key, and replays it to the retry', async () => {
    const proxy = await serveProxy({ upstreamUrl: slow.url, timeoutMs: TIMEOUT_MS, introspection: false });
    try {
      const minted = sandbox.stats().couponsMinted;
      const headers = { 'idempotency-key': randomUUID() };
      const mintedLater = slow.nextMint();
      const first = await post(proxy.url, coupon, headers);
      assert.deepEqual([first.status, first.body.error.code], [504, 'upstream_timeout']);
      assert.match(first.body.error.message, /same Idempotency-Key/);
      assert.equal(first.headers.get('retry-after'), '1');
      const code = await mintedLater;
      const retry = await post(proxy.url, coupon, headers);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.data.requestCoupon.coupon.code, code, 'the coupon the upstream minted');
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(sandbox.stats().couponsMinted - minted, 1);
      const late = proxy.logs.filter((entry) => entry.method === 'LATE');
      assert.deepEqual(
        late.map(({ operation, status }) => ({ operation, status })),
        [{ operation: 'requestCoupon', status: 200 }],
        'the late answer is in the log, once',
      );
    } finally {
      await proxy.close();
    }
  });

  it('a retry that arrives while the upstream still works waits for its answer instead of minting again', async () => {
    const proxy = await serveProxy({ upstreamUrl: slow.url, timeoutMs: TIMEOUT_MS, introspection: false });
    try {
      const minted = sandbox.stats().couponsMinted;
      const headers = { 'idempotency-key': randomUUID() };
      const replies = [await post(proxy.url, coupon, headers)];
      // Each retry waits up to the timeout: the mint's bound (3 × TIMEOUT_MS) is reached within 4 requests.
      while (replies.at(-1)!.status === 504 && replies.length < 5) replies.push(await post(proxy.url, coupon, headers));
      assert.ok(replies.length >= 2 && replies.length <= 4, `${replies.length} requests`);
      assert.equal(replies.at(-1)!.status, 200, replies.at(-1)!.text);
      assert.equal(replies.at(-1)!.body.data.requestCoupon.coupon.code, slow.minted.at(-1));
      assert.equal(sandbox.stats().couponsMinted - minted, 1);
    } finally {
      await proxy.close();
    }
  });

  it('the retry on another instance sharing the store gets the same coupon', async () => {
    const store = createMemoryStore();
    const settings = { upstreamUrl: slow.url, timeoutMs: TIMEOUT_MS, introspection: false as const, store };
    const [a, b] = await Promise.all([serveProxy(settings), serveProxy(settings)]);
    try {
      const minted = sandbox.stats().couponsMinted;
      const headers = { 'idempotency-key': randomUUID() };
      const mintedLater = slow.nextMint();
      assert.equal((await post(a.url, coupon, headers)).status, 504);
      let retry = await post(b.url, coupon, headers);
      for (let attempt = 1; retry.status === 504 && attempt < 5; attempt += 1)
        retry = await post(b.url, coupon, headers);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.data.requestCoupon.coupon.code, await mintedLater);
      assert.equal(sandbox.stats().couponsMinted - minted, 1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('hands the running mint to the runtime’s waitUntil, which ends once the coupon is recorded', async () => {
    const store = createMemoryStore();
    // The record's name holds the client's scope: found by the key it ends with.
    const names: string[] = [];
    const claim = store.claim!.bind(store);
    store.claim = (name, ...rest) => (names.push(name), claim(name, ...rest));
    const marketing = createMarketingProxy({
      upstreamUrl: slow.url,
      apiKey: TEST_API_KEY,
      timeoutMs: TIMEOUT_MS,
      introspection: false,
      store,
      logger: () => {},
    });
    const kept: Promise<unknown>[] = [];
    const key = randomUUID();
    const request = () =>
      new Request('http://proxy.test/api/marketing', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(coupon),
      });
    const first = await marketing(request(), { waitUntil: (work: Promise<unknown>) => void kept.push(work) });
    assert.equal(first.status, 504);
    assert.equal(kept.length, 1, 'the mint was handed to waitUntil');
    const recordName = names.find((name) => name.startsWith('idem:') && name.endsWith(`:${key}`));
    assert.ok(recordName, 'the key was taken in the store');
    const recordedBefore = await store.get(recordName);
    assert.match(String(recordedBefore), /"pending"/, 'while it runs the key is held, not recorded as a 504');
    await kept[0];
    const record = JSON.parse(String(await store.get(recordName))) as { state: string; status: number };
    assert.deepEqual([record.state, record.status], ['done', 200], 'recorded by the time waitUntil’s work ends');
    const retry = await marketing(request());
    assert.equal(retry.status, 200);
  });

  it('without a key, the caller’s timeout still ends the call: nobody could receive a late coupon', async () => {
    const proxy = await serveProxy({ upstreamUrl: slow.url, timeoutMs: TIMEOUT_MS, introspection: false });
    try {
      const reply = await post(proxy.url, coupon);
      assert.deepEqual([reply.status, reply.body.error.code], [504, 'upstream_timeout']);
      assert.doesNotMatch(reply.body.error.message, /Idempotency-Key/);
    } finally {
      await proxy.close();
    }
  });
});
