/**
 * The page-wide sign-in session. It is tiny and has no dependency on oidc-client-ts, so every
 * element (and a merchant's own script) can read who is signed in without loading the sign-in
 * machinery. The sign-in button fills it; everything else only reads and subscribes.
 */
import { merchantSignIn } from '../shared/merchant.ts';
import { STORAGE_PREFIX } from '../shared/storage-keys.ts';

/** A signed-in shopper, as every element and event sees them. */
export interface LoyaltyUser {
  /** Connect's subject identifier for the shopper. */
  sub: string;
  /** Wallet username; absent when the `profile` scope was not granted. */
  username?: string;
  /** Wallet address used to reward the shopper; absent when the `profile` scope was not granted. */
  loyaltyId?: string;
  /** Connect access token (opaque), sent only to the merchant's proxy when a widget needs it. */
  accessToken: string;
  /**
   * The ID token (JWT) of the sign-in. Post it with the access token to your own server, which checks
   * both with `verifyShopper()` (`loyalty-widgets/proxy`) before it rewards the shopper's loyalty ID.
   */
  idToken: string;
  /** When the access token runs out, in milliseconds since the epoch. */
  expiresAt: number;
  /** The scopes granted. */
  scope: string;
  /** The Connect provider (the button's `authority`) that signed the shopper in. */
  issuer?: string;
  /** The app (the button's `client-id`) the shopper signed in to. */
  clientId?: string;
}

/**
 * Whether a kept user signed in with the sign-in the merchant pinned in the head (when pinned): one
 * from another provider or app (a block's button, an older set-up) is not restored.
 */
function fromPinnedSignIn(user: LoyaltyUser): boolean {
  const pinned = merchantSignIn();
  return (
    (!pinned.authority || user.issuer === pinned.authority) && (!pinned.clientId || user.clientId === pinned.clientId)
  );
}

export type SessionChangeReason = 'signin' | 'signout' | 'expired' | 'restored';

/** Where the signed-in user is kept between page loads: the tab (default), the browser, or nowhere. */
export type SessionStorageKind = 'session' | 'local' | 'memory';

/** The storage key of the signed-in user. */
export const USER_STORAGE_KEY = `${STORAGE_PREFIX}user`;

/** setTimeout cannot wait longer than this (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function webStorage(kind: SessionStorageKind): Storage | undefined {
  try {
    if (kind === 'session') return globalThis.sessionStorage;
    if (kind === 'local') return globalThis.localStorage;
  } catch {
    // Storage can be disabled by the browser's privacy settings: keep the session in memory.
  }
  return undefined;
}

/** A stored user, accepted only when every field has the right type and it has not expired. */
function parseStoredUser(text: string | null): LoyaltyUser | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<LoyaltyUser> | null;
    if (
      !value ||
      typeof value.sub !== 'string' ||
      typeof value.accessToken !== 'string' ||
      typeof value.idToken !== 'string'
    )
      return null;
    if (typeof value.expiresAt !== 'number' || value.expiresAt <= Date.now() || typeof value.scope !== 'string')
      return null;
    const user: LoyaltyUser = {
      sub: value.sub,
      accessToken: value.accessToken,
      idToken: value.idToken,
      expiresAt: value.expiresAt,
      scope: value.scope,
    };
    if (typeof value.username === 'string') user.username = value.username;
    if (typeof value.loyaltyId === 'string') user.loyaltyId = value.loyaltyId;
    if (typeof value.issuer === 'string') user.issuer = value.issuer;
    if (typeof value.clientId === 'string') user.clientId = value.clientId;
    return fromPinnedSignIn(user) ? user : null;
  } catch {
    return null;
  }
}

export type SessionListener = (user: LoyaltyUser | null, reason: SessionChangeReason) => void;

/**
 * A function that starts a sign-in (it runs inside the shopper's click so a popup may open); false
 * when its button may not sign the page in.
 * @internal
 */
export type SignInStarter = () => boolean;

/**
 * The page's sign-in session: who is signed in, where they are kept, and who wants to know. There is
 * one, `session`.
 *
 * @example
 * ```ts
 * import { session } from 'loyalty-widgets/connect';
 *
 * console.log(session.user?.loyaltyId ?? 'signed out');
 * const stop = session.subscribe((user, reason) => console.log(reason, user?.username));
 * // later: stop();
 * ```
 */
