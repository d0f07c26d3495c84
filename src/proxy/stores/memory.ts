/**
 * The default store: the contract (contract.ts) kept in this process's memory, each kind of key
 * bounded so that a flood of distinct keys cannot exhaust it.
 */
import type { ClaimCounter, ClaimResult, CounterState, ProxyStore } from './contract.ts';

interface MemoryEntry {
  value: string;
  count: number;
  expiresAt: number;
}

export interface MemoryStoreOptions {
  /**
   * How many keys of one kind are kept (the part of the key before its first colon: cached responses,
   * checked tokens, idempotency records; for rate-limit counters, before the second: one bound per
   * rule), so a flood of distinct keys cannot exhaust memory, nor push out keys of another kind.
   * Beyond it the oldest entries of the kind are dropped, except live counters: a full table of
   * counters answers a new counter as over any limit (fail closed) until counters expire, so a flood
   * of distinct shoppers can make newcomers wait but cannot erase anyone's count, its own included.
   */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const DEFAULT_MEMORY_MAX_ENTRIES = 10_000;

/**
 * The entries by kind (see MemoryStoreOptions.maxEntries), each kind bounded: the oldest dropped
 * beyond `maxEntries`. An entry past its expiry is dropped when read.
 */
class MemoryTable {
  private readonly kinds = new Map<string, Map<string, MemoryEntry>>();

  constructor(
    readonly maxEntries: number,
    readonly now: () => number,
  ) {}

  /** The entries of the key's kind: before its first colon, or its second for a rate-limit counter. */
  kindOf(key: string): Map<string, MemoryEntry> {
    const end = key.startsWith('rate:') ? key.indexOf(':', 5) : key.indexOf(':');
    const kind = key.slice(0, end + 1);
    let entries = this.kinds.get(kind);
    if (!entries) this.kinds.set(kind, (entries = new Map()));
    return entries;
  }

  live(key: string): MemoryEntry | undefined {
    const entries = this.kindOf(key);
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  put(key: string, entry: MemoryEntry): void {
    const entries = this.kindOf(key);
    entries.delete(key); // re-inserting moves the key to the young end of the Map's order
    entries.set(key, entry);
    for (const oldKey of entries.keys()) {
      if (entries.size <= this.maxEntries) break;
      entries.delete(oldKey);
    }
  }

  /** A value that `live` returns until `ttlMs` from now. */
  putValue(key: string, value: string, ttlMs: number): void {
    this.put(key, { value, count: 0, expiresAt: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.kindOf(key).delete(key);
  }

  clear(): void {
    this.kinds.clear();
  }
}

/**
 * Rate-limit counters in the table, each window starting at its first increment. A kind full of live
 * counters is never made room in: a new counter is answered as over any limit until one expires.
 */
class MemoryCounters {
  /** When a full kind may next be swept: at most once until the soonest live counter expires. */
  private readonly nextSweep = new Map<Map<string, MemoryEntry>, number>();

  constructor(private readonly table: MemoryTable) {}

  increment(key: string, windowMs: number): CounterState {
    const { table } = this;
    const entry = table.live(key);
    if (entry) {
      entry.count += 1;
      return { count: entry.count, resetMs: entry.expiresAt - table.now() };
    }
    const full = this.fullOfLiveCounters(table.kindOf(key));
    if (full) return full;
    table.put(key, { value: '', count: 1, expiresAt: table.now() + windowMs });
    return { count: 1, resetMs: windowMs };
  }

  /** The answer for a new counter when its kind, swept of expired ones, is still full; else undefined. */
  private fullOfLiveCounters(entries: Map<string, MemoryEntry>): CounterState | undefined {
    const { maxEntries } = this.table;
    if (entries.size < maxEntries) return undefined;
    const time = this.table.now();
    let soonest = this.nextSweep.get(entries) ?? 0;
    if (time >= soonest) {
      soonest = Number.POSITIVE_INFINITY;
      for (const [key, entry] of entries) {
        if (entry.expiresAt <= time) entries.delete(key);
        else soonest = Math.min(soonest, entry.expiresAt);
      }
      this.nextSweep.set(entries, soonest);
    }
    if (entries.size < maxEntries) return undefined;
    return { count: Number.MAX_SAFE_INTEGER, resetMs: Math.max(1, soonest - time) };
  }
}

/** ProxyStore.claim in one step: no await between reading the lock and taking it, so it is atomic. */
function claimInMemory(
  table: MemoryTable,
  counters: MemoryCounters,
  key: string,
  value: string,
  ttlMs: number,
  claimed: readonly ClaimCounter[],
): ClaimResult {
  const current = table.live(key);
  if (current) return { kind: 'held', value: current.value };
  for (const [counter, { key: counterKey, windowMs, limit }] of claimed.entries()) {
    const state = counters.increment(counterKey, windowMs);
    if (state.count > limit) return { kind: 'limited', counter, state };
  }
  table.putValue(key, value, ttlMs);
  return { kind: 'taken' };
}

export function createMemoryStore(options: MemoryStoreOptions = {}): ProxyStore {
  const table = new MemoryTable(options.maxEntries ?? DEFAULT_MEMORY_MAX_ENTRIES, options.now ?? Date.now);
  const counters = new MemoryCounters(table);
  return {
    async get(key) {
      return table.live(key)?.value;
    },
    async set(key, value, ttlMs) {
      table.putValue(key, value, ttlMs);
    },
    async add(key, value, ttlMs) {
      if (table.live(key)) return false;
      table.putValue(key, value, ttlMs);
      return true;
    },
    async delete(key) {
      table.delete(key);
    },
    async increment(key, windowMs) {
      return counters.increment(key, windowMs);
    },
    async claim(key, value, ttlMs, claimed) {
      return claimInMemory(table, counters, key, value, ttlMs, claimed);
    },
    async close() {
      table.clear();
    },
  };
}
