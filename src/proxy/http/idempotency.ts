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
 *
 * One key, one outcome, whatever the store does in between: an outcome the store cannot record (it
 * is down) is kept in this process, answered from there, and written as soon as the store takes it;
 * the lock lives as long as a record, so a store that comes back with its data still shows the key
 * as taken; and a lock whose holder stopped without recording anything (a crashed instance) is
 * answered "may have run" for good, never run again. (A store that comes back without its data holds
 * new locks back until every instance has written what it kept: see the Redis store.)
 */
import { errorBody, ProxyError } from '../shared/errors.ts';
import { rateLimited } from './rate-limit.ts';
import { claimIn, type ClaimCounter, type ProxyStore } from '../stores/contract.ts';

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
/** How often outcomes the store could not record are offered to it again. */
export const WRITE_BACK_INTERVAL_MS = 250;
export const KEY_FORMAT = /^[\x21-\x7e]{1,128}$/;

interface PendingRecord {
  state: 'pending';
  fingerprint: string;
  /** When the holder is past its longest run (epoch ms): from then on it is taken as gone. */
  until?: number;
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
  /** The answer for a key whose holder stopped without recording an outcome: it may have run. */
  mayHaveRun?: () => ProxyError;
  /** Keeps the work alive past the answer where the runtime would end it (a Worker's `ctx.waitUntil`). */
  waitUntil?: (work: Promise<unknown>) => void;
}

function holderGone(): ProxyError {
  return new ProxyError(
    409,
    'idempotency_key_in_use',
    'The request with this Idempotency-Key stopped without recording its outcome; it may have run. Use a new key to try again.',
  );
}

interface Running {
  fingerprint: string;
  settled: Promise<{ outcome: Outcome; ran: boolean }>;
}

interface Kept {
  fingerprint: string;
  outcome: Outcome;
  record: string;
  ttlMs: number;
}

/** What happened to an outcome the store could not record: kept in this process, or written at last. */
export type UnrecordedNotice = { kind: 'kept' | 'written'; waiting: number; error?: unknown };

export class IdempotencyKeys {
  private readonly running = new Map<string, Running>();
  /** Outcomes the store could not record yet, by store key: answered from here, written back later. */
  private readonly kept = new Map<string, Kept>();
  private writeBack: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param lockTtlMs how long a lock's holder may run before it is taken as gone (a crashed
   *   instance); longer than the longest the work may run.
   * @param notice told when an outcome could not be recorded and is kept, and when it is written.
   */
  constructor(
    private readonly store: ProxyStore,
    private readonly lockTtlMs: number,
    private readonly notice: (notice: UnrecordedNotice) => void = () => {},
  ) {}

  /**
   * Runs `execute` at most once per key and returns its outcome, or the outcome recorded for the key
   * (`replayed: true`). When `execute` throws and `shouldRelease(error)` says it did nothing, the key
   * is freed instead of recorded. A caller waits at most `wait.answerWithinMs`: past that it gets
   * `wait.stillRunning()`, and `execute` runs on to record its outcome for the next request with the key.
   * `counters` are counted when the key is taken, in the same store call (a 429 past a limit, the key
   * left free); so a claim costs the store two round trips: the claim, and its outcome's record.
   */
  async run(
    scopedKey: string,
    fingerprint: string,
    execute: () => Promise<Outcome>,
    shouldRelease: (error: unknown) => boolean,
    wait: WaitSettings = { answerWithinMs: this.lockTtlMs + 1000, stillRunning: inUse },
    counters: readonly ClaimCounter[] = [],
  ): Promise<Outcome & { replayed: boolean }> {
    const storeKey = `idem:${scopedKey}`;
    const deadline = Date.now() + wait.answerWithinMs;
    const kept = this.kept.get(storeKey);
    if (kept) {
      if (kept.fingerprint !== fingerprint) throw reused();
      return { ...kept.outcome, replayed: true };
    }
    const current = this.running.get(storeKey);
    if (current) {
      // Concurrent requests in this process wait for the first one instead of polling the store.
      if (current.fingerprint !== fingerprint) throw reused();
      return { ...(await within(current.settled, deadline, wait)).outcome, replayed: true };
    }
    const entry: Running = {
      fingerprint,
      settled: this.settle(storeKey, fingerprint, execute, shouldRelease, deadline, wait, counters),
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
    counters: readonly ClaimCounter[],
  ): Promise<{ outcome: Outcome; ran: boolean }> {
    for (;;) {
      // One round trip: the record that holds the key, or the lock taken with the counters counted.
      // The lock lives as long as a record: it is how a key whose outcome is still to be written stays taken.
      const claim = await claimIn(
        this.store,
        storeKey,
        JSON.stringify({ state: 'pending', fingerprint, until: Date.now() + this.lockTtlMs } satisfies PendingRecord),
        IDEMPOTENCY_RECORD_TTL_MS,
        counters,
      );
      if (claim.kind === 'taken') {
        return { outcome: await this.executeHoldingLock(storeKey, fingerprint, execute, shouldRelease), ran: true };
      }
      // Past a limit: refused like an uncounted request, the key left free for a retry.
      if (claim.kind === 'limited') throw rateLimited(claim.state.resetMs);
      const record = JSON.parse(claim.value) as StoredRecord;
      if (record.fingerprint !== fingerprint) throw reused();
      if (record.state === 'done') return { outcome: { status: record.status, body: record.body }, ran: false };
      if (record.until !== undefined && record.until < Date.now()) throw (wait.mayHaveRun ?? holderGone)();
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
    const record = JSON.stringify({ state: 'done', fingerprint, ...outcome } satisfies DoneRecord);
    const ttlMs = outcome.status >= 400 && outcome.status < 500 ? REFUSAL_RECORD_TTL_MS : IDEMPOTENCY_RECORD_TTL_MS;
    // The upstream has answered (perhaps with a coupon): that answer goes to the caller even if the
    // store cannot record it. Turning it into an error would lose the coupon to the shopper and
    // invite the retry that mints a second one; so it is kept here and written once the store takes it.
    let failure: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.store.set(storeKey, record, ttlMs);
        return outcome;
      } catch (error) {
        failure = error;
        if (attempt === 0) await sleep(POLL_INTERVAL_MS);
      }
    }
    this.kept.set(storeKey, { fingerprint, outcome, record, ttlMs });
    this.notice({ kind: 'kept', waiting: this.kept.size, error: failure });
    this.scheduleWriteBack();
    return outcome;
  }

  private scheduleWriteBack(): void {
    if (this.writeBack !== undefined) return;
    this.writeBack = setTimeout(() => void this.writeKept(), WRITE_BACK_INTERVAL_MS);
    // A server keeps running anyway; a script or test that is done need not wait for a store that is gone.
    (this.writeBack as { unref?: () => void }).unref?.();
  }

  private async writeKept(): Promise<void> {
    for (const [storeKey, kept] of this.kept) {
      try {
        await this.store.set(storeKey, kept.record, kept.ttlMs);
      } catch {
        break; // still down: all of them wait for the next turn
      }
      this.kept.delete(storeKey);
      this.notice({ kind: 'written', waiting: this.kept.size });
    }
    this.writeBack = undefined;
    if (this.kept.size) this.scheduleWriteBack();
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
