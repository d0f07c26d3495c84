/**
 * The claim's last stage: the upstream call that mints the coupon, and the answer. A failure is
 * explained as well as the proxy can: a refusal in words it does not know is checked against the
 * campaign's objective, and a keyed mint that may have run says so and what to do.
 */
import { jsonResponse, NO_STORE, ProxyError } from '../shared/errors.ts';
import { checkCouponOffer } from '../upstream/coupon-offer.ts';
import { BUILT_IN_OPERATIONS } from '../upstream/operations.ts';
import { UpstreamError, type UpstreamSettings } from '../upstream/transport.ts';
import type { ClaimExchange } from './claim.ts';
import type { Stage } from './compose.ts';
import { UNCERTAIN_MINT } from './idempotency-stage.ts';
import { errorCode, type ProxyLog } from './log.ts';
import type { MarketingCalls } from './marketing-calls.ts';
import type { QueryReader } from './query.ts';

export interface MintSettings {
  calls: MarketingCalls;
  /** The upstream for a keyed mutation, whose call may outlive its caller's wait. */
  mintUpstream: UpstreamSettings;
  /** Reads a campaign, through the cache, to tell "no coupon here" from other refusals. */
  readQuery: QueryReader;
  log: ProxyLog;
}

export function mint(settings: MintSettings): Stage<ClaimExchange> {
  const { calls, log } = settings;
  return async (exchange) => {
    const { call, entry, idempotencyKey } = exchange;
    // With a key, a slow upstream is waited for beyond the caller's timeout, so its coupon is recorded.
    const upstream = idempotencyKey === undefined ? calls.upstream : settings.mintUpstream;
    const noteLate = (status: number, error?: string) => {
      if (exchange.answered) log.event('LATE', { operation: call.name, status, ...(error ? { error } : {}) });
    };
    try {
      const body = calls.isBuiltIn(call)
        ? calls.served(
            await calls.builtIns.mint(call.name, call.variables, calls.sendBuiltIn(call, false, upstream)),
            entry,
          )
        : await calls.send(call, false, upstream);
      noteLate(200);
      return jsonResponse(200, body, { 'cache-control': NO_STORE, ...exchange.cors });
    } catch (error) {
      noteLate(error instanceof ProxyError ? error.status : 500, errorCode(error));
      log.noteCause(entry, error);
      // A refusal in words the proxy does not know: the campaign's objective says whether it was "no coupon here".
      if (error instanceof UpstreamError && error.code === 'upstream_error') await checkOffer(settings, exchange);
      // A timeout or a broken answer is recorded for the key (the upstream may have minted): say so, and what to do.
      if (idempotencyKey !== undefined && error instanceof UpstreamError && error.mayHaveRun && error.status >= 500) {
        throw new UpstreamError(error.status, error.code, `${error.message} ${UNCERTAIN_MINT}`, true);
      }
      throw error;
    }
  };
}

/**
 * After a built-in coupon request failed in words the proxy does not recognize: the campaign as the
 * `campaign` query reads it (cached) decides, 422 when its objective is not a coupon, whatever the
 * upstream's wording. A read that fails, or a coupon campaign, leaves the mint's own error.
 */
async function checkOffer(
  { calls, readQuery, log }: MintSettings,
  { call, address, context }: ClaimExchange,
): Promise<void> {
  if (!calls.isBuiltIn(call) || call.name !== 'requestCoupon' || typeof call.variables.campaignId !== 'string') return;
  const campaignCall = {
    name: 'campaign',
    operation: BUILT_IN_OPERATIONS.campaign!,
    variables: { id: call.variables.campaignId },
  };
  await checkCouponOffer(
    () => readQuery(campaignCall, log.entry('CHECK'), address, context).then(({ body }) => body),
    () => calls.documents.hasType('CouponObjective'),
  );
}
