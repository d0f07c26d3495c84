/**
 * Runs when the script loads on a page whose address carries a Connect sign-in response (the
 * redirect URI may be any page of the merchant's site). It removes the tokens from the address bar
 * at once (./response-capture.ts), then either hands the response to the window that opened this
 * popup, or keeps it for the sign-in button of this page to finish (redirect mode). Nothing here
 * imports oidc-client-ts.
 *
 * Any site can open a shop's page with a made-up response in its address: the page hands a response
 * over (and closes) only to an opener of its own origin that is waiting for a popup sign-in it
 * started; otherwise it starts as usual.
 */
import { POPUP_REQUEST_TYPE, REDIRECT_REQUEST_TYPE, STATE_STORAGE_PREFIX } from './options.ts';
import {
  captureResponseFromAddress,
  capturedResponse,
  forgetCapturedResponse,
  signInResponseParams,
} from './response-capture.ts';
import { pageStorage, storedKeys } from '../shared/page-storage.ts';

export { signInResponseParams };

/**
 * A pending request as oidc-client-ts's SigninState keeps it in sessionStorage, or in memory where the
 * browser refuses storage (read-only here).
 */
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
    const stored = state ? pageStorage('session').getItem(STATE_STORAGE_PREFIX + state) : null;
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
  const response = capturedResponse();
  if (response === undefined || (accept && !accept(pendingRequest(response)))) return undefined;
  forgetCapturedResponse();
  return response;
}

/**
 * The message oidc-client-ts's popup window waits for (AbstractChildWindow: `source` "oidc-client",
 * posted to our own origin only). test/browser/signin/internals.test.ts checks the library still
 * accepts it.
 */
export const POPUP_MESSAGE_SOURCE = 'oidc-client';

/** How long the popup waits for its opener to close it before closing itself. */
const SELF_CLOSE_DELAY_MS = 3000;

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
 * another (a replayed or forged state) is still handed over, for the opener to refuse and say so. The
 * opener's pending requests are read where the opener keeps them: its sessionStorage, or its memory
 * when its browser refuses it storage (a frame of another site), so the response still goes to it by
 * message.
 */
function openerAwaitsPopup(opener: Window): boolean {
  try {
    const storage = pageStorage('session', opener as unknown as typeof globalThis);
    return storedKeys(storage).some((key) => {
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
  const href = captureResponseFromAddress(win);
  return href !== undefined && handOverSignInResponse(win, href);
}

/**
 * The rest of `captureSignInResponse`, once `captureResponseFromAddress` took `href`, this page's
 * sign-in response, out of the address bar: hands it to a waiting opener (returns true, and the page
 * closes shortly), or leaves it kept for this page's button.
 */
export function handOverSignInResponse(win: Window, href: string): boolean {
  if (pendingRequest(href)?.request_type === REDIRECT_REQUEST_TYPE) return false;
  const message = { source: POPUP_MESSAGE_SOURCE, url: href, keepOpen: false };
  const opener = sameOriginOpener(win);
  if (opener && openerAwaitsPopup(opener)) {
    // Handed over, so not kept here. Posted to our own origin only; the opener checks the origin too.
    forgetCapturedResponse();
    opener.postMessage(message, win.location.origin);
    setTimeout(() => win.close(), SELF_CLOSE_DELAY_MS);
    return true;
  }
  // The opener link may have been cut (a provider's Cross-Origin-Opener-Policy): oidc-client-ts also
  // listens on a same-origin BroadcastChannel named after the state, where only a window of this
  // origin waiting for that state hears it. Otherwise it is an orphan, replayed or made-up response,
  // which this page's button will refuse with state_mismatch.
  if (!win.opener) {
    const channel = new BroadcastChannel(`oidc-client-popup-${signInResponseParams(href)?.get('state') ?? ''}`);
    channel.postMessage(message);
    channel.close();
  }
  return false;
}

/**
 * A popup sign-in survives its opener reloading: when this tab has a popup sign-in pending from an
 * earlier page (the shopper reloaded, or went away and came back, while the popup was open), the popup
 * still hands its response to this tab, and `take` receives it here (with the popup, to close it).
 * Only a message of this origin in oidc-client-ts's shape whose state this tab is waiting for is
 * taken. A page that starts its own sign-in calls the returned function first, so the response of
 * that sign-in goes to oidc-client-ts alone.
 */
export function takePopupResponsesAfterReload(take: (responseUrl: string, popup: Window | null) => void): () => void {
  if (typeof window === 'undefined' || !openerAwaitsPopup(window)) return () => {};
  const listener = (event: MessageEvent<unknown>): void => {
    if (event.origin !== window.location.origin) return;
    const data = event.data as { source?: unknown; url?: unknown } | null;
    if (typeof data !== 'object' || !data || data.source !== POPUP_MESSAGE_SOURCE || typeof data.url !== 'string')
      return;
    if (pendingRequest(data.url)?.request_type !== POPUP_REQUEST_TYPE) return;
    stop();
    take(data.url, event.source as Window | null);
  };
  const stop = (): void => window.removeEventListener('message', listener);
  window.addEventListener('message', listener);
  return stop;
}
