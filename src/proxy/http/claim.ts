/**
 * The claim stage: a mutation (a coupon request). Sign-in when the campaign needs it, the per-address
 * and per-shopper rate limits, then the mint; with an Idempotency-Key, one mint per key, whose answer
 * is recorded and replayed, and waited for beyond the caller's timeout so that its coupon is kept.
 */
import { waitUntilOf, type RuntimeContext } from '../hosts/runtime.ts';
import { sha256Hex } from '../shared/digest.ts';
import { jsonResponse, NO_STORE, ProxyError } from '../shared/errors.ts';
import type { SigninChecker, VerifiedShopper } from '../shopper/signin.ts';
import type { ProxyStore } from '../stores/memory.ts';
import { checkCouponOffer } from '../upstream/coupon-offer.ts';
import { BUILT_IN_OPERATIONS, canonicalVariables } from '../upstream/operations.ts';
import { UpstreamError, type UpstreamSettings } from '../upstream/transport.ts';
import type { AccessLogEntry } from './access-log.ts';
import { errorCode, type ProxyLog } from './log.ts';
import { idempotencyKeyOf, type IdempotencyKeys, type Outcome } from './idempotency.ts';
import type { MarketingCalls } from './marketing-calls.ts';
import type { QueryReader } from './query.ts';
import { claimCounters, consumeRateLimit, type RateLimitRule, type RateLimits } from './rate-limit.ts';
import type { OperationCall } from './request.ts';
import type { CallHandler } from './route.ts';

export interface ClaimServices {
  calls: MarketingCalls;
  /** The upstream for a keyed mutation, whose call may outlive its caller's wait. */
  mintUpstream: UpstreamSettings;
  /** How long a caller waits for a keyed mutation before it is told to ask again. */
  timeoutMs: number;
  store: ProxyStore;
  rateLimits: RateLimits;
  idempotency: IdempotencyKeys;
  /** Checks the shopper's tokens; undefined when no coupon needs sign-in. */
  signin: SigninChecker | undefined;
  /** Whether this call must come from a signed-in shopper. */
  needsSignin: (call: OperationCall) => boolean;
  /** Reads a campaign, through the cache, to tell "no coupon here" from other refusals. */
  readQuery: QueryReader;
  log: ProxyLog;
}

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

/** Appended to the recorded answer of a keyed mutation that may or may not have run upstream. */
const UNCERTAIN_MINT =
  'It may have created a coupon, so this Idempotency-Key keeps this answer for 24 hours instead of trying again. ' +
  'To try again anyway, send the request with a new Idempotency-Key (which may give the shopper a second coupon).';

/** The answer for a keyed mutation whose instance stopped (crashed) before recording what the upstream said. */
function holderGone(): ProxyError {
  return new UpstreamError(
    504,
    'upstream_timeout',
    `The request with this Idempotency-Key stopped before its answer was recorded. ${UNCERTAIN_MINT}`,
    true,
  );
}

/** One claim as it goes: who asks, from where, and whether the caller already has its answer. */
interface Claim {
  call: OperationCall;
  entry: AccessLogEntry;
  address: string;
  context: RuntimeContext;
  idempotencyKey: string | undefined;
  shopper: VerifiedShopper | undefined;
  /** Without sign-in, "a shopper" is the best the proxy can tell apart: an address and a browser. */
  shopperKey: string;
  /** Set once the caller has its answer: an upstream answer after that is logged as a `LATE` entry. */
  answered: boolean;
}

/** The claim's rate limits: per address, then per shopper. */
function limitsOf(
  { rateLimits }: ClaimServices,
  { address, shopperKey }: Claim,
): Array<[string, RateLimitRule | false]> {
  return [
    [`addr:${address}`, rateLimits.perAddress],
    [`shopper:${shopperKey}`, rateLimits.perShopper],
  ];
}

