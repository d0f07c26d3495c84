/**
 * One Redis or Redis Cluster, connected on first use and reconnected in the background; `onReady`
 * runs at each (re)connection, before `ready()` resolves. Once a connection failed, commands fail at
 * once with 503.
 *
 * Which of the two is found at the URL: the first connection asks the server (`INFO cluster`); a
 * node of a cluster is then left for node-redis's cluster client, which learns the slots from it and
 * sends each key to its node. A cluster's node that stops is not the whole store: commands for its
 * slots fail at once (503) while its client reconnects, and `onReady` runs again before the next lock.
 */
import { ProxyError } from '../shared/errors.ts';
import { createClient } from './redis-peer.ts';
import { SCRIPTS, type Commands } from './redis-scripts.ts';
import {
  clusterClient,
  describeServer,
  reconnectStrategy,
  type DescribableClient,
  type RedisDescription,
} from './redis-topology.ts';

export function unavailable(retryAfterSeconds = 5): ProxyError {
  return new ProxyError(503, 'store_unavailable', 'The proxy cannot reach its shared store; try again shortly.', {
    'retry-after': String(retryAfterSeconds),
  });
}

export interface ConnectionSettings {
  connectWaitMs: number;
  reportError: (error: Error) => void;
  reportState: (message: string) => void;
}

/** What runs at each (re)connection, before `ready()` resolves: the store's epoch check. */
export type OnReady = (redis: Commands, tag: string, sawOutage: boolean) => Promise<void>;

/** What a URL's connection keeps across the clients it opens (a new one on use after `close()`). */
interface Shared {
  readonly url: string;
  /** Before each line reported: '' for the main Redis, 'cache ' for the cache's. */
  readonly name: string;
  readonly settings: ConnectionSettings;
  readonly onReady: OnReady;
  /** A connection failed at some point: a missing epoch is then taken as lost data. */
  sawOutage: boolean;
  /** When a failing command was last reported. */
  lastCommandReport: number;
  /** What the first connection found: one Redis or a cluster. */
  description?: RedisDescription;
  closed: boolean;
}

/** At most one line per 10 s: a full Redis refuses every write, a stopped cluster node fails every command. */
function reportThrottled(shared: Shared, message: string): void {
  if (Date.now() - shared.lastCommandReport < 10_000) return;
  shared.lastCommandReport = Date.now();
  shared.settings.reportError(new Error(`${shared.name}${message}`));
}

/**
 * One opened client and its state: connecting, ready or down (each change reported once); the first
 * attempt's outcome, which the first request waits for; and `onReady`'s check at each (re)connection.
 */
class Link {
  /** `{claims}:` on a cluster (see the store's key names), '' on one Redis. */
  tag = '';
  /** Settles once `onReady` has run for the latest (re)connection. */
  checked = Promise.resolve();
  /** A cluster node failed since `onReady` last ran: it runs again before the next lock. */
  recheck = false;
  readonly firstAttemptDone: Promise<void>;
  private state: 'connecting' | 'ready' | 'down' = 'connecting';
  private firstAttempt!: { resolve: () => void; reject: (error: Error) => void };

  constructor(
    private readonly shared: Shared,
    /** The client commands go through: the one Redis, or the cluster once one was found. */
    public commands: Commands,
    public close: () => Promise<void>,
  ) {
    this.firstAttemptDone = new Promise<void>((resolve, reject) => (this.firstAttempt = { resolve, reject }));
    this.firstAttemptDone.catch(() => undefined);
  }

  get down(): boolean {
    return this.state === 'down';
  }

  /**
   * Connected, and what the server is known: until then no command goes out, since on a node of a
   * cluster the single client's keys have no hash tag (a claim's keys would span slots: CROSSSLOT).
   */
  get usable(): boolean {
    return this.state === 'ready' && this.commands.isReady;
  }

  becameReady(): void {
    if (this.state === 'down') this.shared.settings.reportState(`${this.shared.name}connected again.`);
    this.state = 'ready';
    this.firstAttempt.resolve();
    this.check(this.shared.sawOutage);
  }

  wentDown(error: Error): void {
    this.firstAttempt.reject(error);
    if (this.state === 'down') return;
    this.shared.sawOutage = true;
    this.state = 'down';
    this.shared.settings.reportError(
      new Error(
        `${this.shared.name}${error.message || error.name}: unreachable; requests fail fast while it reconnects in the background.`,
      ),
    );
  }

