/**
 * Exactly one coupon per (campaign, shopper) unless the shopper explicitly asks for another.
 *
 * Every attempt at a claim carries an `Idempotency-Key` that is kept in localStorage until the claim
 * succeeds, so a double click, a retry after a network error, a reload mid-request or a second element
 * for the same campaign all replay the same key and the proxy returns the same coupon instead of
 * minting a new one. Claims in flight are also shared inside the page. The code, once received, is
 * kept per campaign and shopper and shown again instead of minting.
 *
 * Codes and keys belong to the endpoint they came from or went to, its whole address (not only its
 * origin): a block of page content pointing a claim at another server, or at another address of the
 * same site (an uploaded file a server answers 200 to a POST), neither plants a code the merchant's own
 * elements would show, nor learns a key they would use.
 *
 * Over a session's life: tabs of the site claim under one cross-tab lock (`navigator.locks`), so two
 * tabs pressing at once make one key and one coupon; a guest who signs in keeps the code (and the key
 * of an unfinished claim) they got as a guest; an explicit sign-out forgets every code and key, and a
 * claim still in flight then keeps nothing and reports nothing of the shopper who left.
 */
import { toHex } from '../shared/hex.ts';
import { resolveEndpoint } from '../shared/config.ts';
import { endpointUrl, type MarketingClient } from './client.ts';
import { isUpstreamFailure, MarketingError } from './errors.ts';
import { STORAGE_PREFIX } from '../shared/storage-keys.ts';
import { session } from '../connect/session.ts';
import type { Coupon } from './types.ts';

/**
 * A kept coupon is stored under `loyalty-widgets:coupon:<endpoint URL>:<shopper>:<campaign>`, a
 * claim's key under `…claim-key:…`, each part URI-encoded.
 */
const COUPON_KEY_PREFIX = `${STORAGE_PREFIX}coupon:`;
const CLAIM_KEY_PREFIX = `${STORAGE_PREFIX}claim-key:`;
/** Who a claim belongs to when nobody is signed in. */
export const ANONYMOUS = 'anonymous';

export interface StoredCoupon {
  code: string;
  campaignId: string;
  /** The absolute URL of the endpoint (the proxy) that gave the code. */
  endpoint: string;
  /** Milliseconds since the epoch. */
  claimedAt: number;
}

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

const memory = new Map<string, string>();
const claims = new Map<string, Promise<Coupon>>();
const changes = new EventTarget();
/** Counts explicit sign-outs: a claim that started before one keeps nothing when it ends. */
let signOuts = 0;

