/**
 * The part of a sign-in response's capture that must run at once on every page: recognize a Connect
 * sign-in response in the page's address, take the tokens out of the address bar, and keep the
 * response for whoever finishes it (`takeCapturedResponse`, ./callback.ts). The script tag runs only
 * this on a page without one; handing a response to the popup's opener (./callback.ts) is loaded only
 * by a page whose address carries one.
 */
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

/** The response kept at load, left kept; undefined when none (or once taken). */
export const capturedResponse = (): string | undefined => captured;

/**
 * Keeps a response another copy of this module captured: the script tag's, when the page loads it under
 * another address than the elements import it by (src/sign-in-return.ts).
 */
export function keepCapturedResponse(href: string): void {
  captured = href;
}

/** Forgets the response kept at load: it was taken. */
export function forgetCapturedResponse(): void {
  captured = undefined;
}
