/**
 * Where the proxy keeps what must outlive one request: cached responses, rate-limit counters,
 * idempotency records and checked Connect tokens. In memory by default (one process); the Redis store
 * (redis-store.ts) implements the same interface so several proxy instances share all of it.
 */

export interface CounterState {
  /** The counter's value after this increment. */
  count: number;
  /** Milliseconds until the counter's window ends and it starts again from zero. */
  resetMs: number;
}

export interface ProxyStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the value only when the key is absent; `true` when this call set it. Atomic: a lock. */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds one to a counter whose window of `windowMs` starts at its first increment. Atomic. */
  increment(key: string, windowMs: number): Promise<CounterState>;
  close?(): Promise<void>;
}

interface MemoryEntry {
  value: string;
  count: number;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  /**
   * Beyond this many keys of one kind (the part of the key before its first colon: cached responses,
   * checked tokens, rate-limit counters, idempotency records) the oldest of that kind are dropped, so
   * a flood of distinct keys cannot exhaust memory, nor push out keys of another kind: a page of
   * cached queries or bogus tokens must not erase a rate-limit counter or an idempotency record.
   */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const DEFAULT_MEMORY_MAX_ENTRIES = 10_000;

export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MEMORY_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const kinds = new Map<string, Map<string, MemoryEntry>>();
  const kindOf = (key: string) => {
    const kind = key.slice(0, key.indexOf(':') + 1);
    let entries = kinds.get(kind);
    if (!entries) kinds.set(kind, (entries = new Map()));
    return entries;
  };

  const live = (key: string): MemoryEntry | undefined => {
    const entries = kindOf(key);
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const put = (key: string, entry: MemoryEntry) => {
    const entries = kindOf(key);
    entries.delete(key); // re-inserting moves the key to the young end of the Map's order
    entries.set(key, entry);
    for (const oldKey of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldKey);
    }
  };

  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs) {
      put(key, { value, count: 0, expiresAt: now() + ttlMs });
    },
    async add(key, value, ttlMs) {
      if (live(key)) return false;
      put(key, { value, count: 0, expiresAt: now() + ttlMs });
      return true;
    },
    async delete(key) {
      kindOf(key).delete(key);
    },
    async increment(key, windowMs) {
      const entry = live(key);
      if (entry) {
        entry.count += 1;
        return { count: entry.count, resetMs: entry.expiresAt - now() };
      }
      put(key, { value: '', count: 1, expiresAt: now() + windowMs });
      return { count: 1, resetMs: windowMs };
    },
    async close() {
      kinds.clear();
    },
  };
}
