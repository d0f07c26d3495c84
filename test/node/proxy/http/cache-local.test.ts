/**
 * The in-process layer in front of the shared cache: hits on one instance read the shared store at
 * most once per LOCAL_TTL_MS, each instance keeps its own copy, and a copy is read again from the
 * store once it is older than that (so another instance's refresh is seen), by one read for all the
 * requests that find it gone at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOCAL_TTL_MS, ResponseCache } from '../../../../src/proxy/http/cache.ts';
import { createMemoryStore, type ProxyStore } from '../../../../src/proxy/index.ts';
import { post, serveProxy, startUpstream, type Upstream } from '../../support/proxy-server.ts';

/** A memory store that counts the cache reads it serves. */
function countingStore(): { store: ProxyStore; cacheReads: () => number } {
  const store = createMemoryStore();
  let reads = 0;
  return {
    store: { ...store, get: (key) => (key.startsWith('cache:') && reads++, store.get(key)) },
    cacheReads: () => reads,
  };
}

/** An instance's cache on `store`, its clock `now`; any failure fails the test. */
function cacheOn(store: ProxyStore, now: () => number): ResponseCache {
  const fail = (error: unknown) => assert.fail(String(error));
  return new ResponseCache(
    store,
    { ttlSeconds: 30, staleWhileRevalidateSeconds: 120 },
    fail,
    { failed: fail, answered() {} },
    now,
  );
}

describe('in-process cache layer', () => {
  let upstream: Upstream;
  before(async () => {
    upstream = await startUpstream();
  });
  after(() => upstream.dispose());

  it('serves repeated hits on an instance without reading the shared store each time', async () => {
    const { store, cacheReads } = countingStore();
    // A clock held still: the copies never age, however slow the machine.
    const time = 1_000_000;
    const [here, elsewhere] = [0, 1].map(() => cacheOn(store, () => time));
    assert.deepEqual(await here!.get('k', async () => 'answer'), { body: 'answer', state: 'MISS' });
    const hits = [];
    for (let index = 0; index < 20; index += 1) hits.push((await here!.get('k', async () => 'unused')).state);
    assert.deepEqual(hits, Array<string>(20).fill('HIT'));
    assert.equal(cacheReads(), 1, 'only the miss read the store');
    assert.deepEqual(
      await elsewhere!.get('k', async () => 'unused'),
      { body: 'answer', state: 'HIT' },
      'the other instance reads it from the store',
    );
    assert.equal((await elsewhere!.get('k', async () => 'unused')).state, 'HIT');
    assert.equal(cacheReads(), 2);
  });

  it('says HIT through the proxy for an answer its instance holds', async () => {
    const { store } = countingStore();
    const proxy = await serveProxy({ upstreamUrl: upstream.marketingUrl, store });
    try {
      const query = { operation: 'campaigns', variables: { limit: 5 } };
      assert.equal((await post(proxy.url, query)).headers.get('x-cache'), 'MISS');
      assert.equal((await post(proxy.url, query)).headers.get('x-cache'), 'HIT');
    } finally {
      await proxy.close();
    }
  });

  it('reads the store again once its copy is older than LOCAL_TTL_MS', async () => {
    const { store, cacheReads } = countingStore();
    let time = 1_000_000;
    const here = cacheOn(store, () => time);
    const elsewhere = cacheOn(store, () => time);
    assert.deepEqual(await here.get('k', async () => 'first'), { body: 'first', state: 'MISS' });
    time += LOCAL_TTL_MS / 2;
    // Another instance writes a newer answer (as its own refresh would).
    await store.set('cache:k', `${time}\nsecond`, 60_000);
    assert.deepEqual(await here.get('k', async () => 'unused'), { body: 'first', state: 'HIT' }, 'its own copy');
    time += LOCAL_TTL_MS;
    assert.deepEqual(await here.get('k', async () => 'unused'), { body: 'second', state: 'HIT' }, 'read again');
    assert.deepEqual(await elsewhere.get('k', async () => 'unused'), { body: 'second', state: 'HIT' });
    assert.equal(cacheReads(), 3);
  });

  it('shares one store read among the requests that find its copy gone at once', async () => {
    const { store, cacheReads } = countingStore();
    let time = 1_000_000;
    const here = cacheOn(store, () => time);
    const elsewhere = cacheOn(store, () => time);
    assert.equal((await elsewhere.get('k', async () => 'answer')).state, 'MISS');
    assert.equal(cacheReads(), 1, 'the miss elsewhere');
    const burst = () => Promise.all(Array.from({ length: 50 }, () => here.get('k', async () => 'unused')));
    assert.deepEqual(
      (await burst()).map(({ body, state }) => `${state} ${body}`),
      Array<string>(50).fill('HIT answer'),
    );
    assert.equal(cacheReads(), 2, 'one read for the first 50 requests here');
    time += LOCAL_TTL_MS;
    assert.equal((await burst()).length, 50);
    assert.equal(cacheReads(), 3, 'one read once the copy expired');
  });
});
