/**
 * The shared store for several proxy instances behind a load balancer, on Redis through node-redis
 * (`loyalty-widgets/proxy/redis`). It connects on first use, so it can be handed to
 * createMarketingProxy synchronously, and reconnects by itself. While Redis is unreachable requests
 * fail at once with 503 `store_unavailable` instead of queueing until they time out.
 */
import type * as Redis from 'redis';
import { parseUrl } from '../shared/url.ts';
import { ProxyError } from './errors.ts';
import { REDIS_STORE_PEERS, requirePeer } from './peer-dependency.ts';
import type { CounterState, ProxyStore } from './store.ts';

export type { ProxyStore, CounterState } from './store.ts';

export interface RedisStoreOptions {
  /** `redis[s]://[[user][:password]@]host[:port][/db]` */
  url: string;
  /** Prefix of every key the proxy writes, so it can share a Redis with other applications. */
  keyPrefix?: string;
  /** How long the first request waits for the first connection; default 2000 ms. */
  connectWaitMs?: number;
  /** Connection errors, at most one per 10 s; defaults to one line on stderr. */
  onError?: (error: Error) => void;
}

// One round trip, atomic: the window starts with the first increment and never extends.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

const ERROR_REPORT_INTERVAL_MS = 10_000;

// An optional peer dependency: only merchants who run several proxy instances install it.
const { createClient } = requirePeer<typeof Redis>(import.meta.url, 'redis', REDIS_STORE_PEERS);

function unavailable(): ProxyError {
  return new ProxyError(503, 'store_unavailable', 'The proxy cannot reach its shared store; try again shortly.', {
    'retry-after': '5',
  });
}

function checkUrl(value: string): void {
  if (!parseUrl(value, ['redis:', 'rediss:'])) {
    throw new TypeError('createRedisStore: "url" must be a redis:// or rediss:// URL.');
  }
}

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
export function createRedisStore(options: RedisStoreOptions): ProxyStore & { close(): Promise<void> } {
  checkUrl(options.url);
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const connectWaitMs = options.connectWaitMs ?? 2000;
  const report =
    options.onError ?? ((error: Error) => process.stderr.write(`loyalty-proxy: redis: ${error.message}\n`));
  let lastReport = 0;
  const onError = (error: Error) => {
    if (Date.now() - lastReport < ERROR_REPORT_INTERVAL_MS) return;
    lastReport = Date.now();
    report(error);
  };

  const open = () => {
    const redis = createClient({
      url: options.url,
      // Commands sent while disconnected fail at once rather than wait for a reconnection.
      disableOfflineQueue: true,
      socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    });
    redis.on('error', onError);
    const firstConnection = redis.connect();
    firstConnection.catch(onError);
    return { redis, firstConnection };
  };
  let connection: ReturnType<typeof open> | undefined;

  const client = async () => {
    connection ??= open();
    const { redis, firstConnection } = connection;
    if (!redis.isReady) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(unavailable()), connectWaitMs);
      });
      try {
        await Promise.race([firstConnection, gaveUp]);
      } catch {
        throw unavailable();
      } finally {
        clearTimeout(timer);
      }
    }
    return redis;
  };
  // Any command failing for want of a connection becomes 503, not a generic 500.
  const run = async <T>(command: (redis: Awaited<ReturnType<typeof client>>) => Promise<T>): Promise<T> => {
    const redis = await client();
    try {
      return await command(redis);
    } catch (error) {
      throw redis.isReady ? error : unavailable();
    }
  };
  const px = (ttlMs: number) => ({ type: 'PX' as const, value: Math.max(1, Math.ceil(ttlMs)) });

  return {
    async get(key) {
      return (await run((redis) => redis.get(prefix + key))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await run((redis) => redis.set(prefix + key, value, { expiration: px(ttlMs) }));
    },
    async add(key, value, ttlMs) {
      return (
        (await run((redis) => redis.set(prefix + key, value, { condition: 'NX', expiration: px(ttlMs) }))) === 'OK'
      );
    },
    async delete(key) {
      await run((redis) => redis.del(prefix + key));
    },
    async increment(key, windowMs): Promise<CounterState> {
      const reply = (await run((redis) =>
        redis.eval(INCREMENT_SCRIPT, { keys: [prefix + key], arguments: [String(Math.max(1, Math.ceil(windowMs)))] }),
      )) as [number, number];
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
    async close() {
      const current = connection;
      connection = undefined;
      if (!current) return;
      if (current.redis.isReady) await current.redis.close();
      else current.redis.destroy();
    },
  };
}
