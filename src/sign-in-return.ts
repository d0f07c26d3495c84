/**
 * What the script tag does on a page whose address carried a Connect sign-in response, once the
 * response is out of the address bar (src/connect/response-capture.ts); loaded only on such a page.
 * A popup hands the response to the window that opened it, and is done. A full-page redirect sign-in
 * may come back to any page of the site registered as redirect URI: a page with a sign-in button
 * finishes it there; on a page without one it is finished here, and the shopper goes back to the page
 * that started it.
 */
import { handOverSignInResponse, takeCapturedResponse } from './connect/callback.ts';
import { keepCapturedResponse } from './connect/response-capture.ts';
import { MOUNT_ATTRIBUTE } from './shared/tags.ts';
import { queryAll } from './shared/page.ts';

/**
 * Returns true when this page is a popup that handed `response` to its opener: nothing else to do.
 * Otherwise the response is kept where the page's sign-in button takes it: the script tag that
 * captured it may be another copy than the one the button imports (a script tag whose address has a
 * query the elements' imports of it do not carry), so it is handed over by this call, never through
 * the page.
 */
export function returnFromSignIn(response: string): boolean {
  keepCapturedResponse(response);
  if (handOverSignInResponse(window, response)) return true;
  if (!queryAll(document, `loyalty-signin-button, [${MOUNT_ATTRIBUTE}="loyalty-signin-button" i]`).length)
    finishRedirectWithoutButton();
  return false;
}

function finishRedirectWithoutButton(): void {
  const response = takeCapturedResponse();
  if (!response) return;
  import('./connect/redirect-return.ts')
    .then(({ finishRedirectSignIn }) => finishRedirectSignIn(response))
    .then((outcome) => {
      if (outcome?.kind === 'failed')
        console.warn(`loyalty-widgets: the sign-in that came back to this page was refused (${outcome.code}).`);
    })
    .catch((error: unknown) => console.error('loyalty-widgets: the sign-in could not be finished.', error));
}
