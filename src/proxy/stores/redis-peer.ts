/** node-redis, an optional peer dependency: only merchants who run several proxy instances install it. */
import type * as Redis from 'redis';
import { REDIS_STORE_PEERS, requirePeer } from '../shared/peer-dependency.ts';

export const { createClient, createCluster, defineScript } = requirePeer<typeof Redis>(
  import.meta.url,
  'redis',
  REDIS_STORE_PEERS,
);
