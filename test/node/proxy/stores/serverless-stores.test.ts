/**
 * The Durable Object and Deno KV stores' refusals and failures, which the shared-store suite
 * (test/runtimes/stores-shared.test.ts, in workerd and Deno) cannot provoke: a binding that is not a
 * namespace, an object or a KV database that fails. A failing store fails closed with 503
 * `store_unavailable`, never a 500 and never a silent "absent". The stand-ins fail the way the real
 * ones report it (a rejected stub fetch; SQLite's "database is locked" from a KV file).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDurableObjectStore, type ProxyStoreNamespace } from '../../../../src/proxy/cloudflare-store.ts';
import { createDenoKvStore, type DenoKv, type DenoKvAtomic } from '../../../../src/proxy/deno-kv-store.ts';

const storeUnavailable = { status: 503, code: 'store_unavailable' };

function namespaceAnswering(fetch: (request: Request) => Promise<Response>): ProxyStoreNamespace {
  return { idFromName: (name) => name, get: () => ({ fetch }) };
}

describe('Durable Object store', () => {
  it('refuses anything but a Durable Object namespace binding', () => {
    for (const binding of [undefined, {}, { idFromName: () => 'x' }, 'PROXY_STORE'])
      assert.throws(() => createDurableObjectStore(binding as never), /Durable Object namespace binding/);
  });

  it('answers 503 store_unavailable when the object cannot be reached or fails', async () => {
    const unreachable = createDurableObjectStore(namespaceAnswering(() => Promise.reject(new Error('overloaded'))));
    await assert.rejects(unreachable.add('idem:-:k', 'pending', 1000), storeUnavailable);
    const failing = createDurableObjectStore(namespaceAnswering(async () => new Response('boom', { status: 500 })));
    await assert.rejects(failing.get('cache:x'), storeUnavailable);
    await assert.rejects(failing.increment('rate:addr:x', 1000), storeUnavailable);
    const garbled = createDurableObjectStore(namespaceAnswering(async () => new Response('<html>', { status: 200 })));
    await assert.rejects(garbled.add('idem:-:k', 'pending', 1000), storeUnavailable);
  });

  it('names each key’s object by the prefix and the key, hashing only names too long to read', async () => {
    const names: string[] = [];
    const store = createDurableObjectStore(
      {
        idFromName: (name) => (names.push(name), name),
        get: () => ({ fetch: async () => Response.json({ value: 'v' }) }),
      },
      { keyPrefix: 'shop:' },
    );
    await store.get('idem:-:key-1');
    await store.get(`cache:${'x'.repeat(1000)}`);
    assert.equal(names[0], 'shop:idem:-:key-1');
    assert.match(names[1]!, /^shop:sha256:[0-9a-f]{64}$/);
  });
});

/** A KV database in memory whose commits fail as `failures` says, one entry per commit. */
function kvFailing(failures: (Error | undefined)[]): DenoKv {
  const data = new Map<string, { value: unknown; versionstamp: string }>();
  let version = 0;
  const kv: DenoKv = {
    async get(key) {
      const found = data.get(JSON.stringify(key));
      return { value: (found?.value ?? null) as never, versionstamp: found?.versionstamp ?? null };
    },
    async getMany(keys) {
      return Promise.all(keys.map((key) => kv.get(key)));
    },
    async delete(key) {
      data.delete(JSON.stringify(key));
    },
    atomic() {
      const checks: { key: readonly (string | number)[]; versionstamp: string | null }[] = [];
      const sets: [string, unknown][] = [];
      const atomic: DenoKvAtomic = {
        check: (...more) => (checks.push(...more), atomic),
        set: (key, value) => (sets.push([JSON.stringify(key), value]), atomic),
        async commit() {
          const failure = failures.shift();
          if (failure) throw failure;
          if (
            checks.some((check) => (data.get(JSON.stringify(check.key))?.versionstamp ?? null) !== check.versionstamp)
          )
            return { ok: false };
          const versionstamp = String(++version).padStart(20, '0');
          for (const [key, value] of sets) data.set(key, { value, versionstamp });
          return { ok: true };
        },
      };
      return atomic;
    },
  };
  return kv;
}

describe('Deno KV store', () => {
  it('refuses anything but a Deno KV database', () => {
    for (const kv of [undefined, {}, { get: () => undefined }])
      assert.throws(() => createDenoKvStore(kv as never), /Deno KV database/);
  });

  it('tries again while another process holds the KV file ("database is locked"): nothing was written', async () => {
    const locked = () => new TypeError('database is locked');
    const store = createDenoKvStore(kvFailing([locked(), locked(), locked()]));
    assert.equal(await store.add('idem:-:k', 'pending', 60_000), true);
    assert.equal(await store.add('idem:-:k', 'pending', 60_000), false);
    assert.equal((await store.increment('rate:addr:a', 60_000)).count, 1);
  });

  it('answers 503 store_unavailable at once for any other failure, and once a lock outlasts the wait', async () => {
    const broken = createDenoKvStore(kvFailing([new Error('disk I/O error')]));
    const started = Date.now();
    await assert.rejects(broken.add('idem:-:k', 'pending', 60_000), storeUnavailable);
    assert.ok(Date.now() - started < 500, 'not retried');
    const alwaysLocked = createDenoKvStore(
      kvFailing(Array.from({ length: 10_000 }, () => new TypeError('database is locked'))),
    );
    await assert.rejects(alwaysLocked.increment('rate:addr:a', 60_000), storeUnavailable);
  });
});
