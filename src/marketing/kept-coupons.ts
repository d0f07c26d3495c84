/**
 * The coupons kept on this device, and which claims run: what a coupon shows when its page loads
 * (the code received earlier, or a claim still busy), without the claim itself (./coupon-claims.ts),
 * which a page loads only when the shopper is about to claim.
 *
 * Codes and keys belong to the endpoint they came from or went to, its whole address (not only its
 * origin): a block of page content pointing a claim at another server, or at another address of the
 * same site (an uploaded file a server answers 200 to a POST), neither plants a code the merchant's own
 * elements would show, nor learns a key they would use.
 */
import { resolveEndpoint } from '../shared/config.ts';
import { STORAGE_PREFIX } from '../shared/storage-keys.ts';
import { session } from '../connect/session.ts';
import { endpointUrl } from './prefetch.ts';

/**
 * A kept coupon is stored under `loyalty-widgets:coupon:<endpoint URL>:<shopper>:<campaign>`, a
 * claim's key under `…claim-key:…`, each part URI-encoded.
 */
export const COUPON_KEY_PREFIX = `${STORAGE_PREFIX}coupon:`;
export const CLAIM_KEY_PREFIX = `${STORAGE_PREFIX}claim-key:`;
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

const memory = new Map<string, string>();
/** Claims running in this page, by coupon slot: how many (each copy of the claim code counts its own). */
const running = new Map<string, number>();
/** `stored` (a coupon was kept) and `claim` (a claim started or settled) events. */
export const changes = new EventTarget();
let signOuts = 0;

/** Counts explicit sign-outs: a claim that started before one keeps nothing when it ends. */
export const signOutCount = (): number => signOuts;

// localStorage may be missing or throw (private modes, sandboxed frames): fall back to this page only.
export function read(key: string): string | null {
  try {
    return globalThis.localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

export function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage.removeItem(key);
    else globalThis.localStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

export const slot = (prefix: string, endpoint: string, campaignId: string, shopper: string): string =>
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
export function adoptGuestClaims(shopper: string): void {
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

/** The absolute URL an endpoint's codes and keys belong to; the page's own endpoint when none is given. */
function addressOf(endpoint: string = resolveEndpoint(undefined)): string | undefined {
  return endpointUrl(endpoint)?.href;
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
  return address !== undefined && running.has(slot(COUPON_KEY_PREFIX, address, campaignId, shopper));
}

/** Records a claim of this coupon slot starting (`+1`) or settling (`-1`), and tells the campaign's elements. */
export function claimRunning(couponSlot: string, campaignId: string, change: 1 | -1): void {
  const count = (running.get(couponSlot) ?? 0) + change;
  if (count > 0) running.set(couponSlot, count);
  else running.delete(couponSlot);
  changes.dispatchEvent(new CustomEvent('claim', { detail: campaignId }));
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
