/** `loyalty-widgets/proxy/redis`: the store shared through Redis (see stores/redis.ts). */
export * from './stores/redis.ts';
