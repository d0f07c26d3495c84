/**
 * Exactly one coupon per (campaign, shopper) unless the shopper explicitly asks for another.
 *
 * Every attempt at a claim carries an `Idempotency-Key` that is kept in localStorage until the claim
 * succeeds, so a double click, a retry after a network error, a reload mid-request or a second element
 * for the same campaign all replay the same key and the proxy returns the same coupon instead of
 * minting a new one. Claims in flight are also shared inside the page. The code, once received, is
 * kept per campaign and shopper and shown again instead of minting.
 *
 * Codes and keys belong to the endpoint they came from or went to (./kept-coupons.ts, which a page
 * showing a coupon loads at once; this module, the claim itself, comes when a claim is about to start).
 *
 * Over a session's life: tabs of the site claim under one cross-tab lock (`navigator.locks`), so two
 * tabs pressing at once make one key and one coupon; a guest who signs in keeps the code (and the key
 * of an unfinished claim) they got as a guest; an explicit sign-out forgets every code and key, and a
 * claim still in flight then keeps nothing and reports nothing of the shopper who left.
 */
import { toHex } from '../shared/hex.ts';
import type { MarketingClient } from './client.ts';
import { isUpstreamFailure, MarketingError } from './errors.ts';
import {
  ANONYMOUS,
  CLAIM_KEY_PREFIX,
  COUPON_KEY_PREFIX,
  adoptGuestClaims,
  changes,
  claimRunning,
  read,
  signOutCount,
  slot,
  storedCoupon,
  write,
  type StoredCoupon,
} from './kept-coupons.ts';
import type { Coupon } from './types.ts';

export {
  ANONYMOUS,
  isClaiming,
  onClaimChange,
  onCouponStored,
  storedCoupon,
  type StoredCoupon,
} from './kept-coupons.ts';

export interface ClaimRequest {
  campaignId: string;
  /** The shopper's `sub`, or `anonymous`. */
  shopper?: string;
  /**
   * The signed-in shopper's tokens (`user.accessToken`, `user.idToken`). They are sent only when the
   * claim needs sign-in (`requireSignin`), or when the proxy answers `signin_required` to a claim sent
   * without them; and only to a trusted endpoint (see `tokenOriginAllowed`).
   */
  accessToken?: string;
  idToken?: string;
  /** The claim is for signed-in shoppers only (the element's `require-signin`). */
  requireSignin?: boolean;
  /** Claim even though a coupon is already kept (only for `allow-multiple`). */
  another?: boolean;
}

/** Claims in flight in this page, by coupon slot: a second claim of the same coupon shares the first. */
const claims = new Map<string, Promise<Coupon>>();

/**
 * Tries of one claim, all with its key, while the answer leaves open whether a coupon is on its way:
 * no response at all, the proxy still waiting for a slow mint (504 `upstream_timeout`, which it
 * records for the key once the Marketing API answers), or a 503 (a store or an upstream briefly away).
 */
export const SAME_KEY_TRIES = 5;

function mayStillArrive(error: unknown): error is MarketingError {
  return (
    error instanceof MarketingError &&
    (error.code === 'network' || error.code === 'upstream_timeout' || error.status === 503)
  );
}

