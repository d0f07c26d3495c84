/**
 * The shared store for several proxy instances behind a load balancer, on Redis through node-redis
 * (`loyalty-widgets/proxy/redis`). It connects on first use, so it can be handed to
 * createMarketingProxy synchronously, and reconnects by itself, in the background. Once a connection
 * has failed, requests fail at once with 503 `store_unavailable` (reads skip the cache) instead of
 * each waiting for a connection, until Redis answers again; each change of state is logged once.
 *
 * A Redis that comes back without its data (no persistence, or a new server) may have lost the
 * record of a coupon that an instance minted while it was down and still keeps in memory: for
 * RECOVERY_HOLD_MS after such a restart, every instance refuses new Idempotency-Key locks (503, tried
 * again by the widget) while the instances that kept outcomes write them back.
 */
import type * as Redis from 'redis';
import { parseUrl } from '../../shared/url.ts';
import { ProxyError } from '../shared/errors.ts';
import { REDIS_STORE_PEERS, requirePeer } from '../hosts/peer-dependency.ts';
import type { CounterState, ProxyStore } from './memory.ts';

export type { ProxyStore, CounterState } from './memory.ts';

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

/**
 * How long new Idempotency-Key locks are refused after Redis came back without its data: longer than
 * an instance takes to reconnect (it tries every second at most) and write back the outcomes it kept.
 */
const RECOVERY_HOLD_MS = 5_000;

/**
 * Tells a Redis that lost its data from one that kept it: a key that names the store's life. Missing
 * at a client's first connection, it is created as `fresh:<time>`; missing, or another than the one
 * this client saw, at a reconnection, the data is gone and it becomes `lost:<time>` (Redis's clock).
 * A client whose first connection failed before it succeeded (Redis was down, and may have come back
 * empty) takes a missing key as lost too.
 */
const EPOCH_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local current = redis.call('GET', KEYS[1])
if not current or (ARGV[1] ~= '' and current ~= ARGV[1] and string.sub(current, 1, 5) ~= 'lost:') then
  if ARGV[1] == '' and ARGV[2] ~= '1' and not current then current = 'fresh:' .. now else current = 'lost:' .. now end
  redis.call('SET', KEYS[1], current)
