/**
 * The idempotency record keeping on its own (memory store): an abandoned lock (a crashed instance) is
 * taken over once it expires, a request that did nothing frees its key, and a recorded outcome is
 * returned without running again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyError } from '../../src/proxy/errors.ts';
import { IdempotencyKeys } from '../../src/proxy/idempotency.ts';
import { createMemoryStore } from '../../src/proxy/store.ts';

const neverRelease = () => false;

describe('IdempotencyKeys', () => {
  it('takes over a lock left pending by a crashed instance once it expires', async () => {
    const store = createMemoryStore();
    await store.add('idem:-:k1', JSON.stringify({ state: 'pending', fingerprint: 'f' }), 150);
    const keys = new IdempotencyKeys(store, 150);
    let runs = 0;
    const started = Date.now();
    const outcome = await keys.run('-:k1', 'f', async () => ({ status: 200, body: `run ${++runs}` }), neverRelease);
    assert.equal(outcome.body, 'run 1');
    assert.equal(outcome.replayed, false);
    assert.ok(Date.now() - started >= 100, 'it waited for the lock to expire');
  });

  it('frees the key when the request did nothing, records it otherwise', async () => {
    const store = createMemoryStore();
    const keys = new IdempotencyKeys(store, 5_000);
    const limited = new ProxyError(429, 'rate_limited', 'slow down');
    const releaseLimited = (error: unknown) => error === limited;
    await assert.rejects(
      keys.run('-:k2', 'f', async () => Promise.reject(limited), releaseLimited),
      limited,
    );
    assert.equal(await store.get('idem:-:k2'), undefined);
    const ok = await keys.run('-:k2', 'f', async () => ({ status: 200, body: 'minted' }), releaseLimited);
    assert.deepEqual(ok, { status: 200, body: 'minted', replayed: false });

    const notFound = new ProxyError(404, 'not_found', 'no such campaign');
    const first = await keys.run('-:k3', 'f', async () => Promise.reject(notFound), releaseLimited);
    assert.equal(first.status, 404, 'a definite answer becomes the recorded outcome');
    assert.equal(first.replayed, false);
    const replay = await keys.run('-:k3', 'f', async () => ({ status: 200, body: 'must not run' }), releaseLimited);
    assert.equal(replay.status, 404);
    assert.equal(JSON.parse(replay.body).error.code, 'not_found');
    assert.equal(replay.replayed, true);
  });

  it('hands the answer over even when the store cannot record it, trying the write twice', async () => {
    const store = createMemoryStore();
    let writes = 0;
    const failingWrites = { ...store, set: async () => void (writes++, await Promise.reject(new Error('store down'))) };
    const keys = new IdempotencyKeys(failingWrites, 5_000);
    const outcome = await keys.run('-:k5', 'f', async () => ({ status: 200, body: 'COUPON-1' }), neverRelease);
    assert.deepEqual(outcome, { status: 200, body: 'COUPON-1', replayed: false });
    assert.equal(writes, 2);
  });

  it('refuses another fingerprint for a recorded key', async () => {
    const keys = new IdempotencyKeys(createMemoryStore(), 5_000);
    await keys.run('-:k4', 'a', async () => ({ status: 200, body: 'x' }), neverRelease);
    await assert.rejects(
      keys.run('-:k4', 'b', async () => ({ status: 200, body: 'y' }), neverRelease),
      { code: 'idempotency_key_reused' },
    );
  });
});
