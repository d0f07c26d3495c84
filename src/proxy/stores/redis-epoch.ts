/**
 * A Redis that comes back without its data (no persistence, or a new server) may have lost the
 * record of a coupon that an instance minted while it was down and still keeps in memory: for
 * RECOVERY_HOLD_MS after such a restart, new Idempotency-Key locks are refused while the instances
 * that kept outcomes write them back.
 */
import type { Commands } from './redis-scripts.ts';

/**
 * How long new Idempotency-Key locks are refused after Redis came back without its data: longer than
 * an instance takes to reconnect (it tries every second at most) and write back the outcomes it kept.
 */
const RECOVERY_HOLD_MS = 5_000;

/** The store's life as this client saw it (see EPOCH_SCRIPT), and the hold on new locks it calls for. */
export class RecoveryHold {
  /** The store's life this client last saw; '' before its first connection. */
  private knownEpoch = '';
  /** New locks wait until then after Redis lost its data. */
  private holdUntil = 0;

  constructor(
    /** The store's key prefix: the epoch is `<prefix><tag>store-epoch`, in the claims' slot on a cluster. */
    private readonly prefix: string,
    private readonly reportState: (message: string) => void,
  ) {}

  /** At each (re)connection: reads the epoch, and holds new locks if Redis lost its data lately. */
  async check(redis: Commands, tag: string, sawOutage: boolean): Promise<void> {
    const [epoch, now] = (await redis.epoch(
      `${this.prefix}${tag}store-epoch`,
      this.knownEpoch,
      sawOutage ? '1' : '0',
    )) as [string, number];
    const lostAt = epoch.startsWith('lost:') ? Number(epoch.slice(5)) : Number.NaN;
    const holdMs = RECOVERY_HOLD_MS - (Number(now) - lostAt);
    if (holdMs > 0) {
      this.holdUntil = Date.now() + holdMs;
      if (epoch !== this.knownEpoch) {
        this.reportState(
          `Redis came back without its data: new Idempotency-Key claims wait ${Math.ceil(holdMs / 1000)} s for the outcomes instances kept.`,
        );
      }
    }
    this.knownEpoch = epoch;
  }

  /** How long new locks still wait, in ms; 0 or less when they may be taken. */
  remainingMs(): number {
    return this.holdUntil - Date.now();
  }
}
