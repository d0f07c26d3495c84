/**
 * Fixed-window rate limits for coupon requests, counted in the proxy's store so that every instance
 * behind a load balancer shares them.
 */
import { ProxyError } from './errors.ts';
import type { ProxyStore } from './store.ts';

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimits {
  /** Per client address (shoppers behind one office or mobile-carrier NAT share it, so it is wider). */
  perAddress: RateLimitRule | false;
  /** Per shopper: the loyalty ID when signed in, otherwise the client address and browser. */
  perShopper: RateLimitRule | false;
}

/**
 * Coupon mints allowed by default: 10 per 10 minutes per shopper (a page of campaigns claimed one by
 * one), 60 per 10 minutes per address (several shoppers behind one NAT); scripted minting stops there.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  perAddress: { limit: 60, windowSeconds: 600 },
  perShopper: { limit: 10, windowSeconds: 600 },
};

export function checkRateLimitRule(name: string, rule: RateLimitRule | false | undefined): void {
  if (rule === false || rule === undefined) return;
  if (!Number.isInteger(rule.limit) || rule.limit < 1 || !(rule.windowSeconds > 0)) {
    throw new TypeError(`createMarketingProxy: rateLimits.${name} needs an integer "limit" ≥ 1 and "windowSeconds" > 0, or false.`);
  }
}

/** Counts one request against the rule; throws 429 `rate_limited` with `Retry-After` beyond the limit. */
export async function consumeRateLimit(store: ProxyStore, key: string, rule: RateLimitRule | false): Promise<void> {
  if (rule === false) return;
  const { count, resetMs } = await store.increment(`rate:${key}`, rule.windowSeconds * 1000);
  if (count > rule.limit) {
    const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
    throw new ProxyError(429, 'rate_limited', `Too many coupon requests; try again in ${retryAfter} s.`, {
      'retry-after': String(retryAfter),
    });
  }
}
