/**
 * The proxy's options, read from the environment the runtime suite gives every host, the way a
 * merchant's host reads its own settings. Plain JavaScript so that every runtime loads it as it is.
 * @param {Record<string, string | undefined>} env
 */
export function proxyOptions(env) {
  return {
    upstreamUrl: env.MARKETING_API_URL ?? '',
    apiKey: env.MARKETING_API_KEY ?? '',
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').filter(Boolean),
    // Small enough for the suite to reach; per address only (each case connects from its own address).
    rateLimits: {
      perAddress: { limit: Number(env.PER_ADDRESS_LIMIT ?? 60), windowSeconds: 600 },
      perShopper: /** @type {false} */ (false),
    },
    timeoutMs: 5000,
    // Short enough for the suite to see an answer go stale and be refreshed.
    cache: { ttlSeconds: Number(env.CACHE_TTL_SECONDS ?? 30), staleWhileRevalidateSeconds: 60 },
  };
}
