/**
 * The claim path as stages, with the real sign-in, rate-limit and Idempotency-Key stages over the
 * real memory store, and a last stage in place of the mint (the mint over HTTP is coupons.test.ts):
 * the key is read before any stage; without a key the limits are counted before the mint; with one
 * they are counted as the key is taken, in the same store call, and a replay counts nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claimPath, type ClaimExchange } from '../../../../src/proxy/http/claim.ts';
import { claimRateLimits } from '../../../../src/proxy/http/claim-limits.ts';
import type { AccessLogEntry } from '../../../../src/proxy/http/access-log.ts';
import type { Stage } from '../../../../src/proxy/http/compose.ts';
import { IdempotencyKeys } from '../../../../src/proxy/http/idempotency.ts';
import { idempotency } from '../../../../src/proxy/http/idempotency-stage.ts';
import { signin } from '../../../../src/proxy/http/signin.ts';
import type { ProxyStore } from '../../../../src/proxy/stores/contract.ts';
import { createMemoryStore } from '../../../../src/proxy/stores/memory.ts';
import { BUILT_IN_OPERATIONS } from '../../../../src/proxy/upstream/operations.ts';

const perShopper = { limit: 2, windowSeconds: 600 };
const perAddress = { limit: 100, windowSeconds: 600 };

/** The memory store, with each call it gets written down by name. */
function recordedStore(): { store: ProxyStore; calls: string[] } {
  const inner = createMemoryStore();
  const calls: string[] = [];
  const store: ProxyStore = {
    get: (key) => (calls.push(`get ${key}`), inner.get(key)),
    set: (key, value, ttlMs) => (calls.push(`set ${key}`), inner.set(key, value, ttlMs)),
    add: (key, value, ttlMs) => (calls.push(`add ${key}`), inner.add(key, value, ttlMs)),
    delete: (key) => (calls.push(`delete ${key}`), inner.delete(key)),
    increment: (key, windowMs) => (calls.push(`increment ${key}`), inner.increment(key, windowMs)),
    claim: (key, value, ttlMs, counters) => {
      calls.push(`claim ${key} counting ${counters.map((counter) => counter.key).join(', ')}`);
      return inner.claim!(key, value, ttlMs, counters);
    },
  };
  return { store, calls };
}

/** The claim path as the proxy composes it, ending in a mint that answers a numbered coupon. */
function claimPathOver(store: ProxyStore, before: Stage<ClaimExchange>[] = []) {
  const mints: string[] = [];
  const mint: Stage<ClaimExchange> = async (exchange) => {
    mints.push(`mint with ${exchange.counters ? 'counters handed to the key' : 'limits counted'}`);
    return Response.json({ data: { requestCoupon: { code: `C${mints.length}` } } });
  };
  const handle = claimPath([
    ...before,
    signin({ checker: undefined, needsSignin: () => false, store, perAddress }),
    claimRateLimits(store, { perAddress, perShopper }),
    idempotency(new IdempotencyKeys(store, 60_000), 5_000),
    mint,
  ]);
  const claim = (headers: Record<string, string> = {}) => {
    const entry: AccessLogEntry = { time: '', method: 'POST', status: 0, durationMs: 0 };
    const request = new Request('http://proxy.test/api/marketing', { method: 'POST', headers });
    const call = {
      name: 'requestCoupon',
      operation: BUILT_IN_OPERATIONS.requestCoupon!,
      variables: { campaignId: 'c-1' },
    };
    const answer = handle({ request, context: {}, entry, cors: { vary: 'Origin' }, call, address: '203.0.113.7' });
    return { answer, entry };
  };
  return { claim, mints };
}

describe('the claim path', () => {
  it('without a key counts the address and the shopper before the mint, and stops at the limit', async () => {
    const { store, calls } = recordedStore();
    const { claim, mints } = claimPathOver(store);
    const first = await claim().answer;
    assert.equal(first.status, 200);
    assert.deepEqual(
      calls.map((call) => call.replace(/anon:[0-9a-f]{64}/, 'anon:…')),
      ['increment rate:addr:203.0.113.7', 'increment rate:shopper:anon:…'],
    );
    assert.deepEqual(mints, ['mint with limits counted']);
    await claim().answer;
    await assert.rejects(claim().answer, { status: 429, code: 'rate_limited' });
    assert.equal(mints.length, 2, 'the claim past the limit never reached the mint');
  });

  it('with a key counts the limits as the key is taken, in one store call, and a replay counts nothing', async () => {
    const { store, calls } = recordedStore();
    const { claim, mints } = claimPathOver(store);
    const first = claim({ 'idempotency-key': 'key-1' });
    const answer = await first.answer;
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('vary'), 'Origin');
    assert.equal(answer.headers.get('idempotent-replayed'), null);
    assert.deepEqual(mints, ['mint with counters handed to the key']);
    assert.equal(calls.filter((call) => call.startsWith('increment')).length, 0);
    assert.match(
      calls[0]!,
      /^claim idem:anon:[0-9a-f]{64}:key-1 counting rate:addr:203\.0\.113\.7, rate:shopper:anon:/,
    );

    const again = claim({ 'idempotency-key': 'key-1' });
    const replayed = await again.answer;
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.entry.replayed, true);
    assert.deepEqual(await replayed.json(), { data: { requestCoupon: { code: 'C1' } } });
    assert.equal(mints.length, 1, 'the mint ran once for the key');
    // The replay was answered from the record: it counted nothing, so the shopper's two claims are not spent.
    assert.equal((await claim({ 'idempotency-key': 'key-2' }).answer).status, 200);
  });

  it('reads the Idempotency-Key before any stage: a malformed key is refused before the shopper is asked for', async () => {
    const { store, calls } = recordedStore();
    const reached: string[] = [];
    const { claim, mints } = claimPathOver(store, [
      async (_exchange, next) => {
        reached.push('first stage');
        return next();
      },
    ]);
    await assert.rejects(claim({ 'idempotency-key': 'two words' }).answer, { status: 400, code: 'bad_request' });
    assert.deepEqual([reached, calls, mints], [[], [], []]);
  });

  it('refuses to count a claim whose shopper no stage has named', async () => {
    const { store } = recordedStore();
    const handle = claimPath([claimRateLimits(store, { perAddress, perShopper })]);
    const request = new Request('http://proxy.test/', { method: 'POST' });
    const call = { name: 'requestCoupon', operation: BUILT_IN_OPERATIONS.requestCoupon!, variables: {} };
    const entry = { time: '', method: 'POST', status: 0, durationMs: 0 };
    await assert.rejects(handle({ request, context: {}, entry, cors: {}, call, address: '203.0.113.7' }), {
      message: 'The sign-in stage must run before this claim stage.',
    });
  });
});
