/**
 * The shared store on Cloudflare Workers (`loyalty-widgets/proxy/cloudflare`): a Durable Object per
 * key. Every operation on a key runs in that key's one object, one at a time (a Durable Object's input
 * gate holds other events while it reads and writes its storage), so `add` is a lock and `increment`
 * a counter for every isolate of every Worker bound to the namespace, wherever they run. Each object
 * deletes its entry when it expires (an alarm). Nothing here imports `cloudflare:workers`: the class
 * is a plain Durable Object with `fetch`, so any bundler builds it.
 */
import { sha256Hex } from '../shared/digest.ts';
import { ProxyError } from '../shared/errors.ts';
import type { CounterState, ProxyStore } from './contract.ts';

export type { ProxyStore, CounterState } from './contract.ts';

/** The Durable Object namespace binding (`env.PROXY_STORE`), as far as the store uses it. */
export interface ProxyStoreNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(request: Request): Promise<Response> };
}

/** What workerd hands a Durable Object's constructor, as far as ProxyStoreObject uses it. */
export interface ProxyStoreObjectState {
  storage: {
    get<T>(key: string): Promise<T | undefined>;
    put<T>(key: string, value: T): Promise<void>;
    deleteAll(): Promise<void>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
}

export interface DurableObjectStoreOptions {
  /**
   * Prefix of every object name, so that several proxies (a staging and a live one) can share one
   * namespace without sharing state. Default `loyalty-proxy:`.
   */
  keyPrefix?: string;
}

/** One operation on one key, as the store sends it to the key's object. */
type Operation =
  | { op: 'get' }
  | { op: 'delete' }
  | { op: 'set' | 'add'; value: string; ttlMs: number }
  | { op: 'increment'; windowMs: number };

interface Entry {
  value: string;
  count: number;
  expiresAt: number;
}

const ENTRY = 'entry';
/** Object names longer than this are hashed (cached answers are keyed by their variables). */
const MAX_PLAIN_NAME = 256;
const ORIGIN = 'https://proxy-store.invalid/';

function unavailable(): ProxyError {
  return new ProxyError(503, 'store_unavailable', 'The proxy cannot reach its shared store; try again shortly.', {
    'retry-after': '5',
  });
}

const positive = (ms: number) => Math.max(1, Math.ceil(ms));

/**
 * The Durable Object class that holds one key of the proxy's store. Export it from the Worker's main
 * module under the `class_name` of the binding, with a migration that creates it (wrangler.jsonc):
 *
 * ```jsonc
 * "durable_objects": { "bindings": [{ "name": "PROXY_STORE", "class_name": "ProxyStoreObject" }] },
 * "migrations": [{ "tag": "v1", "new_sqlite_classes": ["ProxyStoreObject"] }]
 * ```
 *
 * @example
 * ```ts
 * // src/index.ts, the Worker's main module
 * export { ProxyStoreObject } from 'loyalty-widgets/proxy/cloudflare';
 * ```
 */
export class ProxyStoreObject {
  constructor(
    private readonly state: ProxyStoreObjectState,
    _env?: unknown,
  ) {}

  async fetch(request: Request): Promise<Response> {
    let operation: Operation;
    try {
      operation = (await request.json()) as Operation;
    } catch {
      return new Response('{"error":"bad operation"}', { status: 400 });
    }
    const answer = await this.apply(operation);
    return Response.json(answer ?? null);
  }

  /** The expiry alarm: the entry goes once it is past its time (a newer one set a later alarm). */
  async alarm(): Promise<void> {
    const entry = await this.state.storage.get<Entry>(ENTRY);
    if (!entry || entry.expiresAt <= Date.now()) await this.state.storage.deleteAll();
    else await this.state.storage.setAlarm(entry.expiresAt);
  }

