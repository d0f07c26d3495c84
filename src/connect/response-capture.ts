/**
 * The part of a sign-in response's capture that must run at once on every page: recognize a Connect
 * sign-in response in the page's address, take the tokens out of the address bar, and keep the
 * response for whoever finishes it. The script tag runs only this on a page without one; handing a
 * response to the popup's opener (./callback.ts) is loaded only by a page whose address carries one.
 */
import { STATE_STORAGE_PREFIX } from './options.ts';

let captured: string | undefined;

/** The fragment parameters of a URL, when they are a Connect sign-in response. */
export function signInResponseParams(href: string): URLSearchParams | undefined {
  const hash = new URL(href).hash.slice(1);
  if (!hash) return undefined;
  const params = new URLSearchParams(hash);
  const isResponse =
    params.has('state') && (params.has('id_token') || params.has('access_token') || params.has('error'));
  return isResponse ? params : undefined;
}

/**
 * When this page's address carries a sign-in response: takes it out of the address bar (and so out of
 * history, bookmarks and shared links) before anything else, keeps it for `takeCapturedResponse`, and
 * returns it. Undefined on any other page.
 */
export function captureResponseFromAddress(win: Window = window): string | undefined {
  const href = win.location.href;
  if (!signInResponseParams(href)) return undefined;
  win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
  captured = href;
  return href;
}

/** A pending request as oidc-client-ts's SigninState keeps it in sessionStorage (read-only here). */
export interface PendingRequest {
  request_type?: string;
  authority?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  data?: unknown;
}

/** The pending request a response answers, if this tab started it. */
export function pendingRequest(responseUrl: string): PendingRequest | undefined {
  const state = signInResponseParams(responseUrl)?.get('state');
  try {
    const stored = state ? sessionStorage.getItem(STATE_STORAGE_PREFIX + state) : null;
    return stored ? (JSON.parse(stored) as PendingRequest) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the sign-in response captured at load, once. With `accept`, only when it accepts the pending
 * request the response answers (undefined for a response nobody here was waiting for): a page with
 * buttons of several apps hands each its own.
 *
 * @example
 * ```ts
 * import { takeCapturedResponse } from 'loyalty-widgets/connect';
 *
 * // Only a response to a sign-in that this tab started for this app.
 * const response = takeCapturedResponse((request) => request?.client_id === 'YOUR_APP_ID');
 * ```
 */
export function takeCapturedResponse(accept?: (request: PendingRequest | undefined) => boolean): string | undefined {
  const response = captured;
  if (response === undefined || (accept && !accept(pendingRequest(response)))) return undefined;
  captured = undefined;
  return response;
}
