/**
 * `Idempotency-Key` for mutations: the first request with a key takes a lock in the store (atomic
 * add), runs, and records its outcome for 24 h; every other request with that key (concurrent, a
 * retry, or on another instance sharing the store) gets the recorded outcome and never mints again.
 * The same key with other variables is refused (409). Keys are scoped by
 * shopper: the loyalty ID when signed in, else the client's address and browser.
 *
 * The lock is released without recording when the request provably did nothing upstream (it was
 * rate limited, or the upstream refused the connection), so a retry with the same key can succeed.
 * A caller waits a bounded time: an upstream slower than that is still waited for after the caller
 * is answered, and its answer (the coupon it minted) is what the key records and replays.
 */
import { errorBody, ProxyError } from './errors.ts';
import type { ProxyStore } from './store.ts';

export interface Outcome {
  status: number;
  body: string;
}

export const IDEMPOTENCY_RECORD_TTL_MS = 24 * 60 * 60_000;
/**
 * A refusal (e.g. 404 for a campaign that does not exist) minted nothing, so there is nothing to
 * protect for a day: it is kept long enough to answer retries and duplicates alike, and no longer,
 * so that made-up campaign ids cannot fill the store with day-long records.
 */
export const REFUSAL_RECORD_TTL_MS = 10 * 60_000;
const POLL_INTERVAL_MS = 20;
const KEY_FORMAT = /^[\x21-\x7e]{1,128}$/;

interface PendingRecord {
  state: 'pending';
  fingerprint: string;
}
interface DoneRecord extends Outcome {
  state: 'done';
  fingerprint: string;
}
type StoredRecord = PendingRecord | DoneRecord;

/** Reads and checks the header; `undefined` when absent, 400 when malformed. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) return undefined;
  if (!KEY_FORMAT.test(key)) {
    throw new ProxyError(
      400,
      'bad_request',
      'Idempotency-Key must be 1 to 128 printable ASCII characters without spaces.',
    );
  }
  return key;
}

function reused(): ProxyError {
  return new ProxyError(409, 'idempotency_key_reused', 'This Idempotency-Key was already used with other variables.');
}

function inUse(): ProxyError {
  return new ProxyError(
    409,
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still running; retry later.',
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a caller waits for a key's outcome, and what it is told when the outcome is not there yet. */
export interface WaitSettings {
  /**
   * A caller waits this long for the outcome; then `stillRunning()` answers it while the work goes on
   * (and its outcome is recorded for the key, for the caller's retry with the same key).
   */
  answerWithinMs: number;
  stillRunning: () => ProxyError;
  /** Keeps the work alive past the answer where the runtime would end it (a Worker's `ctx.waitUntil`). */
  waitUntil?: (work: Promise<unknown>) => void;
}

interface Running {
  fingerprint: string;
  settled: Promise<{ outcome: Outcome; ran: boolean }>;
}

export class IdempotencyKeys {
  private readonly running = new Map<string, Running>();

  /**
   * @param lockTtlMs how long a lock may stay pending before it is considered abandoned (a crashed
   *   instance); longer than the longest the work may run.
   */
  constructor(
    private readonly store: ProxyStore,
    private readonly lockTtlMs: number,
  ) {}

  /**
   * Runs `execute` at most once per key and returns its outcome, or the outcome recorded for the key
   * (`replayed: true`). When `execute` throws and `shouldRelease(error)` says it did nothing, the key
   * is freed instead of recorded. A caller waits at most `wait.answerWithinMs`: past that it gets
   * `wait.stillRunning()`, and `execute` runs on to record its outcome for the next request with the key.
   */
  async run(
    scopedKey: string,
    fingerprint: string,
    execute: () => Promise<Outcome>,
    shouldRelease: (error: unknown) => boolean,
    wait: WaitSettings = { answerWithinMs: this.lockTtlMs + 1000, stillRunning: inUse },
  ): Promise<Outcome & { replayed: boolean }> {
    const storeKey = `idem:${scopedKey}`;
    const deadline = Date.now() + wait.answerWithinMs;
    const current = this.running.get(storeKey);
    if (current) {
      // Concurrent requests in this process wait for the first one instead of polling the store.
      if (current.fingerprint !== fingerprint) throw reused();
      return { ...(await within(current.settled, deadline, wait)).outcome, replayed: true };
    }
    const entry: Running = {
      fingerprint,
      settled: this.settle(storeKey, fingerprint, execute, shouldRelease, deadline, wait),
    };
    this.running.set(storeKey, entry);
    const forget = () => {
      if (this.running.get(storeKey) === entry) this.running.delete(storeKey);
    };
    entry.settled.then(forget, forget);
    wait.waitUntil?.(entry.settled.catch(() => undefined));
    const { outcome, ran } = await within(entry.settled, deadline, wait);
    return { ...outcome, replayed: !ran };
  }

  private async settle(
    storeKey: string,
    fingerprint: string,
    execute: () => Promise<Outcome>,
    shouldRelease: (error: unknown) => boolean,
    deadline: number,
    wait: WaitSettings,
  ): Promise<{ outcome: Outcome; ran: boolean }> {
    const pending = JSON.stringify({ state: 'pending', fingerprint } satisfies PendingRecord);
    for (;;) {
      const raw = await this.store.get(storeKey);
      if (raw !== undefined) {
        const record = JSON.parse(raw) as StoredRecord;
        if (record.fingerprint !== fingerprint) throw reused();
        if (record.state === 'done') return { outcome: { status: record.status, body: record.body }, ran: false };
      } else if (await this.store.add(storeKey, pending, this.lockTtlMs)) {
        return { outcome: await this.executeHoldingLock(storeKey, fingerprint, execute, shouldRelease), ran: true };
      }
      // Another instance holds the key: its outcome arrives in the store, or this caller stops waiting.
      if (Date.now() >= deadline) throw wait.stillRunning();
      await sleep(POLL_INTERVAL_MS);
    }
  }
  private async executeHoldingLock(
    storeKey: string,
    fingerprint: string,
    execute: () => Promise<Outcome>,
    shouldRelease: (error: unknown) => boolean,
  ): Promise<Outcome> {
    let outcome: Outcome;
    try {
      outcome = await execute();
    } catch (error) {
      if (shouldRelease(error) || !(error instanceof ProxyError)) {
        await this.store.delete(storeKey);
        throw error;
      }
      // A definite answer (e.g. an unknown campaign) or an ambiguous one (a timeout after the
      // upstream may have minted) is recorded, so a retry cannot mint a second coupon.
      outcome = { status: error.status, body: errorBody(error.code, error.message) };
    }
    const done = JSON.stringify({ state: 'done', fingerprint, ...outcome } satisfies DoneRecord);
    // The upstream has answered (perhaps with a coupon): that answer goes to the caller even if the
    // store cannot record it. Turning it into an error would lose the coupon to the shopper and
    // invite the retry that mints a second one.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.store.set(
          storeKey,
          done,
          outcome.status >= 400 && outcome.status < 500 ? REFUSAL_RECORD_TTL_MS : IDEMPOTENCY_RECORD_TTL_MS,
        );
        break;
      } catch {
        if (attempt === 0) await sleep(POLL_INTERVAL_MS);
      }
    }
    return outcome;
  }
}

/** The settled outcome, or `wait.stillRunning()` once the deadline passes (the work itself goes on). */
async function within<T>(work: Promise<T>, deadline: number, wait: WaitSettings): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(wait.stillRunning()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
