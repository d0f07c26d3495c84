/**
 * A short-lived cache of successful query responses, kept in the proxy's store (so instances share
 * it), with stale-while-revalidate: a stale entry is served at once while one background request
 * refreshes it. Concurrent misses for the same key share one upstream call.
 *
 * In front of the store, each instance keeps what it read or wrote for LOCAL_TTL_MS, bounded in
 * entries and bytes: a hot answer costs the shared store one read per instance per second, not one
 * per request, since the requests that find its copy gone share one read. (An answer refreshed by
 * another instance is seen here up to that second later.)
 */
import { SingleFlight } from '../shared/single-flight.ts';
import type { ProxyStore } from '../stores/contract.ts';

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

/** How a read's use of the store went: it failed (the read goes on without it), or it answered. */
export interface StoreReports {
  failed(error: unknown): void;
  answered(): void;
}

export interface CacheHooks {
  beforeMiss?: () => Promise<void>;
  waitUntil?: (work: Promise<unknown>) => void;
}

/** How long an instance answers from its own copy before it reads the shared store again. */
export const LOCAL_TTL_MS = 1_000;
const LOCAL_MAX_ENTRIES = 1_000;
const LOCAL_MAX_CHARS = 8 * 1024 * 1024;

export class ResponseCache {
  private readonly loads = new SingleFlight<string>();
  /** Reads of the shared store: the requests that find a copy expired together wait for one. */
  private readonly reads = new SingleFlight<string | undefined>();
  /** The in-process layer: store key → the stored entry and when this copy stops being used. */
  private readonly local = new Map<string, { entry: string; until: number }>();
  private localChars = 0;

  constructor(
    private readonly store: ProxyStore,
    readonly settings: CacheSettings,
    /** A background refresh that failed (the stale entry stays until it expires). */
    private readonly onRefreshError: (error: unknown) => void,
    /** Each store operation's outcome: when it failed, the response is served without the cache. */
    private readonly storeReports: StoreReports,
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
    let entry = this.fromLocal(storeKey);
    try {
      entry ??= await this.reads.run(storeKey, () => this.readShared(storeKey));
    } catch (error) {
      // A cache that cannot be read must not stop queries: they go upstream, shared as usual.
      this.storeReports.failed(error);
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

  private async readShared(storeKey: string): Promise<string | undefined> {
    const entry = await this.store.get(storeKey);
    this.storeReports.answered();
    if (entry !== undefined) this.keepLocal(storeKey, entry);
    return entry;
  }

  private refresh(storeKey: string, load: () => Promise<string>): Promise<string> {
    return this.loads.run(storeKey, async () => {
      const body = await load();
      const lifetimeMs = (this.settings.ttlSeconds + this.settings.staleWhileRevalidateSeconds) * 1000;
      const entry = `${this.now()}\n${body}`;
      this.keepLocal(storeKey, entry);
      await this.store.set(storeKey, entry, lifetimeMs).then(
        () => this.storeReports.answered(),
        (error: unknown) => this.storeReports.failed(error),
      );
      return body;
    });
  }

  private fromLocal(storeKey: string): string | undefined {
    const kept = this.local.get(storeKey);
    if (!kept) return undefined;
    if (kept.until > this.now()) return kept.entry;
    this.dropLocal(storeKey);
    return undefined;
  }

  private keepLocal(storeKey: string, entry: string): void {
    if (entry.length > LOCAL_MAX_CHARS / 8) return; // one huge answer must not push out all the others
    this.dropLocal(storeKey);
    this.local.set(storeKey, { entry, until: this.now() + LOCAL_TTL_MS });
    this.localChars += entry.length;
    // The oldest copies go first (a Map keeps insertion order).
    for (const oldest of this.local.keys()) {
      if (this.local.size <= LOCAL_MAX_ENTRIES && this.localChars <= LOCAL_MAX_CHARS) break;
      this.dropLocal(oldest);
    }
  }

  private dropLocal(storeKey: string): void {
    const kept = this.local.get(storeKey);
    if (!kept) return;
    this.localChars -= kept.entry.length;
    this.local.delete(storeKey);
  }
}
