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
import type { ClaimResult, CounterState, ProxyStore } from './memory.ts';

export type { ProxyStore, CounterState, ClaimCounter, ClaimResult } from './memory.ts';

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

/**
 * A coupon claim's first step (ProxyStore.claim), atomic: the value holding KEYS[1]; or each counter
 * (KEYS[2..]: window ARGV[2i-1], limit ARGV[2i]) counted as INCREMENT_SCRIPT does, stopping at the
 * first past its limit; or, all within their limits, KEYS[1] set to ARGV[1] for ARGV[2] ms.
 */
const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then return { 'held', current } end
for i = 2, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[2 * i - 1])
    ttl = tonumber(ARGV[2 * i - 1])
  end
  if count > tonumber(ARGV[2 * i]) then return { 'limited', i - 2, count, ttl } end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return { 'taken' }`;

// An optional peer dependency: only merchants who run several proxy instances install it.
const { createClient, createCluster, defineScript } = requirePeer<typeof Redis>(
  import.meta.url,
  'redis',
  REDIS_STORE_PEERS,
);

/**
 * The scripts, sent by SHA (EVALSHA); node-redis sends a script's text (EVAL, which also loads it)
 * only when Redis answers NOSCRIPT: the first time, and after a restart or SCRIPT FLUSH.
 */
const SCRIPTS = {
  claim: defineScript({
    SCRIPT: CLAIM_SCRIPT,
    parseCommand(parser, keys: string[], args: string[]) {
      parser.pushKeysLength(keys);
      parser.push(...args);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
  increment: defineScript({
    SCRIPT: INCREMENT_SCRIPT,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser, key: string, windowMs: string) {
      parser.pushKey(key);
      parser.push(windowMs);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
  epoch: defineScript({
    SCRIPT: EPOCH_SCRIPT,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser, key: string, known: string, sawOutage: string) {
      parser.pushKey(key);
      parser.push(known, sawOutage);
    },
    transformReply: (reply: unknown) => reply as never,
  }),
};

/** The commands the store sends, the same on one Redis and on a cluster. */
interface Commands {
  get(key: string): Promise<string | null>;
  set(
    key: string,
    value: string,
    options: { condition?: 'NX'; expiration: { type: 'PX'; value: number } },
  ): Promise<string | null>;
  del(key: string): Promise<number>;
  claim(keys: string[], args: string[]): Promise<unknown>;
  increment(key: string, windowMs: string): Promise<unknown>;
  epoch(key: string, known: string, sawOutage: string): Promise<unknown>;
  readonly isReady: boolean;
}

/** What the store found at a URL: one Redis, or a cluster (its masters), and its eviction policy if it says. */
export interface RedisDescription {
  kind: 'redis' | 'cluster';
  /** A cluster's masters (`cluster_size`); 1 for one Redis. */
  masters: number;
  /** `maxmemory-policy`, unless the server refuses CONFIG GET (some managed Redis do). */
  maxmemoryPolicy?: string;
}

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
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  checkUrl(options.url);
  if (options.cacheUrl !== undefined) checkUrl(options.cacheUrl);
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const connectWaitMs = options.connectWaitMs ?? 2000;
  const reportError =
    options.onError ?? ((error: Error) => process.stderr.write(`loyalty-proxy: redis: ${error.message}\n`));
  const reportState =
    options.onStateChange ?? ((message: string) => process.stderr.write(`loyalty-proxy: redis: ${message}\n`));
  /** The store's life this client last saw (see EPOCH_SCRIPT); '' before its first connection. */
  let knownEpoch = '';
  /** New locks wait until then after Redis lost its data. */
  let holdUntil = 0;

  const checkEpoch = async (redis: Commands, tag: string, sawOutage: boolean) => {
    const [epoch, now] = (await redis.epoch(`${prefix}${tag}store-epoch`, knownEpoch, sawOutage ? '1' : '0')) as [
      string,
      number,
    ];
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
  /**
   * A key's name in Redis. On a cluster, claim records, locks and counters share one hash slot
   * (`{claims}`), so the claim script's keys are always on one node; cached answers spread over all.
   */
  const nameOf = (key: string, tag: string) => prefix + (tag && /^(?:idem|rate):/.test(key) ? tag : '') + key;
  const px = (ttlMs: number) => ({ type: 'PX' as const, value: Math.max(1, Math.ceil(ttlMs)) });
  /** Runs `command` once the store may take a new lock (not while instances write back lost outcomes). */
  const locking = async <T>(command: (redis: Commands, tag: string) => Promise<T>): Promise<T> => {
    await main.client();
    await main.ready().catch(() => Promise.reject(unavailable()));
    const holdMs = holdUntil - Date.now();
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
      const reply = (await main.run((redis, tag) =>
        redis.increment(nameOf(key, tag), String(Math.max(1, Math.ceil(windowMs)))),
      )) as [number, number];
      return { count: Number(reply[0]), resetMs: Number(reply[1]) };
    },
    async claim(key, value, ttlMs, counters): Promise<ClaimResult> {
      const reply = (await locking((redis, tag) =>
        redis.claim(
          [nameOf(key, tag), ...counters.map((counter) => nameOf(counter.key, tag))],
          [
            value,
            String(Math.max(1, Math.ceil(ttlMs))),
            ...counters.flatMap((counter) => [String(Math.max(1, Math.ceil(counter.windowMs))), String(counter.limit)]),
          ],
        ),
      )) as [string, ...Array<string | number>];
      if (reply[0] === 'held') return { kind: 'held', value: String(reply[1]) };
      if (reply[0] === 'limited') {
        return {
          kind: 'limited',
          counter: Number(reply[1]),
          state: { count: Number(reply[2]), resetMs: Number(reply[3]) },
        };
      }
      return { kind: 'taken' };
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

interface ConnectionSettings {
  connectWaitMs: number;
  reportError: (error: Error) => void;
  reportState: (message: string) => void;
}

const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 1000);

/**
 * One Redis or Redis Cluster, connected on first use and reconnected in the background; `onReady`
 * runs at each (re)connection, before `ready()` resolves. Once a connection failed, commands fail at
 * once with 503.
 *
 * Which of the two is found at the URL: the first connection asks the server (`INFO cluster`); a
 * node of a cluster is then left for node-redis's cluster client, which learns the slots from it and
 * sends each key to its node. A cluster's node that stops is not the whole store: commands for its
 * slots fail at once (503) while its client reconnects, and `onReady` runs again before the next lock.
 */
function redisConnection(
  url: string,
  name: string,
  settings: ConnectionSettings,
  onReady: (redis: Commands, tag: string, sawOutage: boolean) => Promise<void> = async () => {},
) {
  let sawOutage = false;
  let lastCommandReport = 0;
  let description: RedisDescription | undefined;
  let closed = false;
  const open = () => {
    const redis = createClient({
      url,
      // Commands sent while disconnected fail at once rather than wait for a reconnection.
      disableOfflineQueue: true,
      socket: { reconnectStrategy },
      scripts: SCRIPTS,
    });
    let state: 'connecting' | 'ready' | 'down' = 'connecting';
    let firstAttempt: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const firstAttemptDone = new Promise<void>((resolve, reject) => (firstAttempt = { resolve, reject }));
    firstAttemptDone.catch(() => undefined);
    const connection = {
      /** The client commands go through: the one Redis, or the cluster once one was found. */
      commands: redis as unknown as Commands,
      /** `{claims}:` on a cluster (see nameOf), '' on one Redis. */
      tag: '',
      get down() {
        return state === 'down';
      },
      firstAttemptDone,
      checked: Promise.resolve(),
      /** A cluster node failed since `onReady` last ran: it runs again before the next lock. */
      recheck: false,
      close: async () => {
        if (redis.isReady) await redis.close();
        else redis.destroy();
      },
    };
    const runOnReady = () => {
      connection.recheck = false;
      connection.checked = onReady(connection.commands, connection.tag, sawOutage);
      connection.checked.catch(() => (connection.recheck = connection.tag !== ''));
    };
    const becameReady = () => {
      if (state === 'down') settings.reportState(`${name}connected again.`);
      state = 'ready';
      firstAttempt?.resolve();
      runOnReady();
    };
    const wentDown = (error: Error) => {
      firstAttempt?.reject(error);
      if (state === 'down') return;
      sawOutage = true;
      state = 'down';
      settings.reportError(
        new Error(
          `${name}${error.message || error.name}: unreachable; requests fail fast while it reconnects in the background.`,
        ),
      );
    };
    const useCluster = () => {
      const address = new URL(url);
      const cluster = createCluster({
        rootNodes: [{ url }],
        // Every node's connection: the URL's credentials and TLS, failing fast while it reconnects.
        defaults: {
          ...(address.username ? { username: decodeURIComponent(address.username) } : {}),
          ...(address.password ? { password: decodeURIComponent(address.password) } : {}),
          disableOfflineQueue: true,
          socket: { reconnectStrategy, ...(address.protocol === 'rediss:' ? { tls: true as const } : {}) },
        },
        scripts: SCRIPTS,
      });
      connection.commands = cluster as unknown as Commands;
      connection.tag = '{claims}:';
      connection.close = async () => {
        if (!cluster.isOpen) return;
        // Commands in flight may finish; a node that does not answer must not hold up a shutdown.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
        await Promise.race([cluster.close().catch(() => undefined), late]);
        clearTimeout(timer);
        if (cluster.isOpen) cluster.destroy();
      };
      cluster.on('error', (error: Error) => {
        // One node's trouble: its slots fail fast until it is back; the epoch is read again first.
        sawOutage = true;
        connection.recheck = true;
        if (Date.now() - lastCommandReport < 10_000) return;
        lastCommandReport = Date.now();
        settings.reportError(new Error(`${name}cluster node: ${error.message || error.name}`));
      });
      const attempt = () => {
        if (closed) return;
        cluster.connect().then(becameReady, (error: Error) => {
          wentDown(error);
          const timer = setTimeout(attempt, 1_000);
          (timer as { unref?: () => void }).unref?.();
        });
      };
      attempt();
    };
    redis.on('ready', () => {
      if (description) return becameReady();
      // The first connection: is this one Redis, or a node of a cluster?
      void describeServer(redis as unknown as DescribableClient).then(
        (found) => {
          description = found;
          if (found.kind === 'redis') return becameReady();
          redis.destroy();
          useCluster();
        },
        (error: Error) => {
          redis.destroy();
          wentDown(error);
        },
      );
    });
    redis.on('error', (error: Error) => {
      if (connection.tag || redis.isReady) return;
      wentDown(error);
    });
    redis.connect().catch(() => undefined);
    return connection;
  };
  let connection: ReturnType<typeof open> | undefined;

  const client = async (): Promise<Commands> => {
    connection ??= open();
    const { commands } = connection;
    if (commands.isReady) return commands;
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
    if (!connection.commands.isReady) throw unavailable();
    return connection.commands;
  };
  return {
    client,
    /** Resolves once this connection's `onReady` has run (on a cluster, again after a node failed). */
    ready: async () => {
      if (connection?.recheck) {
        connection.recheck = false;
        connection.checked = onReady(connection.commands, connection.tag, true);
        connection.checked.catch(() => connection && (connection.recheck = true));
      }
      return connection?.checked;
    },
    /** Any command failing (no connection, or Redis refusing it, e.g. out of memory) is a 503, never a 500. */
    async run<T>(command: (redis: Commands, tag: string) => Promise<T>): Promise<T> {
      const redis = await client();
      try {
        return await command(redis, connection!.tag);
      } catch (error) {
        if (redis.isReady && Date.now() - lastCommandReport >= 10_000) {
          lastCommandReport = Date.now(); // at most one line per 10 s: a full Redis refuses every write
          settings.reportError(new Error(`${name}${error instanceof Error ? error.message : String(error)}`));
        }
        throw unavailable();
      }
    },
    async describe(): Promise<RedisDescription> {
      await client();
      return description!;
    },
    async close() {
      closed = true;
      const current = connection;
      connection = undefined;
      await current?.close();
    },
  };
}

/** As much of a single-node client as describeServer uses. */
interface DescribableClient {
  info(section: string): Promise<string>;
  sendCommand(args: string[]): Promise<unknown>;
  configGet(parameter: string): Promise<Record<string, string>>;
}

/** One Redis or a node of a cluster (INFO cluster), the cluster's size, and the eviction policy if CONFIG GET is allowed. */
async function describeServer(redis: DescribableClient): Promise<RedisDescription> {
  const cluster = /cluster_enabled:1/.test(await redis.info('cluster'));
  const masters = cluster
    ? Number(/cluster_size:(\d+)/.exec(String(await redis.sendCommand(['CLUSTER', 'INFO'])))?.[1] ?? 0)
    : 1;
  const policy = await redis.configGet('maxmemory-policy').then(
    (reply) => reply['maxmemory-policy'],
    () => undefined,
  );
  return { kind: cluster ? 'cluster' : 'redis', masters, ...(policy ? { maxmemoryPolicy: policy } : {}) };
}
