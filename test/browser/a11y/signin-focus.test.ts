/**
 * WCAG 2.4.3 (focus order) for the sign-in button: when the sign-in popup is in front as it reports
 * back (a desktop window manager raises it), the page has no system focus and `:focus-within` does
 * not match; keyboard users must still land on "Sign out", not on the page's body.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/loyalty-signin-button/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import { session } from '../../../src/connect/session.ts';
import { onlyIn } from '../engine.ts';
import { part } from '../parts.ts';
import { shopper } from './themes.ts';

describe('focus after a popup sign-in', () => {
  afterEach(() => session.set(null, 'signout'));

  // WebKitGTK's WebDriver stops answering when a key press opens a popup (see test-browsers.ts).
  onlyIn('chromium', 'firefox')('moves to "Sign out" even while the popup has the system focus', async () => {
    const el = await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="https://connect.example" client-id="demo-app"></loyalty-signin-button>`,
    );
    // The shopper presses "Sign in" from the keyboard; a window opens in front of the page (a
    // stand-in for the provider's popup, which would need a provider here).
    let popup: Window | null = null;
    const openInFront = (event: Event): void => {
      event.stopPropagation();
      popup = window.open('about:blank', 'in-front', 'popup,width=320,height=320');
    };
    el.addEventListener('click', openInFront, { capture: true, once: true });
    part(el, 'button')!.focus();
    await sendKeys({ press: 'Enter' });
    if (!popup) throw new Error('the window did not open');
    const inFront = popup as Window;
    // Closing a window the automation is still loading can stall Firefox's WebDriver BiDi.
    await waitUntil(() => inFront.document.readyState === 'complete', 'the window did not load');
    try {
      // The popup reports back while it is still in front.
      session.set(shopper, 'signin');
      await el.updateComplete;
    } finally {
      inFront.close();
    }
    // Compared by part name: a DOM node in a failure message can stall Firefox's report.
    expect(el.shadowRoot!.activeElement?.getAttribute('part') ?? 'nothing', 'what has focus').to.equal('signout');
  });
});
