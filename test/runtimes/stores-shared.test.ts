/**
 * Exactly-once across instances, on each store the proxy ships: two instances sharing the store
 * (test/runtimes/stores/instances.ts), the real Marketing sandbox as their upstream (it counts what
 * it mints), and for each: the store conformance suite with its operations alternating between the two
 * instances; 200 concurrent coupon requests with one Idempotency-Key spread over both → one coupon
 * minted, the same code in every answer; the per-address rate limit counted across both; and a mint
 * slower than the timeout answered 504 by one instance, whose coupon a retry on the other receives
 * (in workerd only because the Worker passes ctx.waitUntil).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startUpstream, TEST_API_KEY, type Upstream } from '../node/support/proxy-server.ts';
import { startSlowMarketing, type SlowMarketing } from '../support/slow-marketing.ts';
import { remoteStore, storeConformance } from '../support/store-conformance.ts';
import { requestCoupon } from './support/client.ts';
import { SHARED_STORES, type StoreInstances } from './stores/instances.ts';

const PER_ADDRESS_LIMIT = 4;
const CONCURRENT_CLAIMS = 200;
const CAMPAIGN = 'camp-greenleaf-veg-box';
const TIMEOUT_MS = 1500;
/** Past the instances' timeout, within a keyed mint's bound (3 × TIMEOUT_MS). */
const SLOW_MINT_MS = 2500;

let sandbox: Upstream;
/** The instances' upstream: the sandbox, behind a front that can hold mints (quick unless a case slows it). */
let upstream: SlowMarketing;
before(async () => {
  sandbox = await startUpstream();
  upstream = await startSlowMarketing(sandbox.marketingUrl, 0);
});
after(async () => {
  await upstream?.close();
  await sandbox?.dispose();
});

/** `STORES=redis,deno` runs only the stores whose names contain one of these. */
const only = process.env.STORES?.split(',')
  .map((name) => name.trim().toLowerCase())
  .filter(Boolean);

for (const kind of SHARED_STORES.filter(
  ({ name }) => !only || only.some((part) => name.toLowerCase().includes(part)),
)) {
  describe(`${kind.name}`, () => {
    let instances: StoreInstances;
    before(async () => {
      instances = await kind.start({
        MARKETING_API_URL: upstream.url,
        MARKETING_API_KEY: TEST_API_KEY,
        PER_ADDRESS_LIMIT: String(PER_ADDRESS_LIMIT),
        TIMEOUT_MS: String(TIMEOUT_MS),
      });
    });
    after(() => instances?.stop());

    it('runs two distinct instances', async () => {
      const names = await Promise.all(
        instances.origins.map(
          async (origin) => ((await (await fetch(`${origin}/__instance`)).json()) as { instance: string }).instance,
        ),
      );
      assert.equal(names.length, 2);
      assert.notEqual(names[0], names[1]);
    });

    storeConformance(`${kind.name}, through both instances,`, () => remoteStore(instances.origins));

    it(`mints one coupon for ${CONCURRENT_CLAIMS} concurrent requests with one Idempotency-Key spread over both`, async (t) => {
      const key = randomUUID();
      const minted = sandbox.stats().couponsMinted;
      const started = performance.now();
      const replies = await Promise.all(
        Array.from({ length: CONCURRENT_CLAIMS }, (_, index) =>
          requestCoupon(`${instances.origins[index % 2]}/api/marketing`, CAMPAIGN, { key, from: '127.0.0.21' }),
        ),
      );
      const statuses = replies.map((reply) => reply.status).filter((status) => status !== 200);
      assert.deepEqual(statuses, [], replies.find((reply) => reply.status !== 200)?.text);
      const mints = sandbox.stats().couponsMinted - minted;
      const codes = new Set(replies.map((reply) => reply.body.data.requestCoupon.coupon.code));
      const replayed = replies.filter((reply) => reply.headers['idempotent-replayed'] === 'true').length;
      t.diagnostic(
        `${kind.name}: ${CONCURRENT_CLAIMS} requests, ${replies.length - statuses.length} × 200, ${replayed} replayed, ` +
          `${mints} minted upstream, ${codes.size} distinct code, ${Math.round(performance.now() - started)} ms`,
      );
      assert.equal(mints, 1);
      assert.equal(codes.size, 1);
      assert.equal(replayed, CONCURRENT_CLAIMS - 1);
    });

    it('counts the per-address rate limit across both instances', async (t) => {
      const statuses: number[] = [];
      for (let index = 0; index <= PER_ADDRESS_LIMIT; index += 1)
        statuses.push(
          (await requestCoupon(`${instances.origins[index % 2]}/api/marketing`, CAMPAIGN, { from: '127.0.0.22' }))
            .status,
        );
      t.diagnostic(
        `${kind.name}: limit ${PER_ADDRESS_LIMIT} per address, alternating instances: ${statuses.join(' ')}`,
      );
      assert.deepEqual(statuses, [...Array<number>(PER_ADDRESS_LIMIT).fill(200), 429]);
      const limited = await requestCoupon(`${instances.origins[0]}/api/marketing`, CAMPAIGN, { from: '127.0.0.22' });
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      const neighbour = await requestCoupon(`${instances.origins[1]}/api/marketing`, CAMPAIGN, { from: '127.0.0.23' });
      assert.equal(neighbour.status, 200, 'another address has its own count');
    });

    it('a mint slower than the timeout: one instance answers 504 and keeps waiting, a retry on the other receives its coupon', async (t) => {
      upstream.setMintDelay(SLOW_MINT_MS);
      try {
        const key = randomUUID();
        const minted = sandbox.stats().couponsMinted;
        const mintedLater = upstream.nextMint();
        const [first, second] = instances.origins.map((origin) => `${origin}/api/marketing`);
        const timedOut = await requestCoupon(first!, CAMPAIGN, { key, from: '127.0.0.24' });
        assert.deepEqual([timedOut.status, timedOut.body.error.code], [504, 'upstream_timeout'], timedOut.text);
        assert.match(timedOut.body.error.message, /same Idempotency-Key/);
        const code = await mintedLater;
        // The first instance's call goes on after its answer (a Worker's ctx.waitUntil) and records the coupon.
        let retry = await requestCoupon(second!, CAMPAIGN, { key, from: '127.0.0.24' });
        for (let attempt = 1; retry.status === 504 && attempt < 5; attempt += 1)
          retry = await requestCoupon(second!, CAMPAIGN, { key, from: '127.0.0.24' });
        t.diagnostic(
          `${kind.name}: slow mint, first answer ${timedOut.status}, retry on the other instance ${retry.status}`,
        );
        assert.equal(retry.status, 200, retry.text);
        assert.equal(retry.body.data.requestCoupon.coupon.code, code, 'the coupon the upstream minted');
        assert.equal(sandbox.stats().couponsMinted - minted, 1);
      } finally {
        upstream.setMintDelay(0);
      }
    });
  });
}
