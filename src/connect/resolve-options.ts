/**
 * The sign-in button's attributes checked and turned into ConnectOptions. Apart from options.ts,
 * which the script tag's first load reads (through the callback capture): these checks are needed
 * only once a sign-in button is on the page.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { withoutTrailingSlash } from '../shared/url.ts';
import { SignInError } from './errors.ts';
import { normalizeScope, type ConnectOptions } from './options.ts';

/** The options as a page writes them (the sign-in button's attributes), before any check. */
export interface ConnectSettings {
  authority: string;
  clientId: string;
  /** Empty for the current page (origin and path). */
  redirectUri: string;
  scope: string;
}

/** Where the sign-in starts: the browser's `location`. (Server code reads this module too: no DOM types here.) */
export interface PageAddress {
  origin: string;
  pathname: string;
  href: string;
}

/**
 * Checks a page's settings and gives the options a sign-in uses, or throws a `config` SignInError
 * that tells the developer what to fix: `authority` must be https (http only on a local address),
 * `clientId` present, the redirect URI a page of this site so the sign-in can come back to it.
 */
export function resolveConnectOptions(settings: ConnectSettings, page: PageAddress): ConnectOptions {
  const safeAuthority = safeUrl(settings.authority.trim());
  const authority = safeAuthority && withoutTrailingSlash(safeAuthority);
  if (!settings.authority.trim())
    throw new SignInError(
      'config',
      'authority is missing: put <meta name="loyalty-authority" content="…"> in the head.',
    );
  if (!authority)
    throw new SignInError('config', `authority="${settings.authority}" is not an https URL (or http on localhost).`);
  const clientId = settings.clientId.trim();
  if (!clientId)
    throw new SignInError(
      'config',
      'client-id is missing: put <meta name="loyalty-client-id" content="your app_id"> in the head.',
    );
  const redirectUri = settings.redirectUri.trim() || `${page.origin}${page.pathname}`;
  let redirect: URL;
  try {
    redirect = new URL(redirectUri, page.href);
  } catch {
    throw new SignInError('config', `redirect-uri="${redirectUri}" is not a URL.`);
  }
  if (redirect.origin !== page.origin) {
    throw new SignInError(
      'config',
      `redirect-uri must be a page of this site (${page.origin}) so the sign-in can come back here.`,
    );
  }
  // Sent exactly as registered: an absolute address as written, a relative one resolved on this page.
  const absolute = /^https?:\/\//i.test(redirectUri);
  return {
    authority,
    clientId,
    redirectUri: absolute ? redirectUri : redirect.href,
    scope: normalizeScope(settings.scope),
  };
}

/** The sign-in a page's merchant pinned (`<meta name="loyalty-authority">`, `…client-id`), when any. */
export interface PinnedSignIn {
  authority?: string;
  clientId?: string;
}

/** An authority as compared: its URL, without a trailing slash. */
const comparable = (authority: string): string => {
  const safe = safeUrl(authority.trim());
  return safe ? withoutTrailingSlash(safe) : authority.trim();
};

/**
 * The page's sign-in is the merchant's: throws a `config` SignInError when these options are not the
 * pinned provider and app, or, with none pinned, when another button of the page (`others`) signs in
 * with another provider or app, since the page cannot tell which one is the merchant's.
 */
export function checkPageSignIn(
  options: ConnectOptions,
  pinned: PinnedSignIn,
  others: readonly ConnectSettings[],
): void {
  if (pinned.authority && comparable(pinned.authority) !== options.authority)
    throw new SignInError(
      'config',
      `authority="${options.authority}" is not this page's sign-in: the head's <meta name="loyalty-authority"> names ${pinned.authority}.`,
    );
  if (pinned.clientId && pinned.clientId.trim() !== options.clientId)
    throw new SignInError(
      'config',
      `client-id="${options.clientId}" is not this page's sign-in: the head's <meta name="loyalty-client-id"> names another app.`,
    );
  if (pinned.authority && pinned.clientId) return;
  // A button that names no provider or app is a set-up mistake of its own, not another sign-in.
  const differs = others.some(
    (other) =>
      (!pinned.authority && other.authority.trim() !== '' && comparable(other.authority) !== options.authority) ||
      (!pinned.clientId && other.clientId.trim() !== '' && other.clientId.trim() !== options.clientId),
  );
  if (differs)
    throw new SignInError(
      'config',
      'the sign-in buttons on this page name different providers or apps: say which is yours with <meta name="loyalty-authority"> and <meta name="loyalty-client-id"> in the head.',
    );
}
