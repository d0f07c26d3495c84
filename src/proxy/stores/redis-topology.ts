/**
 * What is found at a Redis URL: one Redis, or a node of a Redis Cluster, which is then reached
 * through node-redis's cluster client (it learns the slots from that node and sends each key to its
 * node).
 */
import { createCluster } from './redis-peer.ts';
import { SCRIPTS, type Commands } from './redis-scripts.ts';

/** What the store found at a URL: one Redis, or a cluster (its masters), and its eviction policy if it says. */
export interface RedisDescription {
  kind: 'redis' | 'cluster';
  /** A cluster's masters (`cluster_size`); 1 for one Redis. */
  masters: number;
  /** `maxmemory-policy`, unless the server refuses CONFIG GET (some managed Redis do). */
  maxmemoryPolicy?: string;
}

/** As much of a single-node client as describeServer uses. */
export interface DescribableClient {
  info(section: string): Promise<string>;
  sendCommand(args: string[]): Promise<unknown>;
  configGet(parameter: string): Promise<Record<string, string>>;
}

/** One Redis or a node of a cluster (INFO cluster), the cluster's size, and the eviction policy if CONFIG GET is allowed. */
export async function describeServer(redis: DescribableClient): Promise<RedisDescription> {
  const cluster = /cluster_enabled:1/.test(await redis.info('cluster'));
  const masters = cluster
    ? Number(/cluster_size:(\d+)/.exec(String(await redis.sendCommand(['CLUSTER', 'INFO'])))?.[1] ?? 0)
    : 1;
  const policy = await redis.configGet('maxmemory-policy').then(
    (reply) => reply['maxmemory-policy'],
    () => undefined,
  );
  return { kind: cluster ? 'cluster' : 'redis', masters, ...(policy ? { maxmemoryPolicy: policy } : {}) };
}

/** Between two attempts to reach a Redis: 50 ms, doubling, at most a second. */
export const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 1000);

/** A cluster's client, not yet connected, as the store uses it. */
export interface ClusterClient {
  commands: Commands;
  connect(): Promise<unknown>;
  onError(listener: (error: Error) => void): void;
  /** Lets commands in flight finish, but a node that does not answer holds up a shutdown a second at most. */
  close(): Promise<void>;
}

/** The client of the cluster that the node at `url` belongs to. */
export function clusterClient(url: string): ClusterClient {
  const address = new URL(url);
  const cluster = createCluster({
    rootNodes: [{ url }],
    // Every node's connection: the URL's credentials and TLS, failing fast while it reconnects.
    defaults: {
      ...(address.username ? { username: decodeURIComponent(address.username) } : {}),
      ...(address.password ? { password: decodeURIComponent(address.password) } : {}),
      disableOfflineQueue: true,
      socket: { reconnectStrategy, ...(address.protocol === 'rediss:' ? { tls: true as const } : {}) },
    },
    scripts: SCRIPTS,
  });
  return {
    commands: cluster as unknown as Commands,
    connect: () => cluster.connect(),
    onError: (listener) => void cluster.on('error', listener),
    async close() {
      if (!cluster.isOpen) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
      await Promise.race([cluster.close().catch(() => undefined), late]);
      clearTimeout(timer);
      if (cluster.isOpen) cluster.destroy();
    },
  };
}
