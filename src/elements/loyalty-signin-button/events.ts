import type { SignInErrorCode } from '../../connect/errors.ts';
import type { LoyaltyUser } from '../../connect/session.ts';

/** Detail of `loyalty-signin`. */
export interface LoyaltySigninDetail {
  user: LoyaltyUser;
  /** False when signed in without the `profile` scope: no username, no loyalty ID. */
  profile: boolean;
  /** `signin` for a new sign-in, `restored` when the page found the session kept from an earlier load. */
  reason: 'signin' | 'restored';
}

/** Detail of `loyalty-signout`. */
export interface LoyaltySignoutDetail {
  reason: 'signout' | 'expired';
}

/** Detail of `loyalty-signin-error`. */
export interface LoyaltySigninErrorDetail {
  code: SignInErrorCode;
  message: string;
}

/** The events `<loyalty-signin-button>` sends, by name; they bubble to the document. */
export interface LoyaltySigninButtonEventMap {
  'loyalty-signin': CustomEvent<LoyaltySigninDetail>;
  'loyalty-signout': CustomEvent<LoyaltySignoutDetail>;
  'loyalty-signin-error': CustomEvent<LoyaltySigninErrorDetail>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the DOM's own map
  interface HTMLElementEventMap extends LoyaltySigninButtonEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- they bubble, composed, to the document
  interface DocumentEventMap extends LoyaltySigninButtonEventMap {}
}
