/**
 * Which sign-in is the page's: a button's own attributes, filled in from the merchant's head, and
 * checked against the head's pinned provider and app and against the page's other buttons.
 */
import type { PendingRequest } from '../../connect/callback.ts';
import type { ConnectOptions } from '../../connect/options.ts';
import { checkPageSignIn, resolveConnectOptions } from '../../connect/resolve-options.ts';
import { shippedCallbackPage } from '../../shared/callback-page.ts';
import { merchantSetting, merchantSignIn } from '../../shared/merchant.ts';

/** What a button's attributes say of its sign-in. */
export interface SignInAttributes {
  readonly authority: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  readonly unavailable: boolean;
}

/** A button's settings, where the merchant's head fills in what its attributes leave out. */
function settingsOf(button: SignInAttributes, pinned: ReturnType<typeof merchantSignIn>) {
  return {
    authority: button.authority.trim() || pinned.authority || '',
    clientId: button.clientId.trim() || pinned.clientId || '',
    redirectUri: button.redirectUri.trim() || merchantSetting('loyalty-redirect-uri') || shippedCallbackPage() || '',
    scope: button.scope,
  };
}

/** The options of `button`'s sign-in when it is the page's (the merchant's), or a `config` SignInError. */
export function pageConnectOptions(button: SignInAttributes, buttons: readonly SignInAttributes[]): ConnectOptions {
  const pinned = merchantSignIn();
  const options = resolveConnectOptions(settingsOf(button, pinned), location);
  const others = buttons.filter((other) => other !== button && !other.unavailable);
  checkPageSignIn(
    options,
    pinned,
    others.map((other) => settingsOf(other, pinned)),
  );
  return options;
}

export function isPageSignIn(button: SignInAttributes, buttons: readonly SignInAttributes[]): boolean {
  try {
    pageConnectOptions(button, buttons);
    return true;
  } catch {
    return false;
  }
}

/** Whether a redirect response is `button`'s to finish: its app's, or one nobody was waiting for (refused there). */
export function answers(
  button: SignInAttributes,
  buttons: readonly SignInAttributes[],
  request: PendingRequest | undefined,
): boolean {
  if (!request) return true;
  try {
    const { authority, clientId } = pageConnectOptions(button, buttons);
    return request.client_id === clientId && request.authority === authority;
  } catch {
    return false;
  }
}
