/** A keyboard and screen-reader user: focus is never dropped on the page's body, and always visible. */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/elements/business-directory/index.ts';
import '../../../src/elements/coupon-claim/index.ts';
import '../../../src/elements/loyalty-signin-button/index.ts';
import { clearStoredClaims, recordFetches } from '../marketing/helpers.ts';
import { part } from '../parts.ts';

describe('focus', () => {
  beforeEach(() => clearStoredClaims());

  it('after Retry from the keyboard, focus stays in the element while it loads and after', async () => {
    const fetches = recordFetches();
    try {
      fetches.loseResponses(1);
      const el = await fixture(html`<business-directory></business-directory>`);
      await waitUntil(() => part(el, 'retry-button'), 'fails first', { timeout: 8000 });
      part(el, 'retry-button')!.focus();
      await sendKeys({ press: 'Enter' });
      expect(document.activeElement, 'while loading').to.equal(el);
      await waitUntil(() => part(el, 'card'), 'loads', { timeout: 8000 });
      expect(document.activeElement, 'once loaded').to.equal(el);
      expect(el.shadowRoot!.activeElement).to.equal(part(el, 'base'));
      await expect(el).to.be.accessible();
    } finally {
      fetches.restore();
    }
  });

  it('draws a focus indicator that survives forced-colors mode (an outline, not only a box-shadow)', async () => {
    const claim = await fixture(html`<coupon-claim campaign-id="camp-harbor-morning-latte"></coupon-claim>`);
    await waitUntil(() => part(claim, 'claim-button'), 'loads', { timeout: 8000 });
    const signin = await fixture(
      html`<loyalty-signin-button authority="https://connect.example" client-id="a"></loyalty-signin-button>`,
    );
    for (const button of [part(claim, 'claim-button')!, part(signin, 'button')!]) {
      button.focus();
      await sendKeys({ press: 'Shift' });
      expect(button.matches(':focus-visible')).to.equal(true);
      expect(getComputedStyle(button).outlineStyle, button.getAttribute('part')!).not.to.equal('none');
    }
  });
});
