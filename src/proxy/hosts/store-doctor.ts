/**
 * What `loyalty-proxy doctor` says about the Redis store (REDIS_URL, REDIS_CACHE_URL): whether it
 * answers, whether it found one Redis or a Redis Cluster, and whether each Redis's memory policy fits
 * what it keeps: claim records, locks and limits must never be evicted (`noeviction`); cached answers
 * may be (`allkeys-lru`), and without a Redis of their own they share the one that must not evict.
 */
import type { Finding } from './doctor.ts';
import { createRedisStore, type RedisDescription, type RedisStore } from '../stores/redis.ts';

/** The Redis as the report names it: its kind and address, without credentials. */
function named(description: RedisDescription, url: string): string {
  const { host } = new URL(url);
  return description.kind === 'cluster'
    ? `a Redis Cluster of ${description.masters} master${description.masters === 1 ? '' : 's'} (found at ${host})`
    : `one Redis at ${host}`;
}

/** What the store's `describe()` found. */
type Found = Awaited<ReturnType<RedisStore['describe']>>;

const policyOf = (description: RedisDescription) => description.maxmemoryPolicy ?? 'not readable (CONFIG GET refused)';

/** No answer from either Redis: claims could not be taken at all. */
function unreachable(url: string, cacheUrl: string | undefined): Finding {
  const hosts = [url, cacheUrl].flatMap((each) => (each ? [new URL(each).host] : []));
  return {
    level: 'cannot',
    subject: 'store',
    message: `The Redis store does not answer (${hosts.join(', ')}): coupon claims would answer 503 store_unavailable.`,
    blocking: true,
  };
}

/** Where the store keeps what, as found: one Redis or a cluster for each, and their memory policies. */
function layout(found: Found, url: string, cacheUrl: string | undefined): Finding {
  const { claims, cache } = found;
  return {
    level: 'works',
    subject: 'store',
    message:
      `Claim records, locks and rate limits in ${named(claims, url)}` +
      (claims.kind === 'cluster' ? ', all in one hash slot ({claims}) so each claim is one script on one node' : '') +
      (cache && cacheUrl
        ? `; cached answers in ${named(cache, cacheUrl)}${cache.kind === 'cluster' ? ', spread over every master' : ''}.`
        : `; cached answers there too${claims.kind === 'cluster' ? ', spread over every master' : ''}.`) +
      ` maxmemory-policy: ${policyOf(claims)}${cache ? ` (cache: ${policyOf(cache)})` : ''}.`,
    blocking: false,
  };
}

/** Whether each Redis's memory policy fits what it keeps; nothing when both do. */
function evictionFinding({ claims, cache }: Found): Finding | undefined {
  if (claims.maxmemoryPolicy && claims.maxmemoryPolicy !== 'noeviction') {
    return {
      level: 'cannot',
      subject: 'store',
      message: `The Redis of claim records evicts keys (maxmemory-policy ${claims.maxmemoryPolicy}): when full it could drop a claim's record and mint a second coupon for its Idempotency-Key. Set maxmemory-policy noeviction there${cache ? '' : ', and give cached answers a Redis of their own (REDIS_CACHE_URL, allkeys-lru)'}.`,
      blocking: true,
    };
  }
  if (!cache) {
    return {
      level: 'adapted',
      subject: 'store',
      message:
        'Cached answers share the Redis of claim records: when distinct reads fill it, claims answer 503 until entries expire. A Redis of their own (REDIS_CACHE_URL, maxmemory-policy allkeys-lru) keeps them apart.',
      blocking: false,
    };
  }
  if (cache.maxmemoryPolicy === 'noeviction') {
    return {
      level: 'adapted',
      subject: 'store',
      message:
        'The cache Redis does not evict (noeviction): once full, new answers are not cached. maxmemory-policy allkeys-lru keeps the most used ones.',
      blocking: false,
    };
  }
  return undefined;
}

export async function diagnoseRedisStore(url: string, cacheUrl?: string): Promise<Finding[]> {
  const store = createRedisStore({ url, cacheUrl, connectWaitMs: 5_000, onError: () => {}, onStateChange: () => {} });
  try {
    let found: Found;
    try {
      found = await store.describe();
    } catch {
      return [unreachable(url, cacheUrl)];
    }
    const eviction = evictionFinding(found);
    return [layout(found, url, cacheUrl), ...(eviction ? [eviction] : [])];
  } finally {
    await store.close();
  }
}
