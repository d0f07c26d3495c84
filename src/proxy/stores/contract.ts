/**
 * What the proxy keeps beyond one request, and the one interface every store implements: cached
 * responses, rate-limit counters, idempotency records and checked Connect tokens. The in-memory store
 * (memory.ts) serves one process or isolate; the shared ones implement the same interface on each
 * host's consistent primitive, so that several proxy instances share all of it: Redis on Node
 * (redis.ts), a Durable Object per key on Cloudflare Workers (cloudflare.ts), Deno KV on Deno
 * (deno-kv.ts). Each passes the same conformance suite (test/support/store-conformance.ts).
 */

export interface CounterState {
  /** The counter's value after this increment. */
  count: number;
  /** Milliseconds until the counter's window ends and it starts again from zero. */
  resetMs: number;
}

/** A counter that a claim counts, with its limit. */
export interface ClaimCounter {
  key: string;
  /** The counter's window, as for `increment`. */
  windowMs: number;
  /** The most counts allowed in a window: the one that goes past it stops the claim. */
  limit: number;
}

/**
 * What `claim` did: took the lock (every counter counted within its limit); found the key already
 * held (nothing counted); or found a counter past its limit (the lock not taken, later counters not
 * counted), with that counter's index and state.
 */
export type ClaimResult =
  { kind: 'taken' } | { kind: 'held'; value: string } | { kind: 'limited'; counter: number; state: CounterState };

export interface ProxyStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the value only when the key is absent; `true` when this call set it. Atomic: a lock. */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Adds one to a counter whose window of `windowMs` starts at its first increment. Atomic. */
  increment(key: string, windowMs: number): Promise<CounterState>;
  /**
   * A coupon claim's first step, in one round trip where the store can: the key's current value when
   * it is held; otherwise each counter counted in order, and the key set to `value` (as `add`) when
   * none went past its limit. Stores without it are driven through `add`, `increment` and `delete`
   * (claimIn), which ends the same way in more round trips.
   */
  claim?(key: string, value: string, ttlMs: number, counters: readonly ClaimCounter[]): Promise<ClaimResult>;
  close?(): Promise<void>;
}

/**
 * `store.claim` where the store has it; otherwise the same in steps: the lock first (`add`, or the
 * value that holds it), then each counter; a counter past its limit frees the lock again.
 */
export async function claimIn(
  store: ProxyStore,
  key: string,
  value: string,
  ttlMs: number,
  counters: readonly ClaimCounter[],
): Promise<ClaimResult> {
  if (store.claim) return store.claim(key, value, ttlMs, counters);
  for (;;) {
    const current = await store.get(key);
    if (current !== undefined) return { kind: 'held', value: current };
    if (await store.add(key, value, ttlMs)) break;
    // Taken between the two calls: read the holder's value (or, if already gone, try again).
  }
  for (const [counter, { key: counterKey, windowMs, limit }] of counters.entries()) {
    const state = await store.increment(counterKey, windowMs);
    if (state.count > limit) {
      await store.delete(key);
      return { kind: 'limited', counter, state };
    }
  }
  return { kind: 'taken' };
}
