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
import { captureSignInResponse, takeCapturedResponse } from './callback.ts';
import { finishRedirectSignIn } from './redirect-return.ts';
import { newElement, queryAll } from '../shared/page.ts';

const status = queryAll<HTMLElement>(document, '[data-loyalty-callback-status]')[0];
const orphanText = (): string =>
  status?.dataset.loyaltyCallbackOrphan ?? 'There is no sign-in in progress. You can close this window.';

function say(text: string): void {
  if (status) status.textContent = text;
}

async function finishRedirect(response: string): Promise<void> {
  const outcome = await finishRedirectSignIn(response);
  if (!outcome) return;
  if (outcome.kind === 'orphan') {
    say(orphanText());
    return;
  }
  say(`${status?.dataset.loyaltyCallbackFailed ?? 'The sign-in was not completed'} (${outcome.code}).`);
  const link = newElement('a');
  link.href = outcome.returnTo;
  link.textContent = outcome.returnTo;
  status?.after(link);
}

if (!captureSignInResponse()) {
  const response = takeCapturedResponse();
  if (response) void finishRedirect(response);
  else say(orphanText());
}
