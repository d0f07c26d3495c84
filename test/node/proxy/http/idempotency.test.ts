/**
 * The idempotency record keeping on its own (memory store): a lock whose holder stopped without an
 * outcome (a crashed instance) is answered "may have run", never run again; a request that did
 * nothing frees its key; a recorded outcome is returned without running again; an outcome the store
 * cannot take is kept, answered from memory, and written once the store takes it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyError } from '../../../../src/proxy/shared/errors.ts';
import { IdempotencyKeys } from '../../../../src/proxy/http/idempotency.ts';
import { createMemoryStore } from '../../../../src/proxy/stores/memory.ts';

const neverRelease = () => false;

describe('IdempotencyKeys', () => {
  it('answers a lock whose holder stopped without an outcome as "may have run", and never runs it again', async () => {
    const store = createMemoryStore();
    const crashed = new IdempotencyKeys(store, 150);
    let runs = 0;
    // The first holder never finishes (its process died mid-call); its lock stays.
    void crashed
      .run('-:k1', 'f', () => new Promise<never>(() => void runs++), neverRelease, {
        answerWithinMs: 50,
        stillRunning: () => new ProxyError(504, 'upstream_timeout', 'still waiting'),
      })
      .catch(() => undefined);
    const other = new IdempotencyKeys(store, 150);
    const gone = new ProxyError(504, 'upstream_timeout', 'may have run');
    const started = Date.now();
    await assert.rejects(
      other.run('-:k1', 'f', async () => ({ status: 200, body: `run ${++runs}` }), neverRelease, {
        answerWithinMs: 2_000,
        stillRunning: () => new ProxyError(504, 'upstream_timeout', 'still waiting'),
        mayHaveRun: () => gone,
      }),
      gone,
    );
    assert.ok(Date.now() - started >= 100, 'it waited while the holder could still be running');
    assert.equal(runs, 1, 'the second instance did not run it again');
    assert.match((await store.get('idem:-:k1')) ?? '', /pending/, 'the lock outlives its holder');
  });

  it('keeps an outcome the store cannot record, answers it from memory, and writes it once the store takes it', async () => {
    const store = createMemoryStore();
    let down = true;
    const flaky = {
      ...store,
      set: (key: string, value: string, ttlMs: number) =>
        down ? Promise.reject(new Error('store down')) : store.set(key, value, ttlMs),
    };
    const notices: string[] = [];
    const keys = new IdempotencyKeys(flaky, 5_000, (notice) => notices.push(`${notice.kind} ${notice.waiting}`));
    let runs = 0;
    const execute = async () => ({ status: 200, body: `COUPON-${++runs}` });
    assert.deepEqual(await keys.run('-:k6', 'f', execute, neverRelease), {
      status: 200,
      body: 'COUPON-1',
      replayed: false,
    });
    assert.deepEqual(notices, ['kept 1']);
    assert.deepEqual(await keys.run('-:k6', 'f', execute, neverRelease), {
      status: 200,
      body: 'COUPON-1',
      replayed: true,
    });
    await assert.rejects(keys.run('-:k6', 'other', execute, neverRelease), /other variables/);
    down = false;
    const written = Date.now();
    while (!notices.includes('written 0')) {
      assert.ok(Date.now() - written < 2_000, 'written once the store takes it');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const elsewhere = new IdempotencyKeys(store, 5_000);
    assert.deepEqual(await elsewhere.run('-:k6', 'f', execute, neverRelease), {
      status: 200,
      body: 'COUPON-1',
      replayed: true,
    });
    assert.equal(runs, 1);
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
