import { safeUrl } from '../shared/safe-url.ts';
import { SignInError } from './errors.ts';

/** What a sign-in needs to know about the provider and the merchant's registered app. */
export interface ConnectOptions {
  /** `{connect_url}`: discovery is read from `{authority}/.well-known/openid-configuration`. */
  authority: string;
  /** The registered app's `app_id`. */
  clientId: string;
  /** Exactly one of the app's registered redirect URIs. */
  redirectUri: string;
  /** Space-separated scopes; always contains `openid`. */
  scope: string;
}

/** How far the shopper's clock may be off from the provider's when checking `exp` (and `nbf`). */
export const CLOCK_SKEW_SECONDS = 60;

/** The default scopes: `profile` gives the username and loyalty ID. */
export const DEFAULT_SCOPE = 'openid profile';

/** Prefix of every key this package writes to localStorage or sessionStorage. */
const STORAGE_PREFIX = 'loyalty-widgets:';

/** Where pending sign-in requests (state, nonce secret) are kept: sessionStorage, single use. */
export const STATE_STORAGE_PREFIX = `${STORAGE_PREFIX}state:`;

/** oidc-client-ts marks its redirect requests with this request type. */
export const REDIRECT_REQUEST_TYPE = 'si:r';

/** Adds `openid` when a page forgot it, and collapses whitespace. */
export function normalizeScope(scope: string | null | undefined): string {
  const scopes = (scope?.trim() || DEFAULT_SCOPE).split(/\s+/);
  if (!scopes.includes('openid')) scopes.unshift('openid');
  return [...new Set(scopes)].join(' ');
}

/** The options as a page writes them (the sign-in button's attributes), before any check. */
export interface ConnectSettings {
  authority: string;
  clientId: string;
  /** Empty for the current page (origin and path). */
  redirectUri: string;
  scope: string;
}

/**
 * Checks a page's settings and gives the options a sign-in uses, or throws a `config` SignInError
 * that tells the developer what to fix: `authority` must be https (http only on a local address),
 * `clientId` present, the redirect URI a page of this site so the sign-in can come back to it.
 */
export function resolveConnectOptions(settings: ConnectSettings, page: Location = location): ConnectOptions {
  const authority = safeUrl(settings.authority.trim())?.replace(/\/$/, '');
  if (!authority)
    throw new SignInError('config', `authority="${settings.authority}" is not an https URL (or http on localhost).`);
  const clientId = settings.clientId.trim();
  if (!clientId) throw new SignInError('config', 'client-id is missing: use the app_id of your registered app.');
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
