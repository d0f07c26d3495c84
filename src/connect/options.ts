import { STORAGE_PREFIX } from '../shared/storage-keys.ts';

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

/** Where pending sign-in requests (state, nonce secret) are kept: sessionStorage, single use. */
export const STATE_STORAGE_PREFIX = `${STORAGE_PREFIX}state:`;

/** oidc-client-ts marks its redirect requests with this request type. */
export const REDIRECT_REQUEST_TYPE = 'si:r';

/** oidc-client-ts marks its popup requests with this request type. */
export const POPUP_REQUEST_TYPE = 'si:p';

/**
 * Adds `openid` when a page forgot it, and collapses whitespace.
 *
 * @example
 * ```ts
 * import { normalizeScope } from 'loyalty-widgets/connect';
 *
 * normalizeScope('profile  email'); // 'openid profile email'
 * normalizeScope(undefined); // 'openid profile'
 * ```
 */
export function normalizeScope(scope: string | null | undefined): string {
  const scopes = (scope?.trim() || DEFAULT_SCOPE).split(/\s+/);
  if (!scopes.includes('openid')) scopes.unshift('openid');
  return [...new Set(scopes)].join(' ');
}