  /** Runs `onReady`; when it fails on a cluster, it runs again before the next lock. */
  check(sawOutage: boolean): void {
    this.recheck = false;
    this.checked = this.shared.onReady(this.commands, this.tag, sawOutage);
    this.checked.catch(() => (this.recheck = this.tag !== ''));
  }

  /** Goes on through the cluster's client, connecting it now and again every second until it answers. */
  useCluster(): void {
    const cluster = clusterClient(this.shared.url);
    this.commands = cluster.commands;
    this.tag = '{claims}:';
    this.close = () => cluster.close();
    cluster.onError((error) => {
      // One node's trouble: its slots fail fast until it is back; the epoch is read again first.
      this.shared.sawOutage = true;
      this.recheck = true;
      reportThrottled(this.shared, `cluster node: ${error.message || error.name}`);
    });
    const attempt = () => {
      if (this.shared.closed) return;
      cluster.connect().then(
        () => this.becameReady(),
        (error: Error) => {
          this.wentDown(error);
          const timer = setTimeout(attempt, 1_000);
          (timer as { unref?: () => void }).unref?.();
        },
      );
    };
    attempt();
  }
}

/** Opens one Redis's client; when its first connection finds a node of a cluster, the cluster's client instead. */
function openLink(shared: Shared): Link {
  const redis = createClient({
    url: shared.url,
    // Commands sent while disconnected fail at once rather than wait for a reconnection.
    disableOfflineQueue: true,
    socket: { reconnectStrategy },
    scripts: SCRIPTS,
  });
  const link = new Link(shared, redis as unknown as Commands, async () => {
    if (redis.isReady) await redis.close();
    else redis.destroy();
  });
  redis.on('ready', () => {
    if (shared.description) return link.becameReady();
    // The first connection: is this one Redis, or a node of a cluster?
    void describeServer(redis as unknown as DescribableClient).then(
      (found) => {
        shared.description = found;
        if (found.kind === 'redis') return link.becameReady();
        redis.destroy();
        link.useCluster();
      },
      (error: Error) => {
        redis.destroy();
        link.wentDown(error);
      },
    );
  });
  redis.on('error', (error: Error) => {
    if (link.tag || redis.isReady) return;
    link.wentDown(error);
  });
  redis.connect().catch(() => undefined);
  return link;
}

/** Waits for a client's first attempt to connect, `waitMs` at most: 503 when it failed or took longer. */
async function firstConnection(link: Link, waitMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), waitMs);
  });
  try {
    await Promise.race([link.firstAttemptDone, gaveUp]);
  } catch {
    throw unavailable();
  } finally {
    clearTimeout(timer);
  }
}

export class RedisConnection {
  private readonly shared: Shared;
  private link: Link | undefined;

  constructor(url: string, name: string, settings: ConnectionSettings, onReady: OnReady = async () => {}) {
    this.shared = { url, name, settings, onReady, sawOutage: false, lastCommandReport: 0, closed: false };
  }

  /** A ready client, opened on first use. */
  async client(): Promise<Commands> {
    const link = (this.link ??= openLink(this.shared));
    if (link.usable) return link.commands;
    // A store known to be down costs nothing more: only the very first connection is waited for.
    if (link.down) throw unavailable();
    await firstConnection(link, this.shared.settings.connectWaitMs);
    if (!link.usable) throw unavailable();
    return link.commands;
  }

  /** Resolves once this connection's `onReady` has run (on a cluster, again after a node failed). */
  async ready(): Promise<void> {
    if (this.link?.recheck) this.link.check(true);
    return this.link?.checked;
  }

  /** Any command failing (no connection, or Redis refusing it, e.g. out of memory) is a 503, never a 500. */
  async run<T>(command: (redis: Commands, tag: string) => Promise<T>): Promise<T> {
    const redis = await this.client();
    try {
      return await command(redis, this.link!.tag);
    } catch (error) {
      if (redis.isReady) reportThrottled(this.shared, error instanceof Error ? error.message : String(error));
      throw unavailable();
    }
  }

  async describe(): Promise<RedisDescription> {
    await this.client();
    return this.shared.description!;
  }

  async close(): Promise<void> {
    this.shared.closed = true;
    const current = this.link;
    this.link = undefined;
    await current?.close();
  }
}
