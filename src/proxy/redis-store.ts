/**
 * The shared store for several proxy instances behind a load balancer, on Redis through node-redis.
 * `redis` is loaded on first use, so importing the proxy in a Fetch runtime without it costs nothing.
 */
import type { CounterState, ProxyStore } from './store.ts';

export interface RedisStoreOptions {
  /** `redis[s]://[[user][:password]@]host[:port][/db]` */
  url: string;
  /** Prefix of every key the proxy writes, so it can share a Redis with other applications. */
  keyPrefix?: string;
  /** Connection errors (the client reconnects by itself); defaults to one line on stderr. */
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

export function createRedisStore(options: RedisStoreOptions): ProxyStore & { close(): Promise<void> } {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError('createRedisStore: "url" must be a redis:// or rediss:// URL.');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new TypeError('createRedisStore: "url" must be a redis:// or rediss:// URL.');
  }
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const onError =
    options.onError ?? ((error: Error) => process.stderr.write(`loyalty-proxy: redis: ${error.message}\n`));
  const connect = async () => {
    const { createClient } = await import('redis');
    const redis = createClient({ url: options.url });
    redis.on('error', onError);
    await redis.connect();
    return redis;
  };
  let connecting: ReturnType<typeof connect> | undefined;
  const client = () => {
    if (!connecting) {
      connecting = connect();
      // A failed first connection is not cached: the next request tries again.
      connecting.catch(() => (connecting = undefined));
    }
    return connecting;
  };

  return {
    async get(key) {
      const value = await (await client()).get(prefix + key);
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      await (await client()).set(prefix + key, value, { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } });
    },
    async add(key, value, ttlMs) {
      const reply = await (await client()).set(prefix + key, value, {
        condition: 'NX',
        expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
      });
      return reply === 'OK';
    },
    async delete(key) {
      await (await client()).del(prefix + key);
    },
    async increment(key, windowMs): Promise<CounterState> {
      const reply = (await (await client()).eval(INCREMENT_SCRIPT, {
        keys: [prefix + key],
        arguments: [String(Math.max(1, Math.ceil(windowMs)))],
      })) as [number, number];
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
    async close() {
      if (!connecting) return;
      const redis = await connecting.catch(() => undefined);
      connecting = undefined;
      if (redis?.isOpen) await redis.close();
    },
  };
}