export function answerClaim(services: ClaimServices): CallHandler {
  return async ({ request, context, cors, entry }, call, address) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const { signin, needsSignin, store, rateLimits } = services;
    // Each token Connect has not vouched for lately costs a /me call: those count per address too.
    const shopper =
      signin && needsSignin(call)
        ? await signin.shopper(request, () => consumeRateLimit(store, `signin:${address}`, rateLimits.perAddress))
        : undefined;
    const shopperKey = shopper
      ? `id:${shopper.loyaltyId}`
      : `anon:${await sha256Hex(`${address}\n${request.headers.get('user-agent') ?? ''}`)}`;
    const claim: Claim = { call, entry, address, context, idempotencyKey, shopper, shopperKey, answered: false };
    const headers: Record<string, string> = { 'cache-control': NO_STORE, ...cors };
    const outcome: Outcome & { replayed?: boolean } =
      idempotencyKey === undefined ? await mint(services, claim) : await mintOnce(services, claim);
    if (outcome.replayed) {
      headers['idempotent-replayed'] = 'true';
      entry.replayed = true;
    }
    return jsonResponse(outcome.status, outcome.body, headers);
  };
}

/** The mint under its key: once per key and request, its outcome recorded and replayed. */
function mintOnce(services: ClaimServices, claim: Claim): Promise<Outcome & { replayed?: boolean }> {
  const { call, shopper, shopperKey, context } = claim;
  // A key is one client's: a signed-in shopper's, or else the address and browser that sent it, so
  // a key seen elsewhere (a hostile endpoint a page's block pointed at) replays nothing to anyone else.
  const scope = shopper ? shopper.loyaltyId : shopperKey;
  return services.idempotency
    .run(
      `${scope}:${claim.idempotencyKey}`,
      `${call.name}:${canonicalVariables(call.variables)}`,
      () => mint(services, claim),
      // Freed when nothing happened upstream and a retry may succeed; definite answers (404, 422) are kept.
      (error) =>
        (error instanceof ProxyError && error.status === 429) ||
        (error instanceof UpstreamError && !error.mayHaveRun && error.status >= 429),
      {
        answerWithinMs: services.timeoutMs,
        stillRunning: stillMinting,
        mayHaveRun: holderGone,
        waitUntil: waitUntilOf(context),
      },
      // The limits are counted as the key is taken, in the same store round trip.
      claimCounters(limitsOf(services, claim)),
    )
    .finally(() => (claim.answered = true));
}

/**
 * The rate limits (without a key; with one, they were counted as it was taken), then the upstream
 * call; a failure is explained as well as the proxy can.
 */
async function mint(services: ClaimServices, claim: Claim): Promise<Outcome> {
  const { calls, store, log } = services;
  const { call, entry, idempotencyKey } = claim;
  // With a key, a slow upstream is waited for beyond the caller's timeout, so its coupon is recorded.
  const settings = idempotencyKey === undefined ? calls.upstream : services.mintUpstream;
  const noteLate = (status: number, error?: string) => {
    if (claim.answered) log.event('LATE', { operation: call.name, status, ...(error ? { error } : {}) });
  };
  if (idempotencyKey === undefined) {
    for (const [key, rule] of limitsOf(services, claim)) await consumeRateLimit(store, key, rule);
  }
  try {
    const body = calls.isBuiltIn(call)
      ? calls.served(
          await calls.builtIns.mint(call.name, call.variables, calls.sendBuiltIn(call, false, settings)),
          entry,
        )
      : await calls.send(call, false, settings);
    noteLate(200);
    return { status: 200, body };
  } catch (error) {
    noteLate(error instanceof ProxyError ? error.status : 500, errorCode(error));
    log.noteCause(entry, error);
    // A refusal in words the proxy does not know: the campaign's objective says whether it was "no coupon here".
    if (error instanceof UpstreamError && error.code === 'upstream_error') await checkOffer(services, claim);
    // A timeout or a broken answer is recorded for the key (the upstream may have minted): say so, and what to do.
    if (idempotencyKey !== undefined && error instanceof UpstreamError && error.mayHaveRun && error.status >= 500) {
      throw new UpstreamError(error.status, error.code, `${error.message} ${UNCERTAIN_MINT}`, true);
    }
    throw error;
  }
}

/**
 * After a built-in coupon request failed in words the proxy does not recognize: the campaign as the
 * `campaign` query reads it (cached) decides, 422 when its objective is not a coupon, whatever the
 * upstream's wording. A read that fails, or a coupon campaign, leaves the mint's own error.
 */
async function checkOffer({ calls, readQuery, log }: ClaimServices, { call, address, context }: Claim): Promise<void> {
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
