/**
 * The claim's rate limits: per address, then per shopper. Without an Idempotency-Key they are counted
 * here; with one they are handed down to the key's stage, which counts them as it takes the key, in
 * the same store round trip, so a replayed answer counts nothing.
 */
import type { ProxyStore } from '../stores/contract.ts';
import { shopperKeyOf, type ClaimExchange } from './claim.ts';
import type { Stage } from './compose.ts';
import { claimCounters, consumeRateLimit, type RateLimitRule, type RateLimits } from './rate-limit.ts';

export function claimRateLimits(
  store: ProxyStore,
  rateLimits: Pick<RateLimits, 'perAddress' | 'perShopper'>,
): Stage<ClaimExchange> {
  return async (exchange, next) => {
    const rules: Array<[string, RateLimitRule | false]> = [
      [`addr:${exchange.address}`, rateLimits.perAddress],
      [`shopper:${shopperKeyOf(exchange)}`, rateLimits.perShopper],
    ];
    if (exchange.idempotencyKey !== undefined) exchange.counters = claimCounters(rules);
    else for (const [key, rule] of rules) await consumeRateLimit(store, key, rule);
    return next();
  };
}
