/**
 * A short-lived cache of successful query responses, kept in the proxy's store (so instances share
 * it), with stale-while-revalidate: a stale entry is served at once while one background request
 * refreshes it. Concurrent misses for the same key share one upstream call.
 */
import { SingleFlight } from './single-flight.ts';
import type { ProxyStore } from './store.ts';

export interface CacheSettings {
  /** Seconds a response is served as fresh. */
  ttlSeconds: number;
  /** Further seconds a response may be served stale while it is refreshed in the background. */
  staleWhileRevalidateSeconds: number;
}

/** 30 s fresh, then up to 120 s stale while a background request refreshes it. */
export const DEFAULT_CACHE: CacheSettings = { ttlSeconds: 30, staleWhileRevalidateSeconds: 120 };

export type CacheState = 'HIT' | 'MISS' | 'STALE';

export interface CachedBody {
  body: string;
  state: CacheState;
}

export interface CacheHooks {
  beforeMiss?: () => Promise<void>;
  waitUntil?: (work: Promise<unknown>) => void;
}

export class ResponseCache {
  private readonly loads = new SingleFlight<string>();

  constructor(
    private readonly store: ProxyStore,
    readonly settings: CacheSettings,
    /** A background refresh that failed (the stale entry stays until it expires). */
    private readonly onRefreshError: (error: unknown) => void,
    /** The store failed; the response is served without the cache. */
    private readonly onStoreError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  get cacheControl(): string {
    return `public, max-age=${Math.ceil(this.settings.ttlSeconds)}, stale-while-revalidate=${Math.ceil(this.settings.staleWhileRevalidateSeconds)}`;
  }

  /**
   * The cached body, or the loaded one. `beforeMiss` runs before a request that has to start an
   * upstream call (not for hits, stale answers, or joining a call already running): a rate limit.
   * `waitUntil`: where the runtime ends a request's work when it answers (workerd), keeps the stale refresh alive.
   */
  async get(key: string, load: () => Promise<string>, hooks: CacheHooks = {}): Promise<CachedBody> {
    const { beforeMiss, waitUntil } = hooks;
    const storeKey = `cache:${key}`;
    let entry: string | undefined;
    try {
      entry = await this.store.get(storeKey);
    } catch (error) {
      // A cache that cannot be read must not stop queries: they go upstream, shared as usual.
      this.onStoreError(error);
      if (!this.loads.has(storeKey)) await beforeMiss?.();
      return { body: await this.loads.run(storeKey, load), state: 'MISS' };
    }
    if (entry !== undefined) {
      // Entry layout: "<stored at, ms since epoch>\n<body>" — no JSON round trip on the hot path.
      const newline = entry.indexOf('\n');
      const age = this.now() - Number(entry.slice(0, newline));
      const body = entry.slice(newline + 1);
      if (age < this.settings.ttlSeconds * 1000) return { body, state: 'HIT' };
      if (age < (this.settings.ttlSeconds + this.settings.staleWhileRevalidateSeconds) * 1000) {
        if (!this.loads.has(storeKey)) {
          const refreshing = this.refresh(storeKey, load).catch(this.onRefreshError);
          waitUntil?.(refreshing);
        }
        return { body, state: 'STALE' };
      }
    }
    if (!this.loads.has(storeKey)) await beforeMiss?.();
    return { body: await this.refresh(storeKey, load), state: 'MISS' };
  }

  private refresh(storeKey: string, load: () => Promise<string>): Promise<string> {
    return this.loads.run(storeKey, async () => {
      const body = await load();
      const lifetimeMs = (this.settings.ttlSeconds + this.settings.staleWhileRevalidateSeconds) * 1000;
      await this.store.set(storeKey, `${this.now()}\n${body}`, lifetimeMs).catch(this.onStoreError);
      return body;
    });
  }
}
