/**
 * The popup callback hands the sign-in response only to an opener of its own origin. A page of
 * another origin that opens the merchant's callback with a response in its address (a phishing page
 * relaying a shopper's sign-in) must never receive the tokens: the callback posts to its own origin,
 * so the browser drops the message. Real cross-origin windows (the test server under a second host
 * name), in every engine.
 */
import { expect } from '@open-wc/testing';
import { POPUP_MESSAGE_SOURCE } from '../../../src/connect/callback.ts';
import { POPUP_REQUEST_TYPE, STATE_STORAGE_PREFIX } from '../../../src/connect/options.ts';
import { pressForReal } from '../engine.ts';

const RESPONSE = '#state=relayed-state&id_token=relayed.id.token&access_token=relayed-access-token&token_type=Bearer';

/** The same test server under its other loopback name: another origin. */
function otherOrigin(): string {
  const other = new URL(location.href);
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return other.origin;
}

/**
 * Opens the probing callback page at `origin` from a real press (popup blockers allow it) and
 * returns the data of every message this window got from it until its probe said the callback had run.
 */
async function messagesFromCallback(origin: string): Promise<unknown[]> {
  const received: unknown[] = [];
  let popup: Window | null = null;
  const ran = new Promise<void>((resolve) => {
    const listener = (event: MessageEvent): void => {
      if (event.origin !== origin) return;
      if ((event.data as { probe?: string } | null)?.probe === 'callback-ran') {
        window.removeEventListener('message', listener);
        resolve();
      } else received.push(event.data);
    };
    window.addEventListener('message', listener);
  });
  const opener = document.createElement('button');
  opener.textContent = 'Open the callback';
  let pressed = false;
  opener.addEventListener('click', () => {
    pressed = true;
    popup = window.open(`${origin}/test/browser/fixtures/callback-probe.html${RESPONSE}`, '_blank', 'popup');
  });
  document.body.append(opener);
  try {
    await pressForReal(opener);
    // The key went to another window (an earlier test's popup still closing): press again, once.
    if (!pressed) await pressForReal(opener);
    if (!pressed) throw new Error('The key press never reached the button that opens the callback popup.');
    if (!popup) throw new Error('The browser did not open the callback popup (its popup blocker refused it).');
    await ran;
    return received;
  } finally {
    (popup as Window | null)?.close();
    opener.remove();
  }
}

describe('The popup callback’s message to its opener', () => {
  // This window waits for a popup sign-in (as oidc-client-ts keeps it), the only opener a callback hands a response to.
  const pending = `${STATE_STORAGE_PREFIX}relayed-state`;
  beforeEach(() => sessionStorage.setItem(pending, JSON.stringify({ request_type: POPUP_REQUEST_TYPE })));
  afterEach(() => sessionStorage.removeItem(pending));

  it('reaches an opener of its own origin, with the response', async () => {
    const received = await messagesFromCallback(location.origin);
    expect(received).to.have.length(1);
    const message = received[0] as { source: string; url: string };
    expect(message.source).to.equal(POPUP_MESSAGE_SOURCE);
    expect(message.url).to.contain('access_token=relayed-access-token');
  });

  it('never reaches an opener of another origin', async () => {
    const received = await messagesFromCallback(otherOrigin());
    expect(received, 'nothing but the probe arrived').to.deep.equal([]);
  });
});
