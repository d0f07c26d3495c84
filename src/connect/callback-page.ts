/**
 * The script of the minimal standalone callback page (`callback.html`), for sites that prefer a
 * dedicated redirect URI to any page that loads the widgets. In the sign-in popup it hands the
 * response to the opener, which checks it and closes the popup; the tokens leave the address bar
 * before anything else. The page itself sets `<meta name="referrer" content="no-referrer">`.
 */
import { captureSignInResponse } from './callback.ts';

const handedOver = captureSignInResponse();
const status = document.querySelector<HTMLElement>('[data-loyalty-callback-status]');
if (status && !handedOver) {
  // Opened without a pending popup sign-in (a bookmark, a replayed link): nothing is used.
  status.textContent = status.dataset.loyaltyCallbackOrphan ?? 'There is no sign-in in progress. You can close this window.';
}
