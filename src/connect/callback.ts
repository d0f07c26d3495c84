/**
 * Runs when the script loads on a page whose address carries a Connect sign-in response (the
 * redirect URI may be any page of the merchant's site). It removes the tokens from the address bar
 * at once, then either hands the response to the window that opened this popup, or keeps it for the
 * sign-in button of this page to finish (redirect mode). Nothing here imports oidc-client-ts.
 *
 * Any site can open a shop's page with a made-up response in its address: the page hands a response
 * over (and closes) only to an opener of its own origin that is waiting for a popup sign-in it
 * started; otherwise it starts as usual.
 */
import { POPUP_REQUEST_TYPE, REDIRECT_REQUEST_TYPE, STATE_STORAGE_PREFIX } from './options.ts';

/**
 * The message oidc-client-ts's popup window waits for (AbstractChildWindow: `source` "oidc-client",
 * posted to our own origin only). test/browser/signin/internals.test.ts checks the library still
 * accepts it.
 */
export const POPUP_MESSAGE_SOURCE = 'oidc-client';

/** How long the popup waits for its opener to close it before closing itself. */
const SELF_CLOSE_DELAY_MS = 3000;

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

/** The window that opened this one, when it is of this page's origin (reading another origin's throws). */
function sameOriginOpener(win: Window): Window | undefined {
  try {
    const opener = win.opener as Window | null;
    return opener && opener !== win && opener.location.origin === win.location.origin ? opener : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the opener is waiting for a popup sign-in it started. Any of its own: a response that answers
 * another (a replayed or forged state) is still handed over, for the opener to refuse and say so.
 */
function openerAwaitsPopup(opener: Window): boolean {
  try {
    const storage = opener.sessionStorage;
    return Object.keys(storage).some((key) => {
      if (!key.startsWith(STATE_STORAGE_PREFIX)) return false;
      const request: unknown = JSON.parse(storage.getItem(key) ?? 'null');
      return (request as PendingRequest | null)?.request_type === POPUP_REQUEST_TYPE;
    });
  } catch {
    return false;
  }
}

/**
 * Looks at this page's address once. Returns true when the page is a popup that handed its response
 * to the opener, a window of this origin waiting for a popup sign-in (the page should then do nothing
 * else, and closes shortly). The script tag and the shipped callback page
 * do this by themselves; a page that uses `loyalty-widgets/connect` alone calls it first thing.
 *
 * @example
 * ```ts
 * import { captureSignInResponse } from 'loyalty-widgets/connect';
 *
 * if (!captureSignInResponse()) {
 *   // Not a sign-in popup: start the page as usual (a redirect's response waits in takeCapturedResponse()).
 * }
 * ```
 */
export function captureSignInResponse(win: Window = window): boolean {
  const href = win.location.href;
  const params = signInResponseParams(href);
  if (!params) return false;
  // Tokens leave the address bar (and so history, bookmarks and shared links) before anything else.
  win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
  const state = params.get('state') ?? '';
  if (pendingRequest(href)?.request_type === REDIRECT_REQUEST_TYPE) {
    captured = href;
    return false;
  }
  const message = { source: POPUP_MESSAGE_SOURCE, url: href, keepOpen: false };
  const opener = sameOriginOpener(win);
  if (opener && openerAwaitsPopup(opener)) {
    // Posted to our own origin only; the opener checks the origin too.
    opener.postMessage(message, win.location.origin);
    setTimeout(() => win.close(), SELF_CLOSE_DELAY_MS);
    return true;
  }
  // The opener link may have been cut (a provider's Cross-Origin-Opener-Policy): oidc-client-ts also
  // listens on a same-origin BroadcastChannel named after the state, where only a window of this
  // origin waiting for that state hears it. Otherwise it is an orphan, replayed or made-up response,
  // which this page's button will refuse with state_mismatch.
  if (!win.opener) {
    const channel = new BroadcastChannel(`oidc-client-popup-${state}`);
    channel.postMessage(message);
    channel.close();
  }
  captured = href;
  return false;
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
