/**
 * Fixed-window rate limits for coupon requests, counted in the proxy's store so that every instance
 * behind a load balancer shares them.
 */
import { ProxyError } from '../shared/errors.ts';
import type { ClaimCounter, ProxyStore } from '../stores/contract.ts';

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
  /**
   * Per client address, queries that miss the cache (each one costs an upstream call on the
   * merchant's key; varying the variables would otherwise make every query one). Hits are free.
   */
  queryMisses: RateLimitRule | false;
}

/**
 * Coupon mints allowed by default: 10 per 10 minutes per shopper (a page of campaigns claimed one by
 * one), 60 per 10 minutes per address (several shoppers behind one NAT); scripted minting stops there.
 * Query cache misses: 300 per 10 minutes per address, far beyond what browsing pages of campaigns and
 * businesses costs (most queries are hits shared by every shopper), well below a script's pace.
 */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  perAddress: { limit: 60, windowSeconds: 600 },
  perShopper: { limit: 10, windowSeconds: 600 },
  queryMisses: { limit: 300, windowSeconds: 600 },
};

export function checkRateLimitRule(name: string, rule: RateLimitRule | false | undefined): void {
  if (rule === false || rule === undefined) return;
  if (!Number.isInteger(rule.limit) || rule.limit < 1 || !(rule.windowSeconds > 0)) {
    throw new TypeError(
      `createMarketingProxy: rateLimits.${name} needs an integer "limit" ≥ 1 and "windowSeconds" > 0, or false.`,
    );
  }
}

/** Counts one request against the rule; throws 429 `rate_limited` with `Retry-After` beyond the limit. */
export async function consumeRateLimit(
  store: ProxyStore,
  key: string,
  rule: RateLimitRule | false,
  what = 'coupon requests',
): Promise<void> {
  if (rule === false) return;
  const { count, resetMs } = await store.increment(`rate:${key}`, rule.windowSeconds * 1000);
  if (count > rule.limit) throw rateLimited(resetMs, what);
}

/** The 429 for a counter past its limit, whose window ends in `resetMs`. */
export function rateLimited(resetMs: number, what = 'coupon requests'): ProxyError {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
  return new ProxyError(429, 'rate_limited', `Too many ${what}; try again in ${retryAfter} s.`, {
    'retry-after': String(retryAfter),
  });
}

/** The counters a claim counts for these rules (the `false` ones left out), as consumeRateLimit keys them. */
export function claimCounters(rules: ReadonlyArray<[key: string, rule: RateLimitRule | false]>): ClaimCounter[] {
  return rules.flatMap(([key, rule]) =>
    rule === false ? [] : [{ key: `rate:${key}`, windowMs: rule.windowSeconds * 1000, limit: rule.limit }],
  );
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 address (with `::` and an IPv4 tail expanded), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const tail = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const bytes = tail[1]!.split('.').map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    text = `${text.slice(0, tail.index + 1)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...rest];
  if (!groups.every((group) => HEXTET.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}

/** Where every address that cannot be read as an IP address is counted: one bucket for them all. */
export const UNPARSABLE_ADDRESS = 'unparsable';

/**
 * What rate limits count a client address as. One IPv6 subscriber gets a whole /64 and can use any
 * address in it, so IPv6 addresses count by their /64 prefix; an IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`, as a dual-stack socket reports it) counts as the IPv4 address. A port, as
 * some load balancers write it into `X-Forwarded-For` (`198.51.100.9:40001`, `[2001:db8::1]:443`), is
 * dropped: each connection has its own, and counting it would give every connection its own bucket.
 * Anything that is not an IP address counts in one shared bucket, for the same reason.
 */
export function rateLimitAddress(address: string): string {
  let text = address.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (IPV4.test(text))
    return text.split('.').every((byte) => Number(byte) <= 255)
      ? text.split('.').map(Number).join('.')
      : UNPARSABLE_ADDRESS;
  const groups = text.includes(':') ? ipv6Groups(text) : undefined;
  if (!groups) return UNPARSABLE_ADDRESS;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
