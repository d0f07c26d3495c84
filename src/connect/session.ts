/**
 * The page-wide sign-in session. It is tiny and has no dependency on oidc-client-ts, so every
 * element (and a merchant's own script) can read who is signed in without loading the sign-in
 * machinery. The sign-in button fills it; everything else only reads and subscribes.
 */

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
  /** When the access token runs out, in milliseconds since the epoch. */
  expiresAt: number;
  /** The scopes granted. */
  scope: string;
}

export type SessionChangeReason = 'signin' | 'signout' | 'expired' | 'restored';
export type SessionListener = (user: LoyaltyUser | null, reason: SessionChangeReason) => void;

/** A function that starts a sign-in; it runs inside the shopper's click so a popup may open. */
export type SignInStarter = () => void;

class PageSession {
  private current: LoyaltyUser | null = null;
  private readonly listeners = new Set<SessionListener>();
  private readonly starters: SignInStarter[] = [];

  /** The signed-in shopper, or null. */
  get user(): LoyaltyUser | null {
    if (this.current && this.current.expiresAt <= Date.now()) this.set(null, 'expired');
    return this.current;
  }

  /** Replaces the session and tells every subscriber. */
  set(user: LoyaltyUser | null, reason: SessionChangeReason): void {
    this.current = user;
    for (const listener of [...this.listeners]) listener(user, reason);
  }

  /** Calls the listener on every change; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A sign-in button offers to start sign-ins asked for by other elements. */
  registerSignInStarter(start: SignInStarter): () => void {
    this.starters.push(start);
    return () => {
      const index = this.starters.indexOf(start);
      if (index >= 0) this.starters.splice(index, 1);
    };
  }

  /** Asks the page's sign-in button to start a sign-in; false when the page has none. */
  requestSignIn(): boolean {
    const start = this.starters[0];
    if (!start) return false;
    start();
    return true;
  }
}

/** The one session of this page. */
export const session = new PageSession();
