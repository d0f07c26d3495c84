/**
 * Finishing a full-page redirect sign-in on a page that has no sign-in button to do it: the shipped
 * callback page, or any page of the site that loads the script tag and is registered as redirect URI.
 * Every check runs here; the session is kept where the starting page asked, and the shopper goes back
 * to that page (which restores the session). A response this tab was not waiting for is used for nothing.
 */
import { pendingRequest } from './callback.ts';
import type { RedirectReturn } from './client.ts';
import { signInErrorCode, type SignInErrorCode } from './errors.ts';
import { finishSignIn } from './launcher.ts';
import { session } from './session.ts';

export type RedirectOutcome = { kind: 'orphan' } | { kind: 'failed'; code: SignInErrorCode; returnTo: string };

/** The page to go back to: only a page of this site. */
function returnAddress(data: unknown): RedirectReturn | undefined {
  const { returnTo, storage } = (data ?? {}) as Partial<RedirectReturn>;
  if (typeof returnTo !== 'string') return undefined;
  const url = new URL(returnTo, location.href);
  if (url.origin !== location.origin) return undefined;
  return { returnTo: url.href, storage: storage === 'local' || storage === 'memory' ? storage : 'session' };
}

/**
 * Checks the response and, when it is good, keeps the shopper and goes back to the starting page
 * (a navigation: nothing is returned then). Otherwise says why: no pending request, or the failure.
 */
export async function finishRedirectSignIn(response: string): Promise<RedirectOutcome | undefined> {
  const request = pendingRequest(response);
  const back = returnAddress(request?.data);
  if (!request?.authority || !request.client_id || !request.redirect_uri || !request.scope || !back)
    return { kind: 'orphan' };
  try {
    const { user } = await finishSignIn(
      {
        authority: request.authority,
        clientId: request.client_id,
        redirectUri: request.redirect_uri,
        scope: request.scope,
      },
      response,
    );
    // With storage="memory" nothing survives the trip back: such pages use themselves as redirect URI.
    session.useStorage(back.storage);
    session.set(user, 'signin');
    if (back.returnTo !== location.href) location.replace(back.returnTo);
    return undefined;
  } catch (error) {
    return { kind: 'failed', code: signInErrorCode(error), returnTo: back.returnTo };
  }
}
