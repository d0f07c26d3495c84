/**
 * The sign-in chunk: loaded with a dynamic `import()` by a sign-in button when the shopper points
 * at, focuses or presses it. Everything heavy (oidc-client-ts, jose) lives behind this module.
 */
import type { PopupWindowFeatures, User } from 'oidc-client-ts';
import { ConnectUserManager, profileOf } from './connect-user-manager.ts';
import { SignInError } from './errors.ts';
import type { ConnectOptions } from './options.ts';
import { session, type LoyaltyUser, type SessionStorageKind } from './session.ts';

/** What a redirect sign-in remembers about the page that started it. */
export interface RedirectReturn {
  returnTo: string;
  storage: SessionStorageKind;
}

export { ConnectUserManager } from './connect-user-manager.ts';

/** A finished sign-in: the shopper, and whether a profile (username, loyalty ID) came with it. */
export interface SignInResult {
  user: LoyaltyUser;
  profile: boolean;
}

const managers = new Map<string, ConnectUserManager>();

/** One UserManager per provider and app on the page. */
export function managerFor(options: ConnectOptions): ConnectUserManager {
  const key = JSON.stringify([options.authority, options.clientId, options.redirectUri, options.scope]);
  let manager = managers.get(key);
  if (!manager) managers.set(key, (manager = new ConnectUserManager(options)));
  return manager;
}

function toResult(user: User, options: ConnectOptions): SignInResult {
  const profile = profileOf(user);
  const loyaltyUser: LoyaltyUser = {
    sub: user.profile.sub,
    accessToken: user.access_token,
    idToken: user.id_token ?? '',
    expiresAt: (user.expires_at ?? 0) * 1000,
    scope: user.scope ?? '',
    issuer: options.authority,
    clientId: options.clientId,
  };
  if (profile?.username) loyaltyUser.username = profile.username;
  if (profile?.loyaltyId) loyaltyUser.loyaltyId = profile.loyaltyId;
  return { user: loyaltyUser, profile: profile !== null };
}

/** Gives a failure from oidc-client-ts's popup machinery one of our codes. */
function asSignInError(error: unknown): SignInError {
  if (error instanceof SignInError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/popup closed/i.test(message))
    return new SignInError('popup_closed', 'The sign-in window was closed before the sign-in finished.', {
      cause: error,
    });
  if (/disposed window|popup blocked/i.test(message))
    return new SignInError('popup_blocked', 'The browser blocked the sign-in window.', { cause: error });
  // The browser refused something sign-in needs (storage, another window): no connection is at fault.
  if (error instanceof DOMException && error.name === 'SecurityError')
    return new SignInError(
      'config',
      `The browser refused this page what sign-in needs (${message}). In a frame of another site, ` +
        'give the frame allow-same-origin and allow-popups, or put the widgets on the page itself.',
      { cause: error },
    );
  return new SignInError('network', message, { cause: error });
}

/**
 * Signs in through a popup. `target` names a window the caller already opened synchronously in the
 * shopper's click (window.open returns that same window for the same name), so the popup is never
 * caught by a popup blocker even though this chunk may have loaded after the click.
 */
export async function signInWithPopup(
  options: ConnectOptions,
  target: string,
  features: PopupWindowFeatures,
): Promise<SignInResult> {
  try {
    const user = await managerFor(options).signinPopup({
      popupWindowTarget: target,
      popupWindowFeatures: features,
      popupAbortOnClose: true,
    });
    return toResult(user, options);
  } catch (error) {
    throw asSignInError(error);
  }
}

/** Navigates this page to Connect; the sign-in finishes when the shopper comes back. */
export async function signInWithRedirect(options: ConnectOptions): Promise<void> {
  try {
    // Kept with the pending request, for a standalone callback page to finish and come back here.
    const state: RedirectReturn = { returnTo: location.href, storage: session.storage };
    await managerFor(options).signinRedirect({ redirectMethod: 'assign', state });
  } catch (error) {
    throw asSignInError(error);
  }
}

/** Finishes a sign-in whose response arrived in this page's address (redirect mode). */
export async function completeSignIn(options: ConnectOptions, responseUrl: string): Promise<SignInResult> {
  try {
    return toResult(await managerFor(options).signinRedirectCallback(responseUrl), options);
  } catch (error) {
    throw asSignInError(error);
  }
}

/** Forgets the user oidc-client-ts holds and every pending request of this page. */
export async function forget(options: ConnectOptions): Promise<void> {
  await managerFor(options).removeUser();
}
