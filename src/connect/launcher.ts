/**
 * The light half of sign-in, loaded with the page: it loads the sign-in chunk (client.ts) on the
 * shopper's intent and opens the popup synchronously inside the shopper's click, whether or not the
 * chunk has arrived.
 * Nothing here imports oidc-client-ts or jose.
 */
import { SignInError } from './errors.ts';
import { STATE_STORAGE_PREFIX, type ConnectOptions } from './options.ts';
import { onIntent } from '../shared/intent.ts';
import { pageStorage, storedKeys } from '../shared/page-storage.ts';
import type { SignInResult } from './client.ts';

type ClientModule = typeof import('./client.ts');

/** How a sign-in is started: a popup that falls back to a full-page redirect when blocked (default), a popup only, or a redirect. */
export type SignInMode = 'popup' | 'popup-only' | 'redirect';

/**
 * What a started sign-in turned into: a user, or a redirect to Connect (which settles only if the
 * shopper comes back to this page from the browser's page cache without finishing).
 */
export type SignInOutcome = ({ kind: 'signed-in' } & SignInResult) | { kind: 'redirecting' };

let loaded: ClientModule | undefined;
let loading: Promise<ClientModule> | undefined;

/** Loads the sign-in chunk once; a failed load can be retried. */
export function loadSignInClient(): Promise<ClientModule> {
  loading ??= import('./client.ts').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw new SignInError('network', 'The sign-in code could not be loaded.', { cause: error });
    },
  );
  return loading;
}

/**
 * Starts loading the sign-in code (oidc-client-ts, jose) in the background, so that a click signs in
 * without waiting for it; a failed load is tried again at the click.
 *
 * @example
 * ```ts
 * import { prefetchSignInClient } from 'loyalty-widgets/connect';
 *
 * document.querySelector('#sign-in')?.addEventListener('pointerenter', prefetchSignInClient, { once: true });
 * ```
 */
export function prefetchSignInClient(): void {
  loadSignInClient().catch(() => undefined);
}

/**
 * Loads the chunk on the shopper's intent: when the pointer reaches the element, when it takes the
 * focus, or at the first press (a touch has no hover), so that by the click it is usually here. A
 * page whose shopper never goes near the button never fetches it. The click itself opens the popup
 * at once (see `startSignIn`) whether or not the chunk has arrived. Returns a function that stops
 * watching.
 */
export function prefetchWhenLikely(element: HTMLElement): () => void {
  return onIntent(element, prefetchSignInClient);
}

/** Whether the chunk is already here (the click can then go straight to oidc-client-ts). */
export function signInClientLoaded(): boolean {
  return loaded !== undefined;
}

/** Popup size and position: centred over the page, like oidc-client-ts's PopupUtils.center. */
export function centredPopupFeatures(): {
  width: number;
  height: number;
  left: number;
  top: number;
  location: boolean;
  toolbar: boolean;
} {
  const width = Math.min(500, window.screen.availWidth || 500);
  const height = Math.min(640, window.screen.availHeight || 640);
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return { width, height, left, top, location: false, toolbar: false };
}

function serialize(features: Record<string, number | boolean>): string {
  return Object.entries(features)
    .map(([key, value]) => `${key}=${typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}`)
    .join(',');
}

let popupCount = 0;

/** Why a page of no origin cannot sign in, and what the merchant can do. */
const OPAQUE_ORIGIN =
  'This page has no origin of its own (a frame sandboxed without allow-same-origin), so no sign-in window ' +
  "can hand the shopper back to it. Add allow-same-origin and allow-popups to the frame's sandbox, or " +
  'put the widgets on the page itself.';

async function redirect(options: ConnectOptions): Promise<SignInOutcome> {
  await (await loadSignInClient()).signInWithRedirect(options);
  return { kind: 'redirecting' };
}

/**
 * Starts a sign-in. Call it synchronously from the click handler: in popup modes the window is
 * opened before this function returns, so no popup blocker trips; a blocked popup falls back to a
 * redirect (mode `popup`) or fails with `popup_blocked` (mode `popup-only`). The user it gives is
 * not put in the page's `session`: do that when the page's elements should see them.
 *
 * @example
 * ```ts
 * import { DEFAULT_SCOPE, session, signInErrorCode, startSignIn, type ConnectOptions } from 'loyalty-widgets/connect';
 *
 * const options: ConnectOptions = {
 *   authority: 'https://connect.example',
 *   clientId: 'YOUR_APP_ID',
 *   redirectUri: 'https://shop.example/',
 *   scope: DEFAULT_SCOPE,
 * };
 * document.querySelector('#sign-in')?.addEventListener('click', () => {
 *   startSignIn(options, 'popup').then(
 *     (outcome) => {
 *       if (outcome.kind === 'signed-in') session.set(outcome.user, 'signin');
 *     },
 *     (error: unknown) => console.warn(signInErrorCode(error)), // e.g. 'access_denied', 'popup_closed'
 *   );
 * });
 * ```
 */
export function startSignIn(options: ConnectOptions, mode: SignInMode): Promise<SignInOutcome> {
  if (mode === 'redirect') return redirect(options);
  if (window.origin === 'null') return Promise.reject(new SignInError('config', OPAQUE_ORIGIN));
  const features = centredPopupFeatures();
  const target = `loyalty-signin-${Date.now().toString(36)}-${++popupCount}`;
  // Opened empty here, in the click; oidc-client-ts's window.open(undefined, target) finds this same window.
  const popup = window.open('', target, serialize(features));
  if (!popup) {
    if (mode === 'popup-only')
      return Promise.reject(new SignInError('popup_blocked', 'The browser blocked the sign-in window.'));
    return redirect(options);
  }
  return loadSignInClient()
    .then(async (client) => ({
      kind: 'signed-in' as const,
      ...(await client.signInWithPopup(options, target, features)),
    }))
    .catch((error: unknown) => {
      // Whatever failed, no empty window is left in front of the shopper.
      if (!popup.closed) popup.close();
      throw error;
    });
}

/**
 * Finishes a redirect sign-in from the response captured at page load (see `takeCapturedResponse`):
 * checks it as a popup sign-in is checked and gives the shopper.
 *
 * @example
 * ```ts
 * import { DEFAULT_SCOPE, finishSignIn, session, takeCapturedResponse, type ConnectOptions } from 'loyalty-widgets/connect';
 *
 * const options: ConnectOptions = {
 *   authority: 'https://connect.example',
 *   clientId: 'YOUR_APP_ID',
 *   redirectUri: 'https://shop.example/',
 *   scope: DEFAULT_SCOPE,
 * };
 * const response = takeCapturedResponse();
 * if (response) session.set((await finishSignIn(options, response)).user, 'signin');
 * ```
 */
export async function finishSignIn(options: ConnectOptions, responseUrl: string): Promise<SignInResult> {
  return (await loadSignInClient()).completeSignIn(options, responseUrl);
}

/**
 * Forgets oidc-client-ts's copy of the user (if the chunk was ever loaded) and every pending request.
 *
 * @example
 * ```ts
 * import { forgetSignIn, session } from 'loyalty-widgets/connect';
 *
 * // Signing out: the page's session, and what the sign-in code kept.
 * forgetSignIn(undefined); // or the ConnectOptions the shopper signed in with
 * session.set(null, 'signout');
 * ```
 */
export function forgetSignIn(options: ConnectOptions | undefined): void {
  if (options) void loaded?.forget(options);
  const storage = pageStorage('session');
  for (const key of storedKeys(storage)) if (key.startsWith(STATE_STORAGE_PREFIX)) storage.removeItem(key);
}