export class PageSession {
  private current: LoyaltyUser | null = null;
  private readonly listeners = new Set<SessionListener>();
  private readonly starters: SignInStarter[] = [];
  private storageKind: SessionStorageKind | undefined;
  /** Whether storage was read before any button chose it. */
  private looked = false;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onStorage = (event: StorageEvent): void => {
    if (event.key !== USER_STORAGE_KEY || event.storageArea !== webStorage('local')) return;
    const user = parseStoredUser(event.newValue);
    if (user) this.set(user, 'signin');
    else if (this.current) this.set(null, 'signout');
  };

  /** The signed-in shopper, or null. */
  get user(): LoyaltyUser | null {
    if (!this.storageKind && !this.looked) this.restoreWithoutChoosing();
    if (this.current && this.current.expiresAt <= Date.now()) this.set(null, 'expired');
    return this.current;
  }

  /**
   * A page without a sign-in button (a `<coupon-claim require-signin>` alone, or a merchant's script)
   * still sees the shopper an earlier page kept, from sessionStorage, else localStorage, without
   * choosing the storage: a button that comes later still decides where the user is kept.
   */
  private restoreWithoutChoosing(): void {
    this.looked = true;
    if (this.current) return;
    for (const kind of ['session', 'local'] as const) {
      let stored: LoyaltyUser | null = null;
      try {
        stored = parseStoredUser(webStorage(kind)?.getItem(USER_STORAGE_KEY) ?? null);
      } catch {
        // A storage the browser refuses to read holds nobody.
      }
      if (stored) {
        this.set(stored, 'restored');
        return;
      }
    }
  }

  /** Replaces the session, keeps it in the chosen storage, and tells every subscriber. */
  set(user: LoyaltyUser | null, reason: SessionChangeReason): void {
    if (user && user.expiresAt <= Date.now()) {
      user = null;
      reason = 'expired';
    }
    const wasSignedOut = this.current === null;
    this.current = user;
    this.persist(user);
    this.armExpiry(user);
    // Signing out when nobody is signed in only clears storage; nobody needs to hear about it.
    if (!user && wasSignedOut) return;
    for (const listener of [...this.listeners]) listener(user, reason);
  }

  /** Where the user is kept on this page (memory until a sign-in button chose). */
  get storage(): SessionStorageKind {
    return this.storageKind ?? 'memory';
  }

  /**
   * Chooses where the user is kept (the first sign-in button on the page decides; later calls with
   * another kind are ignored) and restores an unexpired user from there, with reason `restored`.
   */
  useStorage(kind: SessionStorageKind): void {
    if (this.storageKind) return;
    this.storageKind = kind;
    if (kind === 'local') globalThis.addEventListener?.('storage', this.onStorage);
    if (this.current) {
      this.persist(this.current);
      return;
    }
    const storage = webStorage(kind);
    const stored = storage ? parseStoredUser(storage.getItem(USER_STORAGE_KEY)) : null;
    if (stored) this.set(stored, 'restored');
    else storage?.removeItem(USER_STORAGE_KEY);
  }

  private persist(user: LoyaltyUser | null): void {
    try {
      if (user) {
        const storage = webStorage(this.storageKind ?? 'memory');
        storage?.setItem(USER_STORAGE_KEY, JSON.stringify(user));
      } else {
        // Signing out forgets everything, wherever an earlier page kept it.
        webStorage('session')?.removeItem(USER_STORAGE_KEY);
        webStorage('local')?.removeItem(USER_STORAGE_KEY);
      }
    } catch {
      // A full or disabled storage leaves the session in memory for this page.
    }
  }

  /** Signs the shopper out when the access token runs out, so no element uses a dead token. */
  private armExpiry(user: LoyaltyUser | null): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    if (!user) return;
    const delay = Math.min(Math.max(user.expiresAt - Date.now(), 0), MAX_TIMER_MS);
    this.expiryTimer = setTimeout(() => {
      if (this.current !== user) return;
      if (user.expiresAt <= Date.now()) this.set(null, 'expired');
      else this.armExpiry(user);
    }, delay);
  }

  /** Calls the listener on every change; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A sign-in button offers to start sign-ins asked for by other elements.
   * @internal
   */
  registerSignInStarter(start: SignInStarter): () => void {
    this.starters.push(start);
    return () => {
      const index = this.starters.indexOf(start);
      if (index >= 0) this.starters.splice(index, 1);
    };
  }

  /** Asks the page's sign-in button to start a sign-in; false when the page has none that is the page's. */
  requestSignIn(): boolean {
    return this.starters.some((start) => start());
  }
}

/** The one session of this page. */
export const session = new PageSession();