  private async apply(operation: Operation): Promise<unknown> {
    const { storage } = this.state;
    const now = Date.now();
    const stored = await storage.get<Entry>(ENTRY);
    const live = stored && stored.expiresAt > now ? stored : undefined;
    const put = async (entry: Entry) => {
      await storage.put(ENTRY, entry);
      await storage.setAlarm(entry.expiresAt);
    };
    switch (operation.op) {
      case 'get':
        return { value: live?.value };
      case 'set':
        await put({ value: String(operation.value), count: 0, expiresAt: now + positive(operation.ttlMs) });
        return {};
      case 'add':
        if (live) return { added: false };
        await put({ value: String(operation.value), count: 0, expiresAt: now + positive(operation.ttlMs) });
        return { added: true };
      case 'delete':
        await storage.deleteAll();
        return {};
      case 'increment': {
        const entry = live
          ? { ...live, count: live.count + 1 }
          : { value: '', count: 1, expiresAt: now + positive(operation.windowMs) };
        await put(entry);
        return { count: entry.count, resetMs: entry.expiresAt - now } satisfies CounterState;
      }
      default:
        throw new TypeError('unknown store operation');
    }
  }
}

/**
 * The store every isolate of a Worker shares (rate limits, idempotency records, cache, shopper
 * checks), on the Durable Object namespace bound as `namespace` whose class is ProxyStoreObject.
 * Several Workers bound to the same namespace (`script_name` in their binding) share it too.
 *
 * @example
 * ```ts
 * import { cloudflareClientAddress, createMarketingProxy, type MarketingProxyHandler } from 'loyalty-widgets/proxy';
 * import { createDurableObjectStore, type ProxyStoreNamespace } from 'loyalty-widgets/proxy/cloudflare';
 *
 * export { ProxyStoreObject } from 'loyalty-widgets/proxy/cloudflare';
 *
 * interface Env {
 *   MARKETING_API_URL: string;
 *   MARKETING_API_KEY: string;
 *   PROXY_STORE: ProxyStoreNamespace;
 * }
 * let marketing: MarketingProxyHandler | undefined;
 * export default {
 *   fetch(request: Request, env: Env, ctx: { waitUntil(work: Promise<unknown>): void }) {
 *     marketing ??= createMarketingProxy({
 *       upstreamUrl: env.MARKETING_API_URL,
 *       apiKey: env.MARKETING_API_KEY,
 *       clientAddress: cloudflareClientAddress,
 *       store: createDurableObjectStore(env.PROXY_STORE),
 *     });
 *     return marketing(request, ctx); // ctx.waitUntil keeps a slow coupon request running past its answer
 *   },
 * };
 * ```
 */
export function createDurableObjectStore(
  namespace: ProxyStoreNamespace,
  options: DurableObjectStoreOptions = {},
): ProxyStore {
  if (!namespace || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new TypeError(
      'createDurableObjectStore: pass the Durable Object namespace binding (env.PROXY_STORE) whose class is ProxyStoreObject.',
    );
  }
  const prefix = options.keyPrefix ?? 'loyalty-proxy:';
  const send = async (key: string, operation: Operation): Promise<Record<string, unknown>> => {
    const plain = prefix + key;
    const name = plain.length <= MAX_PLAIN_NAME ? plain : `${prefix}sha256:${await sha256Hex(key)}`;
    const stub = namespace.get(namespace.idFromName(name) as never);
    let response: Response;
    try {
      response = await stub.fetch(
        new Request(ORIGIN, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(operation),
        }),
      );
    } catch {
      // An object that is overloaded, being reset or unreachable: fail closed, at once, like Redis.
      throw unavailable();
    }
    if (!response.ok) throw unavailable();
    const answer: unknown = await response.json().catch(() => undefined);
    if (answer === null || typeof answer !== 'object') throw unavailable();
    return answer as Record<string, unknown>;
  };
  return {
    async get(key) {
      const { value } = await send(key, { op: 'get' });
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value, ttlMs) {
      await send(key, { op: 'set', value, ttlMs });
    },
    async add(key, value, ttlMs) {
      return (await send(key, { op: 'add', value, ttlMs })).added === true;
    },
    async delete(key) {
      await send(key, { op: 'delete' });
    },
    async increment(key, windowMs) {
      const { count, resetMs } = await send(key, { op: 'increment', windowMs });
      return { count: Number(count), resetMs: Number(resetMs) };
    },
  };
}
