/**
 * The store conformance suite: what createMarketingProxy relies on from any `store` (memory, Redis,
 * Durable Object, Deno KV), run against one. Values round-trip exactly until they expire; `add` is a
 * lock (one winner among concurrent callers, free again after delete or expiry); `increment` counts
 * every concurrent call once, in a window that starts at the first increment and does not extend;
 * `claim` (or, for a store without it, the same steps through the other methods) takes a lock and
 * counts its counters only when the key is free, stops at the first counter past its limit and then
 * leaves the key free.
 * A store reached through several instances (see remoteStore) is held to the same: that is sharing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { claimIn, type ClaimCounter, type ClaimResult, type ProxyStore } from '../../src/proxy/stores/contract.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, for at most `ms` (a store may drop an expired key a little late). */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(what);
    await sleep(25);
  }
}

export function storeConformance(
  name: string,
  open: () => ProxyStore | Promise<ProxyStore>,
  close: (store: ProxyStore) => Promise<void> = async (store) => store.close?.(),
): void {
  describe(`${name} store`, () => {
    let store: ProxyStore;
    before(async () => {
      store = await open();
    });
    after(() => close(store));

    it('gets what was set, exactly, until it expires', async () => {
      const key = randomUUID();
      assert.equal(await store.get(key), undefined);
      await store.set(key, 'é value\nwith lines, "quotes" and 🎟', 300);
      assert.equal(await store.get(key), 'é value\nwith lines, "quotes" and 🎟');
      await sleep(300);
      await within(1000, async () => (await store.get(key)) === undefined, 'the value outlived its time');
    });

    it('keeps a large value (a page of cached campaigns) whole', async () => {
      const key = `cache:campaigns:${randomUUID()}`;
      const large = JSON.stringify({
        items: Array.from({ length: 400 }, (_, index) => `campaign ${index} ${'x'.repeat(400)} é`),
      });
      assert.ok(large.length > 150_000);
      await store.set(key, large, 60_000);
      assert.equal(await store.get(key), large);
      await store.set(key, 'small again', 60_000);
      assert.equal(await store.get(key), 'small again');
    });

    it('overwrites and deletes', async () => {
      const key = randomUUID();
      await store.set(key, 'one', 60_000);
      await store.set(key, 'two', 60_000);
      assert.equal(await store.get(key), 'two');
      await store.delete(key);
      assert.equal(await store.get(key), undefined);
      await store.delete(key); // deleting what is gone is no error
    });

    it('adds only when absent, atomically under concurrency', async () => {
      const key = randomUUID();
      const results = await Promise.all(Array.from({ length: 50 }, (_, index) => store.add(key, `v${index}`, 5_000)));
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results.indexOf(true);
      assert.equal(await store.get(key), `v${winner}`);
      assert.equal(await store.add(key, 'late', 5_000), false);
      await store.delete(key);
      assert.equal(await store.add(key, 'again', 5_000), true);
    });

    it('frees a lock once it expires (an abandoned one)', async () => {
      const key = randomUUID();
      assert.equal(await store.add(key, 'crashed', 200), true);
      assert.equal(await store.add(key, 'too soon', 200), false);
      await sleep(250);
      assert.equal(await store.add(key, 'taken over', 5_000), true);
      assert.equal(await store.get(key), 'taken over');
    });

    it('counts in a window that starts at the first increment and does not extend', async () => {
      const key = `rate:addr:${randomUUID()}`;
      const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment(key, 600)));
      assert.deepEqual(
        counts.map((state) => state.count).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, index) => index + 1),
      );
      assert.ok(
        counts.every((state) => state.resetMs > 0 && state.resetMs <= 600),
        counts.map((state) => state.resetMs).join(),
      );
      await sleep(650);
      assert.deepEqual((await store.increment(key, 600)).count, 1, 'a new window after the last one ended');
    });

    it('claims a free key once under concurrency, counting only the winner', async () => {
      const key = `idem:${randomUUID()}`;
      const counters: ClaimCounter[] = [
        { key: `rate:addr:${randomUUID()}`, windowMs: 60_000, limit: 100 },
        { key: `rate:shopper:${randomUUID()}`, windowMs: 60_000, limit: 100 },
      ];
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, index) => claimIn(store, key, `pending ${index}`, 5_000, counters)),
      );
      const taken = results.flatMap((result, index) => (result.kind === 'taken' ? [index] : []));
      assert.equal(taken.length, 1, JSON.stringify(results));
      assert.ok(results.every((result) => result.kind !== 'limited'));
      assert.ok(
        results.every((result) => result.kind === 'taken' || result.value === `pending ${taken[0]}`),
        'the others read the winner’s value',
      );
      assert.equal(await store.get(key), `pending ${taken[0]}`);
      for (const counter of counters) {
        assert.equal((await store.increment(counter.key, 60_000)).count, 2, 'counted once, by the winner');
      }
      await store.set(key, 'done', 5_000);
      assert.deepEqual(await claimIn(store, key, 'again', 5_000, counters), { kind: 'held', value: 'done' });
    });

    it('a claim stops at the first counter past its limit and leaves the key free', async () => {
      const address = { key: `rate:addr:${randomUUID()}`, windowMs: 60_000, limit: 2 };
      const shopper = { key: `rate:shopper:${randomUUID()}`, windowMs: 60_000, limit: 1 };
      const keys = [1, 2, 3].map(() => `idem:${randomUUID()}`);
      assert.deepEqual(await claimIn(store, keys[0]!, 'first', 5_000, [address, shopper]), { kind: 'taken' });
      const second = await claimIn(store, keys[1]!, 'second', 5_000, [address, shopper]);
      assert.equal(second.kind, 'limited');
      assert.equal(second.kind === 'limited' && second.counter, 1, 'the shopper’s counter');
      assert.equal(second.kind === 'limited' && second.state.count, 2);
      assert.ok(second.kind === 'limited' && second.state.resetMs > 0 && second.state.resetMs <= 60_000);
      assert.equal(await store.get(keys[1]!), undefined, 'a refused claim holds no key');
      const third = await claimIn(store, keys[2]!, 'third', 5_000, [address, shopper]);
      assert.deepEqual(third.kind === 'limited' && [third.counter, third.state.count], [0, 3], 'the address’s counter');
      assert.equal((await store.increment(shopper.key, 60_000)).count, 3, 'the counter after it was not counted');
      assert.deepEqual(await claimIn(store, keys[1]!, 'free', 5_000, []), { kind: 'taken' }, 'the key is free');
    });
  });
}

/**
 * A store whose operations go to the `/__store` route of host instances (test/runtimes/stores/hosts),
 * taking turns: each operation on another instance than the one before, so the suite above only passes
 * if the instances truly share one store.
 */
export function remoteStore(origins: readonly string[]): ProxyStore {
  let turn = 0;
  const run = async (body: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const origin = origins[turn++ % origins.length]!;
    const response = await fetch(`${origin}/__store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${origin}/__store answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  return {
    async get(key) {
      const { value } = await run({ op: 'get', key });
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value, ttlMs) {
      await run({ op: 'set', key, value, ttlMs });
    },
    async add(key, value, ttlMs) {
      return (await run({ op: 'add', key, value, ttlMs })).added === true;
    },
    async delete(key) {
      await run({ op: 'delete', key });
    },
    async increment(key, windowMs) {
      const { count, resetMs } = await run({ op: 'increment', key, windowMs });
      return { count: Number(count), resetMs: Number(resetMs) };
    },
    async claim(key, value, ttlMs, counters) {
      return (await run({ op: 'claim', key, value, ttlMs, counters })) as unknown as ClaimResult;
    },
  };
}
