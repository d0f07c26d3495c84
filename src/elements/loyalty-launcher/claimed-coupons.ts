/**
 * The campaigns whose coupon the shopper received in this tab's session, on any element of the site's
 * pages (each `coupon-claimed` reaches the document), newest first, for the panel's "Your coupons".
 * Only campaign ids are kept (in sessionStorage, so the list follows the shopper from page to page);
 * the codes stay where `<coupon-claim>` keeps them, and the panel shows them through it. A sign-out
 * (or an ended session) empties the list, in storage too. No Lit here: the launcher's button loads it.
 */
import { STORAGE_PREFIX } from '../../shared/storage-keys.ts';

const KEY = `${STORAGE_PREFIX}launcher-coupons`;
/** More than a visit gets; a longer list (or anything else under the key) is page content, not ours. */
const MOST = 50;

let memory: string[] = [];
const listeners = new Set<() => void>();
let listening = false;

function read(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    if (Array.isArray(parsed)) return parsed.filter((id): id is string => isCampaignId(id)).slice(0, MOST);
  } catch {
    // Storage unavailable (sandboxed frames, private modes) or not ours: this page's list only.
  }
  return memory;
}

function write(ids: string[]): void {
  memory = ids;
  try {
    if (ids.length) sessionStorage.setItem(KEY, JSON.stringify(ids));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Kept in memory for this page.
  }
  for (const listener of listeners) listener();
}

function isCampaignId(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 200;
}

/** The campaign ids, newest first. */
export function claimedCampaigns(): string[] {
  return read();
}

/** Calls `listener` whenever the list changes; returns the function that stops it. */
export function onClaimedChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Empties the list (the shopper signed out, or their session ended). */
export function forgetClaimed(): void {
  if (read().length) write([]);
}

/** Starts following the page's claims and sign-outs (once per page, whichever launcher asks first). */
export function followClaims(): void {
  if (listening) return;
  listening = true;
  document.addEventListener('coupon-claimed', (event) => {
    const id: unknown = (event as CustomEvent<{ campaignId?: unknown }>).detail?.campaignId;
    if (!isCampaignId(id)) return;
    write([id, ...read().filter((kept) => kept !== id)].slice(0, MOST));
  });
  document.addEventListener('loyalty-signout', forgetClaimed);
}
