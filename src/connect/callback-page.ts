/**
 * The script of the minimal standalone callback page (`callback.html`), for sites that prefer a
 * dedicated redirect URI to "any page that loads the widgets". The tokens leave the address bar
 * before anything else; the page itself sets `<meta name="referrer" content="no-referrer">`.
 * - In the sign-in popup it hands the response to the opener, which checks it and closes the popup.
 * - After a full-page redirect sign-in it runs every check here, keeps the session where the
 *   starting page asked, and goes back to that page (which restores the session).
 * - Anything else (a bookmark, a replayed link) is used for nothing.
 * Texts come from the page: `data-loyalty-callback-orphan` and `data-loyalty-callback-failed` on the
 * `[data-loyalty-callback-status]` element.
 */
import { captureSignInResponse, pendingRequest, takeCapturedResponse } from './callback.ts';
import type { RedirectReturn } from './client.ts';
import { signInErrorCode } from './errors.ts';
import { finishSignIn } from './launcher.ts';
import { session } from './session.ts';

const status = document.querySelector<HTMLElement>('[data-loyalty-callback-status]');

function say(text: string): void {
  if (status) status.textContent = text;
}

/** The page to go back to: only a page of this site. */
function returnAddress(data: unknown): RedirectReturn | undefined {
  const { returnTo, storage } = (data ?? {}) as Partial<RedirectReturn>;
  if (typeof returnTo !== 'string') return undefined;
  const url = new URL(returnTo, location.href);
  if (url.origin !== location.origin) return undefined;
  return { returnTo: url.href, storage: storage === 'local' || storage === 'memory' ? storage : 'session' };
}

async function finishRedirect(response: string): Promise<void> {
  const request = pendingRequest(response);
  const back = returnAddress(request?.data);
  if (!request?.authority || !request.client_id || !request.redirect_uri || !request.scope || !back) {
    say(status?.dataset.loyaltyCallbackOrphan ?? 'There is no sign-in in progress. You can close this window.');
    return;
  }
  try {
    const { user } = await finishSignIn(
      { authority: request.authority, clientId: request.client_id, redirectUri: request.redirect_uri, scope: request.scope },
      response,
    );
    // With storage="memory" nothing survives the trip back: such pages use themselves as redirect URI.
    session.useStorage(back.storage);
    session.set(user, 'signin');
    location.replace(back.returnTo);
  } catch (error) {
    const code = signInErrorCode(error);
    say(`${status?.dataset.loyaltyCallbackFailed ?? 'The sign-in was not completed'} (${code}).`);
    const link = document.createElement('a');
    link.href = back.returnTo;
    link.textContent = back.returnTo;
    status?.after(link);
  }
}

if (!captureSignInResponse()) {
  const response = takeCapturedResponse();
  if (response) void finishRedirect(response);
  else say(status?.dataset.loyaltyCallbackOrphan ?? 'There is no sign-in in progress. You can close this window.');
}
