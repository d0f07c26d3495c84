/**
 * A merchant's developer misconfigures <loyalty-signin-button>: the button says so before any
 * shopper clicks, warns once in the console, and recovers when the attribute is corrected.
 * (This file's first button chooses the page's storage, so the storage test comes first.)
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/elements/loyalty-signin-button/index.ts';
import type { LoyaltySigninButton } from '../../../src/elements/loyalty-signin-button/index.ts';
import { session, USER_STORAGE_KEY } from '../../../src/connect/session.ts';
import { captureWarnings } from './helpers.ts';
import { part } from '../parts.ts';

describe('set-up mistakes (<loyalty-signin-button>)', () => {
  let warnings: ReturnType<typeof captureWarnings>;
  beforeEach(() => (warnings = captureWarnings()));
  afterEach(() => {
    warnings.restore();
    session.set(null, 'signout');
  });

  it('an unknown storage keeps the default sessionStorage (not memory) and warns', async () => {
    await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="https://connect.example" client-id="a" storage="cookie"></loyalty-signin-button>`,
    );
    expect(warnings.about('storage="cookie"')).to.have.length(1);
    session.set(
      {
        sub: 's',
        username: 'u',
        loyaltyId: 'l',
        accessToken: 't',
        idToken: 'i',
        expiresAt: Date.now() + 60_000,
        scope: 'openid profile',
      },
      'signin',
    );
    expect(sessionStorage.getItem(USER_STORAGE_KEY)).to.contain('"sub":"s"');
  });

  it('a bad authority is shown before any click, disables the button, warns once, and clears when corrected', async () => {
    const el = await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="not a url" client-id="a" lang="en"></loyalty-signin-button>`,
    );
    const button = part(el, 'button')!;
    const message = part(el, 'message')!;
    expect(message.hidden).to.equal(false);
    expect(message.textContent).to.equal('Sign-in is not set up correctly on this site.');
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(button.getAttribute('aria-describedby')).to.equal(message.id);
    await expect(el).to.be.accessible();
    el.requestUpdate();
    await el.updateComplete;
    expect(warnings.about('authority="not a url"')).to.have.length(1);

    el.setAttribute('authority', 'https://connect.example');
    await el.updateComplete;
    expect(part(el, 'button')!.hasAttribute('aria-disabled')).to.equal(false);
    expect(el.shadowRoot!.querySelector('[part~="message"]:not([hidden])')).to.equal(null);
  });

  it('a click on a misconfigured button still reports config, and correcting the attribute clears that error', async () => {
    const el = await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="https://connect.example"></loyalty-signin-button>`,
    );
    expect(warnings.about('client-id')).to.have.length(1);
    const failed = new Promise<CustomEvent<{ code: string }>>((resolve) =>
      el.addEventListener('loyalty-signin-error', (e) => resolve(e as CustomEvent<{ code: string }>), { once: true }),
    );
    part(el, 'button')!.click();
    expect((await failed).detail.code).to.equal('config');
    await el.updateComplete;
    expect(part(el, 'message')!.getAttribute('role')).to.equal('alert');
    el.clientId = 'app-1';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="message"]:not([hidden])'), 'the config error is gone').to.equal(null);
  });

  it('a relative or foreign redirect-uri and an unknown mode are told to the developer', async () => {
    const foreign = await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="https://connect.example" client-id="a" redirect-uri="https://evil.example/cb"></loyalty-signin-button>`,
    );
    expect(part(foreign, 'message')!.hidden).to.equal(false);
    expect(warnings.about('redirect-uri')).to.have.length(1);
    const relative = await fixture<LoyaltySigninButton>(
      html`<loyalty-signin-button authority="https://connect.example" client-id="a" redirect-uri="/callback"></loyalty-signin-button>`,
    );
    expect(
      relative.shadowRoot!.querySelector('[part~="message"]:not([hidden])'),
      'a path on this site is fine',
    ).to.equal(null);
    await fixture(
      html`<loyalty-signin-button authority="https://connect.example" client-id="a" mode="banana"></loyalty-signin-button>`,
    );
    expect(warnings.about('mode="banana"')).to.have.length(1);
  });
});
