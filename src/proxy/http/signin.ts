/**
 * The claim's first stage: who asks. A campaign that needs sign-in gets the shopper's checked tokens
 * (401 without them); any other claim counts as its address and browser, the best the proxy can tell
 * apart without a sign-in.
 */
import { sha256Hex } from '../shared/digest.ts';
import type { SigninChecker } from '../shopper/signin.ts';
import type { ProxyStore } from '../stores/contract.ts';
import type { OperationCall } from '../upstream/operations.ts';
import type { ClaimExchange } from './claim.ts';
import type { Stage } from './compose.ts';
import { consumeRateLimit, type RateLimitRule } from './rate-limit.ts';

export interface SigninStageSettings {
  /** Checks the shopper's tokens; undefined when no coupon needs sign-in. */
  checker: SigninChecker | undefined;
  /** Whether this call must come from a signed-in shopper. */
  needsSignin: (call: OperationCall) => boolean;
  store: ProxyStore;
  /** Each token Connect has not vouched for lately costs a /me call: those count per address too. */
  perAddress: RateLimitRule | false;
}

export function signin({ checker, needsSignin, store, perAddress }: SigninStageSettings): Stage<ClaimExchange> {
  return async (exchange, next) => {
    const { request, call, address } = exchange;
    const shopper =
      checker && needsSignin(call)
        ? await checker.shopper(request, () => consumeRateLimit(store, `signin:${address}`, perAddress))
        : undefined;
    exchange.shopper = shopper;
    exchange.shopperKey = shopper
      ? `id:${shopper.loyaltyId}`
      : `anon:${await sha256Hex(`${address}\n${request.headers.get('user-agent') ?? ''}`)}`;
    return next();
  };
}
