/**
 * Slows down password guessing: after `maxFailures` wrong passwords in a row for one username (known
 * or not, so the answer tells nothing about which usernames exist), that username is refused for
 * `lockSeconds`, even with the right password. Kept in memory: a restart forgets it.
 */
export interface ThrottleOptions {
  maxFailures: number;
  lockSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { maxFailures: 5, lockSeconds: 60 };
const MAX_TRACKED_USERNAMES = 10_000;

interface Attempts {
  failures: number;
  lockedUntil: number;
}

export class SignInThrottle {
  private readonly attempts = new Map<string, Attempts>();

  constructor(private readonly options: ThrottleOptions = DEFAULT_THROTTLE) {}

  /** Whole seconds until this username may try again; 0 when it may try now. */
  retryAfter(username: string): number {
    const lockedUntil = this.attempts.get(username.trim())?.lockedUntil ?? 0;
    return Math.max(0, Math.ceil((lockedUntil - Date.now()) / 1000));
  }

  /** Counts a wrong password; true when this one locked the username. */
  fail(username: string): boolean {
    const key = username.trim();
    const now = Date.now();
    // The count starts again after a lock, so each further batch of wrong passwords locks again.
    const failures = (this.attempts.get(key)?.failures ?? 0) + 1;
    const locked = failures >= this.options.maxFailures;
    this.attempts.delete(key); // re-inserted last, so the map's first entry is the least recently used
    if (this.attempts.size >= MAX_TRACKED_USERNAMES) this.attempts.delete(this.attempts.keys().next().value!);
    this.attempts.set(key, {
      failures: locked ? 0 : failures,
      lockedUntil: locked ? now + this.options.lockSeconds * 1000 : 0,
    });
    return locked;
  }

  succeed(username: string): void {
    this.attempts.delete(username.trim());
  }
}
