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

/**
 * Present in localStorage from an explicit sign-out until the next sign-in: no page restores a kept
 * shopper meanwhile, and the next sign-in asks Connect to make the shopper log in (or choose) again.
 */
const SIGNED_OUT_KEY = `${STORAGE_PREFIX}signed-out`;

/** The tabs of this site tell each other about sign-ins and sign-outs on this channel, whatever the storage. */
const CHANNEL_NAME = `${STORAGE_PREFIX}session`;

/**
 * What a tab says on the channel: a sign-in (every tab takes it), a sign-out or an expiry (every tab
 * follows), a question from a tab that just loaded, and the answer of a tab with a shopper.
 */
type TabMessage =
  { kind: 'signin' | 'present'; user: unknown } | { kind: 'signout'; reason: 'signout' | 'expired' } | { kind: 'ask' };

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
    return checkUser(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * A user from storage or another tab, accepted only when every field has the right type, it has not
 * expired, and it signed in with the sign-in the head pins (when pinned).
 */
function checkUser(data: unknown): LoyaltyUser | null {
  const value = data as Partial<LoyaltyUser> | null;
  if (
    typeof value !== 'object' ||
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
}

/** Storage that may throw (disabled, full, sandboxed frame) is treated as empty. */
function readKey(storage: Storage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function writeKey(storage: Storage | undefined, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // A full or disabled storage leaves this page's memory as the only record.
  }
}

/**
 * An explicit sign-out leaves nothing of the shopper readable on a shared computer: every key this
 * package keeps (the user, saved coupons and claim keys, pending sign-ins) goes, in both storages.
 */
function forgetEverything(): void {
  for (const kind of ['session', 'local'] as const) {
    const storage = webStorage(kind);
    try {
      for (const key of Object.keys(storage ?? {})) if (key.startsWith(STORAGE_PREFIX)) storage?.removeItem(key);
    } catch {
      // A storage the browser refuses to read holds nothing of ours.
    }
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
  /** An explicit sign-out this page made or heard of, for when localStorage cannot keep the mark. */
  private signedOutHere = false;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private channel: BroadcastChannel | undefined;
  /** This page asked the other tabs who is signed in, and nothing has changed here since. */
  private asking = false;
  private readonly onStorage = (event: StorageEvent): void => {
    if (event.key !== USER_STORAGE_KEY || event.storageArea !== webStorage('local')) return;
    const user = parseStoredUser(event.newValue);
    if (user) this.change(user, 'signin', false);
    else if (this.current) this.change(null, 'signout', false);
  };

  constructor() {
    if (typeof window === 'undefined' || typeof BroadcastChannel !== 'function') return;
    this.openChannel();
    // A page kept in the back/forward cache heard nothing while it slept: it closes its channel (so the
    // browser may keep it) and, when it comes back, reads the session again before anything uses it.
    window.addEventListener('pagehide', (event) => {
      if (!event.persisted) return;
      this.channel?.close();
      this.channel = undefined;
    });
    window.addEventListener('pageshow', (event) => {
      if (!event.persisted) return;
      this.openChannel();
      this.reread();
    });
  }

  /** The signed-in shopper, or null. */
  get user(): LoyaltyUser | null {
    if (!this.storageKind && !this.looked) this.restoreWithoutChoosing();
    if (this.current && this.current.expiresAt <= Date.now()) this.change(null, 'expired');
    return this.current;
  }

  /**
   * Whether the last thing that happened to the session in this browser is an explicit sign-out: the
   * next sign-in then asks Connect to make the shopper log in or choose an account again.
   * @internal
   */
  get signedOutExplicitly(): boolean {
    return this.signedOutHere || readKey(webStorage('local'), SIGNED_OUT_KEY) !== null;
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
      const stored = this.stored(kind);
      if (stored) {
        this.change(stored, 'restored', false);
        return;
      }
    }
  }

  /** The user kept in this storage, unless an explicit sign-out came after it was kept. */
  private stored(kind: SessionStorageKind): LoyaltyUser | null {
    const storage = webStorage(kind);
    const stored = parseStoredUser(readKey(storage, USER_STORAGE_KEY));
    if (stored && this.signedOutExplicitly) {
      writeKey(storage, USER_STORAGE_KEY, null);
      return null;
    }
    return stored;
  }

  /** Replaces the session, keeps it in the chosen storage, and tells every subscriber and every other tab. */
  set(user: LoyaltyUser | null, reason: SessionChangeReason): void {
    this.change(user, reason, reason !== 'restored');
  }

  private change(user: LoyaltyUser | null, reason: SessionChangeReason, tellOtherTabs = true): void {
    if (user && user.expiresAt <= Date.now()) {
      user = null;
      reason = 'expired';
    }
    const previous = this.current;
    this.current = user;
    this.asking = false;
    if (user && reason === 'signin') {
      this.signedOutHere = false;
      writeKey(webStorage('local'), SIGNED_OUT_KEY, null);
    } else if (!user && previous && reason === 'signout') {
      this.signedOutHere = true;
      forgetEverything();
      writeKey(webStorage('local'), SIGNED_OUT_KEY, String(Date.now()));
    }
    this.persist(user);
    this.armExpiry(user);
    if (tellOtherTabs && (user || previous))
      this.post(
        user ? { kind: 'signin', user } : { kind: 'signout', reason: reason === 'expired' ? 'expired' : 'signout' },
      );
    // Signing out when nobody is signed in only clears storage; nobody needs to hear about it.
    if (!user && !previous) return;
    // The same sign-in heard twice (another tab's message and its storage event) is told once.
    if (user && previous && user.accessToken === previous.accessToken) return;
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
    const stored = this.stored(kind);
    if (stored) this.change(stored, 'restored', false);
    else writeKey(webStorage(kind), USER_STORAGE_KEY, null);
  }

  private persist(user: LoyaltyUser | null): void {
    if (user) {
      writeKey(webStorage(this.storageKind ?? 'memory'), USER_STORAGE_KEY, JSON.stringify(user));
    } else {
      // Signing out forgets everything, wherever an earlier page kept it.
      writeKey(webStorage('session'), USER_STORAGE_KEY, null);
      writeKey(webStorage('local'), USER_STORAGE_KEY, null);
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
      if (user.expiresAt <= Date.now()) this.change(null, 'expired');
      else this.armExpiry(user);
    }, delay);
  }

  /** A page back from the back/forward cache takes the session as storage and the other tabs have it now. */
  private reread(): void {
    const kinds = this.storageKind ? [this.storageKind] : (['session', 'local'] as const);
    let stored: LoyaltyUser | null = null;
    for (const kind of kinds) stored ??= this.stored(kind);
    const keptInStorage = this.storageKind !== 'memory' && (this.storageKind !== undefined || this.looked);
    if (stored) this.change(stored, this.current ? 'signin' : 'restored', false);
    else if (this.current && (keptInStorage || this.signedOutExplicitly))
      this.change(null, this.current.expiresAt <= Date.now() ? 'expired' : 'signout', false);
    if (!this.current) this.ask();
  }

  private openChannel(): void {
    if (this.channel) return;
    try {
      this.channel = new BroadcastChannel(CHANNEL_NAME);
    } catch {
      // Firefox refuses a frame of another site whose storage it blocks a channel: no tab shares its session.
      return;
    }
    this.channel.onmessage = (event: MessageEvent<unknown>) => this.hear(event.data);
    // A tab that opens later than the sign-in asks the others who is signed in.
    if (!this.current) this.ask();
  }

  private ask(): void {
    this.asking = true;
    this.post({ kind: 'ask' });
  }

  private post(message: TabMessage): void {
    try {
      this.channel?.postMessage(message);
    } catch {
      // A closed channel (the page is going away) has nobody to tell.
    }
  }

  /** Another tab's news, checked like any stored value. */
  private hear(data: unknown): void {
    const message = data as Partial<TabMessage> | null;
    switch (typeof message === 'object' && message ? message.kind : undefined) {
      case 'ask':
        // A page that keeps its shopper nowhere (`memory`) does not hand them to a new tab either.
        if (this.storageKind !== 'memory' && this.user) this.post({ kind: 'present', user: this.current });
        return;
      case 'signin': {
        const user = checkUser((message as { user: unknown }).user);
        if (user) this.change(user, 'signin', false);
        return;
      }
      case 'present': {
        const user = checkUser((message as { user: unknown }).user);
        if (user && this.asking && !this.current && this.storageKind !== 'memory' && !this.signedOutExplicitly)
          this.change(user, 'restored', false);
        return;
      }
      case 'signout':
        if (!this.current) return;
        this.change(null, (message as { reason: unknown }).reason === 'expired' ? 'expired' : 'signout', false);
        return;
    }
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
