/**
 * The relying-party checks against a provider that answers with deliberately broken responses.
 * Each sign-in runs the real path: the element opens a real popup, the popup goes to the provider's
 * /auth and comes back to the callback page, which hands the fragment to the real UserManager
 * subclass in this page. Every broken answer must end in an error, with no user and no /me call.
 */
import { expect } from '@open-wc/testing';
import { signinButtonMessages } from '../../../src/elements/loyalty-signin-button/loyalty-signin-button.messages.ts';
import { EXPECTED_REFUSALS } from '../../support/hostile-scenarios.ts';
import {
  hostileButton,
  hostileEnv,
  hostileStats,
  nextEvent,
  pressSignIn,
  resetSession,
  setScenario,
  signInOnce,
} from './helpers.ts';

describe('sign-in against a hostile provider', () => {
  afterEach(() => resetSession());

  it('accepts a valid response, and sends a request with exactly the parameters the spec asks for', async () => {
    await setScenario('valid');
    const button = await hostileButton();
    const event = await signInOnce(button);
    expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
    expect(button.user?.sub).to.equal('hostile-user-1');
    expect(button.user?.username).to.equal('hostile-demo');
    expect(button.user?.loyaltyId).to.equal('0xh0571le');
    expect(event.detail.profile).to.equal(true);
    const stats = await hostileStats();
    expect(stats.meCalls).to.equal(1);
    const [request] = stats.authRequests;
    expect(Object.keys(request!).sort()).to.deep.equal([
      'client_id',
      'nonce',
      'redirect_uri',
      'response_type',
      'scope',
      'state',
    ]);
    expect(request!.response_type).to.equal('id_token token');
    expect(request!.scope).to.equal('openid profile');
    expect(request!.redirect_uri).to.equal((await hostileEnv()).redirectUri);
    // The nonce sent is a SHA-256 (43 base64url characters) of a value kept locally, never the value itself.
    expect(request!.nonce).to.match(/^[\w-]{43}$/);
    expect(request!.state).to.match(/^[\w-]{43}$/);
    expect(JSON.stringify(sessionStorage)).not.to.contain(request!.nonce);
  });

  it('accepts a token without kid when the provider publishes a single key', async () => {
    await setScenario('valid-no-kid');
    const event = await signInOnce(await hostileButton());
    expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
  });

  it('accepts a token that expired less than the documented clock skew (60 s) ago', async () => {
    await setScenario('expired-within-skew');
    const event = await signInOnce(await hostileButton());
    expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
  });

  for (const { scenario, code, askedProfile } of EXPECTED_REFUSALS) {
    it(`refuses ${scenario} with ${code}, keeps no user${askedProfile ? '' : ' and never asks for the profile'}`, async () => {
      await setScenario(scenario);
      const button = await hostileButton();
      const event = await signInOnce(button);
      expect(event.type).to.equal('loyalty-signin-error');
      expect(event.detail.code, event.detail.message).to.equal(code);
      expect(button.user).to.equal(null);
      expect(sessionStorage.getItem('loyalty-widgets:user')).to.equal(null);
      expect((await hostileStats()).meCalls).to.equal(askedProfile ? 1 : 0);
      await button.updateComplete;
      const alert = button.shadowRoot!.querySelector('[role="alert"]')!;
      expect(alert.textContent).to.equal(signinButtonMessages[`signin.error.${code}`]);
    });
  }

  it('fetches the keys again once for an unknown kid (key rotation) and then accepts', async () => {
    await setScenario('valid');
    const button = await hostileButton();
    expect((await signInOnce(button)).type).to.equal('loyalty-signin');
    button.signOut();
    const fetchesBefore = (await hostileStats()).jwksFetches;
    await setScenario('rotate-keys', false);
    const event = await signInOnce(button);
    expect(event.type, JSON.stringify(event.detail)).to.equal('loyalty-signin');
    expect((await hostileStats()).jwksFetches).to.equal(fetchesBefore + 1);
  });

  it('fetches the keys only once more for a kid that stays unknown', async () => {
    await setScenario('valid');
    const button = await hostileButton();
    expect((await signInOnce(button)).type).to.equal('loyalty-signin');
    button.signOut();
    const fetchesBefore = (await hostileStats()).jwksFetches;
    await setScenario('unknown-kid', false);
    const event = await signInOnce(button);
    expect(event.detail.code).to.equal('invalid_token');
    expect((await hostileStats()).jwksFetches).to.equal(fetchesBefore + 1);
  });

  it('refuses a replayed response: a state is used once', async () => {
    await setScenario('valid');
    const button = await hostileButton();
    expect((await signInOnce(button)).type).to.equal('loyalty-signin');
    button.signOut();
    await setScenario('replay-previous', false);
    const event = await signInOnce(button);
    expect(event.detail.code).to.equal('state_mismatch');
    expect(button.user).to.equal(null);
  });

  it('ignores a validly signed response posted by a page of another origin', async () => {
    await setScenario('hold');
    const button = await hostileButton();
    const outcome = nextEvent<{ code: string }>(button, ['loyalty-signin', 'loyalty-signin-error']);
    await pressSignIn(button);
    // Wait until the popup reached the provider, then let a page of the provider's origin post a
    // response built for the pending request, as an attacker that knows the state would.
    const env = await hostileEnv();
    while ((await hostileStats()).authRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const forgedMessage = new Promise<MessageEvent>((resolve) => {
      const seen = (event: MessageEvent): void => {
        if (event.origin !== env.url) return;
        window.removeEventListener('message', seen);
        resolve(event);
      };
      window.addEventListener('message', seen);
    });
    const frame = document.createElement('iframe');
    const framed = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = `${env.url}/__hostile/forge`;
    document.body.append(frame);
    await framed;
    // The forged message did arrive, with a response built for the pending request.
    const forged = (await forgedMessage).data as { source: string; url: string };
    expect(forged.source).to.equal('oidc-client');
    expect(forged.url).to.contain('id_token=');
    // The held popup closes itself: the only outcome must be popup_closed.
    const event = await outcome;
    frame.remove();
    expect(event.type).to.equal('loyalty-signin-error');
    expect(event.detail.code).to.equal('popup_closed');
    expect(button.user).to.equal(null);
  });

  it('signs in without a profile when the profile scope is not granted, and says so', async () => {
    await setScenario('no-profile-scope');
    const button = await hostileButton({ scope: 'openid' });
    const event = await signInOnce(button);
    expect(event.type).to.equal('loyalty-signin');
    expect(event.detail.profile).to.equal(false);
    expect(button.user?.username).to.equal(undefined);
    expect((await hostileStats()).meCalls).to.equal(0);
    await button.updateComplete;
    expect(button.shadowRoot!.querySelector('[part="user"]')!.textContent).to.equal('Signed in');
  });
});
