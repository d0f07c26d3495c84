/**
 * The shared store for several proxy instances behind a load balancer, on Redis through node-redis
 * (`loyalty-widgets/proxy/redis`). It connects on first use, so it can be handed to
 * createMarketingProxy synchronously, and reconnects by itself, in the background. Once a connection
 * has failed, requests fail at once with 503 `store_unavailable` (reads skip the cache) instead of
 * each waiting for a connection, until Redis answers again; each change of state is logged once.
 *
 * A Redis that comes back without its data (no persistence, or a new server) may have lost the
 * record of a coupon that an instance minted while it was down and still keeps in memory: for a few
 * seconds after such a restart (redis-epoch.ts), every instance refuses new Idempotency-Key locks
 * (503, tried again by the widget) while the instances that kept outcomes write them back.
 */
import { parseUrl } from '../../shared/url.ts';
import type { ClaimResult, CounterState, ProxyStore } from './contract.ts';
import { RedisConnection, unavailable, type ConnectionSettings } from './redis-connection.ts';
import { RecoveryHold } from './redis-epoch.ts';
import { claimArgs, claimResultOf, counterStateOf, milliseconds, type Commands } from './redis-scripts.ts';
import type { RedisDescription } from './redis-topology.ts';

export type { ProxyStore, CounterState, ClaimCounter, ClaimResult } from './contract.ts';
export type { RedisDescription } from './redis-topology.ts';

export interface RedisStoreOptions {
  /** `redis[s]://[[user][:password]@]host[:port][/db]` */
  url: string;
  /** Prefix of every key the proxy writes, so it can share a Redis with other applications. */
  keyPrefix?: string;
  /**
   * A second Redis for cached answers only (`redis[s]://…`), which may evict (`allkeys-lru`): cached
   * answers can then never fill the Redis that keeps claim records, locks and rate limits, which must
   * not evict (`noeviction`). Without it, everything shares `url`.
   */
  cacheUrl?: string;
  /** How long the first request waits for the first connection; default 2000 ms. */
  connectWaitMs?: number;
  /** A lost connection (or a first one that failed), once until it is back; defaults to one line on stderr. */
  onError?: (error: Error) => void;
  /** The other changes of state (connected again, data lost), as one line each; defaults to stderr. */
  onStateChange?: (message: string) => void;
}

function checkUrl(value: string): void {
  if (!parseUrl(value, ['redis:', 'rediss:'])) {
    throw new TypeError('createRedisStore: "url" must be a redis:// or rediss:// URL.');
  }
}

/** The options' reporting: one line on stderr each unless the merchant's own. */
function settingsOf(options: RedisStoreOptions): ConnectionSettings {
  const line = (message: string) => process.stderr.write(`loyalty-proxy: redis: ${message}\n`);
  return {
    connectWaitMs: options.connectWaitMs ?? 2000,
    reportError: options.onError ?? ((error: Error) => line(error.message)),
    reportState: options.onStateChange ?? line,
  };
}

/**
 * A key's name in Redis, under the store's prefix. On a cluster, claim records, locks and counters
 * share one hash slot (`{claims}`), so the claim script's keys are always on one node; cached answers
 * spread over all.
 */
function keyName(prefix: string, key: string, tag: string): string {
  return prefix + (tag && /^(?:idem|rate):/.test(key) ? tag : '') + key;
}

const px = (ttlMs: number) => ({ type: 'PX' as const, value: milliseconds(ttlMs) });

/**
 * The store several proxy instances share (rate limits, idempotency records, cache, shopper checks).
 * Give every instance the same `url`, `keyPrefix` and `cursorSecret`; call `close()` on shutdown.
 *
 * @example
 * ```ts
 * import { createMarketingProxy } from 'loyalty-widgets/proxy';
 * import { createRedisStore } from 'loyalty-widgets/proxy/redis';
 *
 * const store = createRedisStore({ url: process.env.REDIS_URL!, keyPrefix: 'shop:' });
 * const marketing = createMarketingProxy({
 *   upstreamUrl: process.env.MARKETING_API_URL!,
 *   apiKey: process.env.MARKETING_API_KEY!,
 *   cursorSecret: process.env.CURSOR_SECRET,
 *   store,
 * });
 * process.once('SIGTERM', () => void store.close());
 * ```
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  checkUrl(options.url);
  if (options.cacheUrl !== undefined) checkUrl(options.cacheUrl);
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const settings = settingsOf(options);
  const hold = new RecoveryHold(prefix, settings.reportState);
  const main = new RedisConnection(options.url, '', settings, (redis, tag, sawOutage) =>
    hold.check(redis, tag, sawOutage),
  );
  // Cached answers in a Redis of their own (which may evict), apart from what must never be lost.
  const cache = options.cacheUrl ? new RedisConnection(options.cacheUrl, 'cache ', settings) : main;
  const of = (key: string) => (key.startsWith('cache:') ? cache : main);
  const nameOf = (key: string, tag: string) => keyName(prefix, key, tag);
  /** Runs `command` once the store may take a new lock (not while instances write back lost outcomes). */
  const locking = async <T>(command: (redis: Commands, tag: string) => Promise<T>): Promise<T> => {
    await main.client();
    await main.ready().catch(() => Promise.reject(unavailable()));
    const holdMs = hold.remainingMs();
    if (holdMs > 0) throw unavailable(Math.ceil(holdMs / 1000));
    return main.run(command);
  };

  return {
    async get(key) {
      return (await of(key).run((redis, tag) => redis.get(nameOf(key, tag)))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await of(key).run((redis, tag) => redis.set(nameOf(key, tag), value, { expiration: px(ttlMs) }));
    },
    async add(key, value, ttlMs) {
      const reply = await locking((redis, tag) =>
        redis.set(nameOf(key, tag), value, { condition: 'NX', expiration: px(ttlMs) }),
      );
      return reply === 'OK';
    },
    async delete(key) {
      await of(key).run((redis, tag) => redis.del(nameOf(key, tag)));
    },
    async increment(key, windowMs): Promise<CounterState> {
      return counterStateOf(
        await main.run((redis, tag) => redis.increment(nameOf(key, tag), String(milliseconds(windowMs)))),
      );
    },
    async claim(key, value, ttlMs, counters): Promise<ClaimResult> {
      const keys = (tag: string) => [key, ...counters.map((counter) => counter.key)].map((each) => nameOf(each, tag));
      return claimResultOf(await locking((redis, tag) => redis.claim(keys(tag), claimArgs(value, ttlMs, counters))));
    },
    async describe() {
      const claims = await main.describe();
      return cache === main ? { claims } : { claims, cache: await cache.describe() };
    },
    async close() {
      await Promise.all([main.close(), cache === main ? undefined : cache.close()]);
    },
  };
}

/** The Redis store, and what it can say about the Redis it found (for the doctor). */
export interface RedisStore extends ProxyStore {
  /** Connects if need be and says what each Redis is: one server or a cluster. 503 when unreachable. */
  describe(): Promise<{ claims: RedisDescription; cache?: RedisDescription }>;
  close(): Promise<void>;
}