// localStorage may be missing or throw (private modes, sandboxed frames): fall back to this page only.
function read(key: string): string | null {
  try {
    return globalThis.localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage.removeItem(key);
    else globalThis.localStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

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

const slot = (prefix: string, endpoint: string, campaignId: string, shopper: string): string =>
  `${prefix}${[endpoint, shopper, campaignId].map(encodeURIComponent).join(':')}`;

/** Every key kept, in localStorage or (when it cannot be used) this page's memory. */
function keptKeys(): string[] {
  try {
    return Object.keys(globalThis.localStorage);
  } catch {
    return [...memory.keys()];
  }
}

/** `[endpoint, shopper, campaignId]` of a key this code wrote under `prefix`, else undefined. */
function slotParts(prefix: string, key: string): [string, string, string] | undefined {
  if (!key.startsWith(prefix)) return undefined;
  try {
    const parts = key.slice(prefix.length).split(':').map(decodeURIComponent);
    const [endpoint, shopper, campaignId] = parts;
    return parts.length === 3 && endpoint && shopper && campaignId ? [endpoint, shopper, campaignId] : undefined;
  } catch {
    return undefined; // Not a key this code wrote.
  }
}

/**
 * A guest who signs in keeps what they got as a guest: each code kept for `anonymous` (and the key of
 * a claim that has not answered yet) moves to the shopper, unless the shopper already has their own.
 * Only open campaigns have guest claims, so the signed-in element shows the guest's code, not a new one.
 */
function adoptGuestClaims(shopper: string): void {
  for (const key of keptKeys()) {
    for (const prefix of [COUPON_KEY_PREFIX, CLAIM_KEY_PREFIX]) {
      const parts = slotParts(prefix, key);
      if (!parts || parts[1] !== ANONYMOUS) continue;
      const [endpoint, , campaignId] = parts;
      const value = read(key);
      const target = slot(prefix, endpoint, campaignId, shopper);
      const taken =
        read(slot(COUPON_KEY_PREFIX, endpoint, campaignId, shopper)) !== null ||
        (prefix === CLAIM_KEY_PREFIX && read(target) !== null);
      if (value !== null && !taken) write(target, value);
      write(key, null);
    }
  }
}

session.subscribe((user, reason) => {
  if (user) adoptGuestClaims(user.sub);
  else if (reason === 'signout') {
    // The session already wiped localStorage; this page's fallback memory goes too.
    signOuts++;
    memory.clear();
  }
});

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

/** The absolute URL an endpoint's codes and keys belong to; the page's own endpoint when none is given. */
function addressOf(endpoint: string = resolveEndpoint(undefined)): string | undefined {
  return endpointUrl(endpoint)?.href;
}

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a merchant's plain-http page still gets 128 random bits.
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The coupon kept for this campaign and shopper from this endpoint (by default the page's
 * endpoint: its head's `<meta name="loyalty-endpoint">`, else `/api/marketing`), if any. Storage is
 * checked like network data.
 *
 * @example
 * ```ts
 * import { storedCoupon } from 'loyalty-widgets/marketing';
 *
 * const kept = storedCoupon('camp-harbor-beans'); // the anonymous shopper's; pass `user.sub` for a signed-in one
 * if (kept) console.log(kept.code, new Date(kept.claimedAt));
 * ```
 */
export function storedCoupon(campaignId: string, shopper = ANONYMOUS, endpoint?: string): StoredCoupon | undefined {
  const address = addressOf(endpoint);
  const raw = address && read(slot(COUPON_KEY_PREFIX, address, campaignId, shopper));
  if (!address || !raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<StoredCoupon>;
    if (typeof value.code === 'string' && value.code && typeof value.claimedAt === 'number') {
      return { code: value.code, campaignId, endpoint: address, claimedAt: value.claimedAt };
    }
  } catch {
    // Corrupt entry: treated as absent.
  }
  return undefined;
}

/** Whether a claim for this campaign and shopper, at this endpoint, is running in this page right now. */
export function isClaiming(campaignId: string, shopper = ANONYMOUS, endpoint?: string): boolean {
  const address = addressOf(endpoint);
  return address !== undefined && claims.has(slot(COUPON_KEY_PREFIX, address, campaignId, shopper));
}

/**
 * Calls the listener whenever a coupon is kept for a campaign: by any element of this page, or of
 * another tab of this site (through localStorage's `storage` event), so a coupon claimed in one tab
 * shows in the others without a reload. Returns the function that stops listening.
 *
 * @example
 * ```ts
 * import { onCouponStored } from 'loyalty-widgets/marketing';
 *
 * const stop = onCouponStored(({ campaignId, code }) => console.log(`${campaignId}: ${code}`));
 * // later: stop();
 * ```
 */
export function onCouponStored(listener: (coupon: StoredCoupon) => void): () => void {
  const handler = (event: Event): void => listener((event as CustomEvent<StoredCoupon>).detail);
  changes.addEventListener('stored', handler);
  listenToOtherTabs();
  return () => changes.removeEventListener('stored', handler);
}

/**
 * Calls the listener with the campaign's id whenever a claim in this page starts or settles
 * (received or failed), so every element showing that campaign can show it busy, then settled.
 */
export function onClaimChange(listener: (campaignId: string) => void): () => void {
  const handler = (event: Event): void => listener((event as CustomEvent<string>).detail);
  changes.addEventListener('claim', handler);
  return () => changes.removeEventListener('claim', handler);
}

let listeningToOtherTabs = false;

function listenToOtherTabs(): void {
  if (listeningToOtherTabs || typeof window === 'undefined') return;
  listeningToOtherTabs = true;
  window.addEventListener('storage', (event) => {
    if (event.storageArea !== globalThis.localStorage || !event.key?.startsWith(COUPON_KEY_PREFIX) || !event.newValue)
      return;
    // Another tab's entry is read back like any stored value: only a well-formed one is announced.
    const parts = slotParts(COUPON_KEY_PREFIX, event.key);
    const stored = parts && storedCoupon(parts[2], parts[1], parts[0]);
    if (stored) changes.dispatchEvent(new CustomEvent('stored', { detail: stored }));
  });
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
  const started = signOuts;
  const claim = alone(couponSlot, () => claimAlone(client, request, started)).finally(() => {
    claims.delete(couponSlot);
    changes.dispatchEvent(new CustomEvent('claim', { detail: campaignId }));
  });
  claims.set(couponSlot, claim);
  changes.dispatchEvent(new CustomEvent('claim', { detail: campaignId }));
  return claim;
}

/** The claim itself, while no other tab claims the same coupon. */
async function claimAlone(client: MarketingClient, request: ClaimRequest, started: number): Promise<Coupon> {
  const signedOut = (when: string) =>
    new MarketingError('signin_required', 401, `The shopper signed out ${when} the claim was sent; nothing was kept.`);
  if (started !== signOuts) throw signedOut('before');
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
      if (started !== signOuts) throw signedOut('after');
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
