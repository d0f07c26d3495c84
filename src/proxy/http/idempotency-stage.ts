/**
 * The claim's Idempotency-Key stage: with a key, what lies below (the mint) runs once per key and
 * shopper, and its answer is recorded and replayed; it is waited for beyond the caller's timeout so
 * that its coupon is kept. Without a key the claim passes straight on. The machinery is
 * IdempotencyKeys (idempotency.ts).
 */
import { jsonResponse, NO_STORE, ProxyError } from '../shared/errors.ts';
import { canonicalVariables } from '../upstream/operations.ts';
import { UpstreamError } from '../upstream/transport.ts';
import { shopperKeyOf, type ClaimExchange } from './claim.ts';
import type { Stage } from './compose.ts';
import type { IdempotencyKeys } from './idempotency.ts';
import { waitUntilOf } from './runtime-context.ts';

/** Appended to the recorded answer of a keyed mutation that may or may not have run upstream. */
export const UNCERTAIN_MINT =
  'It may have created a coupon, so this Idempotency-Key keeps this answer for 24 hours instead of trying again. ' +
  'To try again anyway, send the request with a new Idempotency-Key (which may give the shopper a second coupon).';

/** What a keyed mutation whose upstream has not answered yet tells the caller: ask again, same key. */
function stillMinting(): ProxyError {
  return new ProxyError(
    504,
    'upstream_timeout',
    'The Marketing API has not answered yet; the proxy keeps waiting for its answer and records it for this Idempotency-Key. ' +
      'Send the request again with the same Idempotency-Key to receive it.',
    { 'retry-after': '1' },
  );
}

/** The answer for a keyed mutation whose instance stopped (crashed) before recording what the upstream said. */
function holderGone(): ProxyError {
  return new UpstreamError(
    504,
    'upstream_timeout',
    `The request with this Idempotency-Key stopped before its answer was recorded. ${UNCERTAIN_MINT}`,
    true,
  );
}

/** Freed when nothing happened upstream and a retry may succeed; definite answers (404, 422) are kept. */
function nothingRan(error: unknown): boolean {
  return (
    (error instanceof ProxyError && error.status === 429) ||
    (error instanceof UpstreamError && !error.mayHaveRun && error.status >= 429)
  );
}

/**
 * @param keys the keys' records and locks, in the proxy's store.
 * @param answerWithinMs how long a caller waits for a keyed mint before it is told to ask again.
 */
export function idempotency(keys: IdempotencyKeys, answerWithinMs: number): Stage<ClaimExchange> {
  return async (exchange, next) => {
    const { call, shopper, idempotencyKey, context, entry, cors } = exchange;
    if (idempotencyKey === undefined) return next();
    // A key is one client's: a signed-in shopper's, or else the address and browser that sent it, so
    // a key seen elsewhere (a hostile endpoint a page's block pointed at) replays nothing to anyone else.
    const scope = shopper ? shopper.loyaltyId : shopperKeyOf(exchange);
    const outcome = await keys
      .run(
        `${scope}:${idempotencyKey}`,
        `${call.name}:${canonicalVariables(call.variables)}`,
        async () => {
          const response = await next();
          return { status: response.status, body: await response.text() };
        },
        nothingRan,
        { answerWithinMs, stillRunning: stillMinting, mayHaveRun: holderGone, waitUntil: waitUntilOf(context) },
        // The rate limits are counted as the key is taken, in the same store round trip.
        exchange.counters ?? [],
      )
      .finally(() => (exchange.answered = true));
    const headers: Record<string, string> = { 'cache-control': NO_STORE, ...cors };
    if (outcome.replayed) {
      headers['idempotent-replayed'] = 'true';
      entry.replayed = true;
    }
    return jsonResponse(outcome.status, outcome.body, headers);
  };
}