end
return { current, now }`;

// One round trip, atomic: the window starts with the first increment and never extends.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

// An optional peer dependency: only merchants who run several proxy instances install it.
const { createClient } = requirePeer<typeof Redis>(import.meta.url, 'redis', REDIS_STORE_PEERS);

function unavailable(retryAfterSeconds = 5): ProxyError {
  return new ProxyError(503, 'store_unavailable', 'The proxy cannot reach its shared store; try again shortly.', {
    'retry-after': String(retryAfterSeconds),
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
  if (options.cacheUrl !== undefined) checkUrl(options.cacheUrl);
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const connectWaitMs = options.connectWaitMs ?? 2000;
  const reportError =
    options.onError ?? ((error: Error) => process.stderr.write(`loyalty-proxy: redis: ${error.message}\n`));
  const reportState =
    options.onStateChange ?? ((message: string) => process.stderr.write(`loyalty-proxy: redis: ${message}\n`));
  const epochKey = `${prefix}store-epoch`;
  /** The store's life this client last saw (see EPOCH_SCRIPT); '' before its first connection. */
  let knownEpoch = '';
  /** New locks wait until then after Redis lost its data. */
  let holdUntil = 0;

  const checkEpoch = async (runScript: RunScript, sawOutage: boolean) => {
    const [epoch, now] = (await runScript(EPOCH_SCRIPT, {
      keys: [epochKey],
      arguments: [knownEpoch, sawOutage ? '1' : '0'],
    })) as [string, number];
    const lostAt = epoch.startsWith('lost:') ? Number(epoch.slice(5)) : Number.NaN;
    const holdMs = RECOVERY_HOLD_MS - (Number(now) - lostAt);
    if (holdMs > 0) {
      holdUntil = Date.now() + holdMs;
      if (epoch !== knownEpoch) {
        reportState(
          `Redis came back without its data: new Idempotency-Key claims wait ${Math.ceil(holdMs / 1000)} s for the outcomes instances kept.`,
        );
      }
    }
    knownEpoch = epoch;
  };
  const settings = { connectWaitMs, reportError, reportState };
  const main = redisConnection(options.url, '', settings, checkEpoch);
  // Cached answers in a Redis of their own (which may evict), apart from what must never be lost.
  const cache = options.cacheUrl ? redisConnection(options.cacheUrl, 'cache ', settings) : main;
  const of = (key: string) => (key.startsWith('cache:') ? cache : main);
  const px = (ttlMs: number) => ({ type: 'PX' as const, value: Math.max(1, Math.ceil(ttlMs)) });

  return {
    async get(key) {
      return (await of(key).run((redis) => redis.get(prefix + key))) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await of(key).run((redis) => redis.set(prefix + key, value, { expiration: px(ttlMs) }));
    },
    async add(key, value, ttlMs) {
      await main.client();
      await main.ready().catch(() => Promise.reject(unavailable()));
      const holdMs = holdUntil - Date.now();
      if (holdMs > 0) throw unavailable(Math.ceil(holdMs / 1000));
      return (
        (await main.run((redis) => redis.set(prefix + key, value, { condition: 'NX', expiration: px(ttlMs) }))) === 'OK'
      );
    },
    async delete(key) {
      await of(key).run((redis) => redis.del(prefix + key));
    },
    async increment(key, windowMs): Promise<CounterState> {
      const reply = (await main.run((redis) =>
        redis.eval(INCREMENT_SCRIPT, { keys: [prefix + key], arguments: [String(Math.max(1, Math.ceil(windowMs)))] }),
      )) as [number, number];
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
    async close() {
      await Promise.all([main.close(), cache === main ? undefined : cache.close()]);
    },
  };
}

/** Runs a Lua script on a connection. */
type RunScript = (script: string, options: { keys: string[]; arguments: string[] }) => Promise<unknown>;

interface ConnectionSettings {
  connectWaitMs: number;
  reportError: (error: Error) => void;
  reportState: (message: string) => void;
}

/**
 * One Redis, connected on first use and reconnected in the background; `onReady` runs at each
 * (re)connection, before `ready()` resolves. Once a connection failed, commands fail at once with 503.
 */
function redisConnection(
  url: string,
  name: string,
  settings: ConnectionSettings,
  onReady: (runScript: RunScript, sawOutage: boolean) => Promise<void> = async () => {},
) {
  let sawOutage = false;
  let lastCommandReport = 0;
  const open = () => {
    const redis = createClient({
      url,
      // Commands sent while disconnected fail at once rather than wait for a reconnection.
      disableOfflineQueue: true,
      socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000) },
    });
    let state: 'connecting' | 'ready' | 'down' = 'connecting';
    let firstAttempt: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const firstAttemptDone = new Promise<void>((resolve, reject) => (firstAttempt = { resolve, reject }));
    firstAttemptDone.catch(() => undefined);
    const connection = {
      redis,
      get down() {
        return state === 'down';
      },
      firstAttemptDone,
      checked: Promise.resolve(),
    };
    redis.on('ready', () => {
      if (state === 'down') settings.reportState(`${name}connected again.`);
      state = 'ready';
      firstAttempt?.resolve();
      connection.checked = onReady((script, options) => redis.eval(script, options), sawOutage);
      connection.checked.catch(() => undefined);
    });
    redis.on('error', (error: Error) => {
      firstAttempt?.reject(error);
      if (state === 'down' || redis.isReady) return;
      sawOutage = true;
      state = 'down';
      settings.reportError(
        new Error(
          `${name}${error.message || error.name}: unreachable; requests fail fast while it reconnects in the background.`,
        ),
      );
    });
    redis.connect().catch(() => undefined);
    return connection;
  };
  let connection: ReturnType<typeof open> | undefined;
  type Client = ReturnType<typeof open>['redis'];

  const client = async (): Promise<Client> => {
    connection ??= open();
    const { redis } = connection;
    if (redis.isReady) return redis;
    // A store known to be down costs nothing more: only the very first connection is waited for.
    if (connection.down) throw unavailable();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(unavailable()), settings.connectWaitMs);
    });
    try {
      await Promise.race([connection.firstAttemptDone, gaveUp]);
    } catch {
      throw unavailable();
    } finally {
      clearTimeout(timer);
    }
    if (!redis.isReady) throw unavailable();
    return redis;
  };
  return {
    client,
    /** Resolves once this connection's `onReady` has run. */
    ready: () => connection?.checked ?? Promise.resolve(),
    /** Any command failing (no connection, or Redis refusing it, e.g. out of memory) is a 503, never a 500. */
    async run<T>(command: (redis: Client) => Promise<T>): Promise<T> {
      const redis = await client();
      try {
        return await command(redis);
      } catch (error) {
        if (redis.isReady && Date.now() - lastCommandReport >= 10_000) {
          lastCommandReport = Date.now(); // at most one line per 10 s: a full Redis refuses every write
          settings.reportError(new Error(`${name}${error instanceof Error ? error.message : String(error)}`));
        }
        throw unavailable();
      }
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
