/**
 * Which sign-in is the page's: a button's own attributes, filled in from the merchant's head, and
 * checked against the head's pinned provider and app and against the page's other buttons. What the
 * head pins, a button cannot change: with any sign-in meta in the head, a button whose redirect URI or
 * session storage differs from the head's is a set-up error, not another way in.
 */
import type { PendingRequest } from '../../connect/callback.ts';
import type { ConnectOptions } from '../../connect/options.ts';
import { checkPageSignIn, resolveConnectOptions } from '../../connect/resolve-options.ts';
import { SignInError } from '../../connect/errors.ts';
import { shippedCallbackPage } from '../../shared/callback-page.ts';
import { merchantSetting, merchantSignIn, type MerchantSetting } from '../../shared/merchant.ts';

/** What a button's attributes say of its sign-in. */
export interface SignInAttributes {
  readonly authority: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly scope: string;
  /** The `storage` attribute, when given. */
  readonly storage?: string | undefined;
  readonly unavailable: boolean;
}

const HEAD_SIGN_IN: readonly MerchantSetting[] = [
  'loyalty-authority',
  'loyalty-client-id',
  'loyalty-redirect-uri',
  'loyalty-storage',
];

/**
 * Where the head keeps the session when it pins the page's sign-in (any sign-in meta in the head):
 * its `<meta name="loyalty-storage">`, else sessionStorage. Undefined when the head pins nothing.
 */
export function pinnedStorage(): string | undefined {
  if (!HEAD_SIGN_IN.some((name) => merchantSetting(name))) return undefined;
  return merchantSetting('loyalty-storage') ?? 'session';
}

/** Where a sign-in comes back unless a button says otherwise: the head's, else the shipped callback page. */
const defaultRedirect = (): string => merchantSetting('loyalty-redirect-uri') || shippedCallbackPage() || '';

/** A button's settings, where the merchant's head fills in what its attributes leave out. */
function settingsOf(button: SignInAttributes, pinned: ReturnType<typeof merchantSignIn>) {
  return {
    authority: button.authority.trim() || pinned.authority || '',
    clientId: button.clientId.trim() || pinned.clientId || '',
    redirectUri: button.redirectUri.trim() || defaultRedirect(),
    scope: button.scope,
  };
}

/** With a head that pins the sign-in, a button's own redirect URI or storage must be the head's. */
function checkHeadPins(button: SignInAttributes, options: ConnectOptions): void {
  const storage = pinnedStorage();
  if (storage === undefined) return;
  const own = button.redirectUri.trim();
  if (own) {
    const head = resolveConnectOptions({ ...options, redirectUri: defaultRedirect() }, location).redirectUri;
    if (new URL(head, location.href).href !== new URL(options.redirectUri, location.href).href)
      throw new SignInError(
        'config',
        `redirect-uri="${own}" is not this page's sign-in: the head pins ${head} (<meta name="loyalty-redirect-uri">, else the default). Leave redirect-uri out.`,
      );
  }
  const kept = button.storage?.trim();
  if (kept && kept !== storage)
    throw new SignInError(
      'config',
      `storage="${kept}" is not this page's sign-in: the head keeps the session in "${storage}" (<meta name="loyalty-storage">, else "session"). Leave storage out.`,
    );
}

/** The options of `button`'s sign-in when it is the page's (the merchant's), or a `config` SignInError. */
export function pageConnectOptions(button: SignInAttributes, buttons: readonly SignInAttributes[]): ConnectOptions {
  const pinned = merchantSignIn();
  const options = resolveConnectOptions(settingsOf(button, pinned), location);
  checkHeadPins(button, options);
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
