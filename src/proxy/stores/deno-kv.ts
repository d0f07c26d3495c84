/**
 * The shared store on Deno (`loyalty-widgets/proxy/deno`): Deno KV, which Deno Deploy shares between
 * all of a project's isolates and which locally is one SQLite file that several processes open.
 * `add` and `increment` are atomic operations that check the entry's versionstamp, so two instances
 * never both take a lock or both miss a count. Entries carry their expiry (KV deletes expired keys
 * only eventually, so reads check it too). A value larger than one KV value (64 KiB) is written in
 * parts in the same atomic operation.
 */
import { ProxyError } from '../shared/errors.ts';
import type { CounterState, ProxyStore } from './contract.ts';

export type { ProxyStore, CounterState } from './contract.ts';

/** A Deno KV key, as far as the store uses it. */
export type DenoKvKey = readonly (string | number)[];

/** A `Deno.Kv` (what `await Deno.openKv()` returns), as far as the store uses it. */
export interface DenoKv {
  get<T = unknown>(key: DenoKvKey): Promise<{ value: T | null; versionstamp: string | null }>;
  getMany(keys: readonly DenoKvKey[]): Promise<{ value: unknown; versionstamp: string | null }[]>;
  delete(key: DenoKvKey): Promise<void>;
  atomic(): DenoKvAtomic;
}

/** A `Deno.AtomicOperation`, as far as the store uses it. */
export interface DenoKvAtomic {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvAtomic;
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomic;
  commit(): Promise<{ ok: boolean }>;
}

export interface DenoKvStoreOptions {
  /** First part of every key the proxy writes, so it can share a KV database with the rest of the app. */
  keyPrefix?: string;
}

interface Entry {
  /** The value, or undefined when it is written in `parts` parts under [prefix, key, id, index]. */
  v?: string;
  parts?: number;
  id?: string;
  /** A counter's count. */
  n: number;
  /** Expiry, ms since the epoch. */
  e: number;
}

/** Characters per part: 64 KiB of KV value holds at least this many, whatever the characters. */
const PART_CHARS = 30_000;
/** KV's `getMany` reads at most this many keys at once. */
const GET_MANY_LIMIT = 10;

/** How long an operation keeps trying while a local KV file is locked by another process's write. */
const BUSY_WAIT_MS = 2_000;
const AGAIN = Symbol('again');

function isBusy(error: unknown): boolean {
  return error instanceof Error && /database is locked|busy/i.test(error.message);
}

function unavailable(): ProxyError {
  return new ProxyError(503, 'store_unavailable', 'The proxy cannot reach its shared store; try again shortly.', {
    'retry-after': '5',
  });
}

const positive = (ms: number) => Math.max(1, Math.ceil(ms));

/**
 * Runs `attempt` until it gives an answer (`AGAIN`: another write came first). A local KV file that
 * another process is writing answers "database is locked": nothing was written, so that is tried
 * again too, briefly. Any other failure of KV itself fails closed, at once (503).
 */
async function retrying<T>(attempt: () => Promise<T | typeof AGAIN>): Promise<T> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    let answer: T | typeof AGAIN;
    try {
      answer = await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw unavailable();
      answer = AGAIN;
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 10));
    }
    if (answer !== AGAIN) return answer;
  }
}

/** An entry's value, from its parts when it was written in several. */
async function valueOf(kv: DenoKv, prefix: string, key: string, entry: Entry): Promise<string | undefined> {
  if (entry.parts === undefined || entry.id === undefined) return entry.v;
  const keys = Array.from({ length: entry.parts }, (_, index): DenoKvKey => [prefix, key, entry.id!, index]);
  let text = '';
  for (let start = 0; start < keys.length; start += GET_MANY_LIMIT) {
    for (const part of await kv.getMany(keys.slice(start, start + GET_MANY_LIMIT))) {
      if (typeof part.value !== 'string') return undefined;
      text += part.value;
    }
  }
  return text;
}

/**
 * The store every instance of a Deno proxy shares (rate limits, idempotency records, cache, shopper
 * checks), on the Deno KV database `kv`. On Deno Deploy `await Deno.openKv()` is the project's
 * database; elsewhere give every process the same file, `await Deno.openKv('./proxy.kv')`, and run
 * with `--unstable-kv`.
 *
 * @example
 * ```ts
 * import { createMarketingProxy } from 'loyalty-widgets/proxy';
 * import { createDenoKvStore } from 'loyalty-widgets/proxy/deno';
 *
 * const marketing = createMarketingProxy({
 *   upstreamUrl: Deno.env.get('MARKETING_API_URL')!,
 *   apiKey: Deno.env.get('MARKETING_API_KEY')!,
 *   store: createDenoKvStore(await Deno.openKv()),
 * });
 * Deno.serve(marketing);
 * ```
 */
export function createDenoKvStore(kv: DenoKv, options: DenoKvStoreOptions = {}): ProxyStore {
  if (!kv || typeof kv.atomic !== 'function' || typeof kv.get !== 'function') {
    throw new TypeError('createDenoKvStore: pass the Deno KV database, `await Deno.openKv()`.');
  }
  const prefix = options.keyPrefix ?? 'loyalty-proxy';
  const keyOf = (key: string): DenoKvKey => [prefix, key];
  const read = async (key: string) => {
    const found = await kv.get<Entry>(keyOf(key));
    const entry = found.value && found.value.e > Date.now() ? found.value : undefined;
    return { found, entry };
  };
  /** Writes `entry` only if the key is still as `versionstamp` says; false when another write came first. */
  const commitIf = async (key: string, versionstamp: string | null, entry: Entry, value?: string) => {
    const expireIn = positive(entry.e - Date.now());
    const atomic = kv.atomic().check({ key: keyOf(key), versionstamp });
    if (value !== undefined && value.length > PART_CHARS) {
      const id = crypto.randomUUID();
      const parts = Math.ceil(value.length / PART_CHARS);
      for (let index = 0; index < parts; index++)
        atomic.set([prefix, key, id, index], value.slice(index * PART_CHARS, (index + 1) * PART_CHARS), { expireIn });
      entry = { ...entry, parts, id };
    } else if (value !== undefined) {
      entry = { ...entry, v: value };
    }
    return (await atomic.set(keyOf(key), entry, { expireIn }).commit()).ok;
  };
  const newEntry = (ttlMs: number): Entry => ({ n: 0, e: Date.now() + positive(ttlMs) });
  return {
    get: (key) =>
      retrying(async () => {
        const { entry } = await read(key);
        return entry && valueOf(kv, prefix, key, entry);
      }),
    set: (key, value, ttlMs) =>
      retrying(async () => {
        const { found } = await read(key);
        return (await commitIf(key, found.versionstamp, newEntry(ttlMs), value)) ? undefined : AGAIN;
      }),
    add: (key, value, ttlMs) =>
      retrying(async () => {
        const { found, entry } = await read(key);
        if (entry) return false;
        // Absent, or present but expired: taken only if nobody changed it meanwhile.
        return (await commitIf(key, found.versionstamp, newEntry(ttlMs), value)) ? true : AGAIN;
      }),
    delete: (key) => retrying(() => kv.delete(keyOf(key))),
    increment: (key, windowMs) =>
      retrying(async (): Promise<CounterState | typeof AGAIN> => {
        const { found, entry } = await read(key);
        const next: Entry = entry ? { n: entry.n + 1, e: entry.e } : { n: 1, e: Date.now() + positive(windowMs) };
        if (!(await commitIf(key, found.versionstamp, next))) return AGAIN;
        return { count: next.n, resetMs: next.e - Date.now() };
      }),
  };
}
