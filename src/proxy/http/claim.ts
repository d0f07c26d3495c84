/**
 * The claim path: a mutation (a coupon request) goes down its own stages, as a read goes down the
 * query's. In order: the shopper (sign-in when the campaign needs it), the rate limits, the
 * Idempotency-Key (one mint per key, its answer recorded and replayed), then the mint itself.
 */
import type { VerifiedShopper } from '../shopper/signin.ts';
import type { ClaimCounter } from '../stores/contract.ts';
import { compose, type CallExchange, type Stage } from './compose.ts';
import { idempotencyKeyOf } from './idempotency.ts';
import type { CallHandler } from './route.ts';

/** One claim as it goes down: who asks, what it counts, and whether the caller already has its answer. */
export interface ClaimExchange extends CallExchange {
  /** The request's Idempotency-Key, read (and checked) before anything else. */
  readonly idempotencyKey: string | undefined;
  /** The signed-in shopper, when the campaign needs one. */
  shopper?: VerifiedShopper;
  /** Who the limits and keys count: the loyalty ID, or (without sign-in) the address and browser. */
  shopperKey?: string;
  /** Rate-limit counters left for the Idempotency-Key's claim to count, in the same store round trip. */
  counters?: readonly ClaimCounter[];
  /** Set once the caller has its answer: an upstream answer after that is logged as a `LATE` entry. */
  answered: boolean;
}

/** The claim stages as the route's claim handler. */
export function claimPath(stages: readonly Stage<ClaimExchange>[]): CallHandler {
  const handle = compose(stages);
  return async (exchange) =>
    handle({ ...exchange, idempotencyKey: idempotencyKeyOf(exchange.request), answered: false });
}

/** Who the claim counts as, once the sign-in stage has run. */
export function shopperKeyOf(exchange: ClaimExchange): string {
  if (exchange.shopperKey === undefined) throw new Error('The sign-in stage must run before this claim stage.');
  return exchange.shopperKey;
}