async function withSameKey<T>(send: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await send();
    } catch (error) {
      if (!mayStillArrive(error) || tries >= SAME_KEY_TRIES) throw error;
      const seconds = Math.min(error.retryAfter ?? 1, 5);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

/**
 * Runs `critical` alone among the tabs of this site for this name (Web Locks), or directly where the
 * browser has no locks (an insecure page) or refuses them (a frame of another site whose storage is
 * blocked, where the keys live in this page's memory and no other tab shares them): one tab at a time
 * reads, makes and uses a claim's key.
 */
async function alone<T>(name: string, critical: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return critical();
  let started = false;
  try {
    return await locks.request(name, () => {
      started = true;
      return critical();
    });
  } catch (error) {
    if (started) throw error;
    return critical();
  }
}

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a merchant's plain-http page still gets 128 random bits.
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * Claims the coupon of a campaign for a shopper, or returns the one already kept. A lost response, a
 * slow mint (504) or a 503 is tried again at once with the same key (up to 5 tries), which gets the
 * coupon the proxy received meanwhile. A failed claim keeps its key (a lost response, a 429, a network
 * failure), so trying again cannot mint a second coupon; only a failure of the Marketing API behind
 * the proxy that outlasted the tries frees it.
 *
 * @example
 * ```ts
 * import { claimCoupon, clientFor } from 'loyalty-widgets/marketing';
 * import { session } from 'loyalty-widgets/connect';
 *
 * const user = session.user;
 * const { code } = await claimCoupon(clientFor('/api/marketing'), {
 *   campaignId: 'camp-harbor-beans',
 *   ...(user && { shopper: user.sub, accessToken: user.accessToken, idToken: user.idToken }),
 * });
 * ```
 */
export function claimCoupon(client: MarketingClient, request: ClaimRequest): Promise<Coupon> {
  const { campaignId, shopper = ANONYMOUS, another = false } = request;
  const { endpoint } = client;
  const couponSlot = slot(COUPON_KEY_PREFIX, endpoint, campaignId, shopper);
  const running = claims.get(couponSlot);
  if (running) return running;
  if (shopper !== ANONYMOUS) adoptGuestClaims(shopper);
  const kept = another ? undefined : storedCoupon(campaignId, shopper, endpoint);
  if (kept) return Promise.resolve({ code: kept.code });
  const started = signOutCount();
  const claim = alone(couponSlot, () => claimAlone(client, request, started)).finally(() => {
    claims.delete(couponSlot);
    claimRunning(couponSlot, campaignId, -1);
  });
  claims.set(couponSlot, claim);
  claimRunning(couponSlot, campaignId, 1);
  return claim;
}

/** The claim itself, while no other tab claims the same coupon. */
async function claimAlone(client: MarketingClient, request: ClaimRequest, started: number): Promise<Coupon> {
  const signedOut = (when: string) =>
    new MarketingError('signin_required', 401, `The shopper signed out ${when} the claim was sent; nothing was kept.`);
  if (started !== signOutCount()) throw signedOut('before');
  const { endpoint } = client;
  const { campaignId, shopper = ANONYMOUS, accessToken, idToken, requireSignin = false, another = false } = request;
  const couponSlot = slot(COUPON_KEY_PREFIX, endpoint, campaignId, shopper);
  // Another tab may have received it while this one waited for the lock.
  const kept = another ? undefined : storedCoupon(campaignId, shopper, endpoint);
  if (kept) return { code: kept.code };
  const keySlot = slot(CLAIM_KEY_PREFIX, endpoint, campaignId, shopper);
  let idempotencyKey = read(keySlot);
  if (!idempotencyKey) {
    idempotencyKey = newKey();
    write(keySlot, idempotencyKey);
  }
  const key = idempotencyKey;
  const signedIn = accessToken && idToken ? { accessToken, idToken } : undefined;
  const send = (withTokens: boolean) =>
    withSameKey(() => client.requestCoupon(campaignId, { idempotencyKey: key, ...(withTokens ? signedIn : {}) }));
  // The shopper's tokens go only where they are needed: a sign-in-only claim, or a proxy that asked.
  const sent = requireSignin
    ? send(true)
    : send(false).catch((error: unknown) => {
        if (signedIn && error instanceof MarketingError && error.code === 'signin_required') return send(true);
        throw error;
      });
  return sent
    .then((coupon) => {
      // The shopper signed out meanwhile: nothing of theirs is kept, or handed, to the next person.
      if (started !== signOutCount()) throw signedOut('after');
      const stored: StoredCoupon = { code: coupon.code, campaignId, endpoint, claimedAt: Date.now() };
      write(couponSlot, JSON.stringify(stored));
      write(keySlot, null);
      changes.dispatchEvent(new CustomEvent('stored', { detail: stored }));
      return coupon;
    })
    .catch((error: unknown) => {
      // Still failing after the tries with this key: the proxy has recorded for it that a coupon may
      // or may not exist and would only replay that for a day. The shopper's next try takes a new
      // key: the only way to a usable code.
      if (isUpstreamFailure(error) && read(keySlot) === idempotencyKey) write(keySlot, null);
      throw error;
    });
}
