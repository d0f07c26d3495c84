/**
 * The oidc-client-ts internals the Connect client builds on. The library is pinned to ~3.5.0; if a
 * new version changes any of these, this suite fails loudly before a shopper notices.
 */
import { expect } from '@open-wc/testing';
import { SigninState, UserManager, Version } from 'oidc-client-ts';
import { ConnectUserManager } from '../../../src/connect/connect-user-manager.ts';
import { completeSignIn } from '../../../src/connect/client.ts';
import { SignInError } from '../../../src/connect/errors.ts';
import { captureSignInResponse, POPUP_MESSAGE_SOURCE, takeCapturedResponse } from '../../../src/connect/callback.ts';
import { POPUP_REQUEST_TYPE, REDIRECT_REQUEST_TYPE, STATE_STORAGE_PREFIX } from '../../../src/connect/options.ts';
import { hostileButton, hostileEnv, resetSession } from './helpers.ts';

type Protected = Record<string, (...args: unknown[]) => unknown>;

describe('oidc-client-ts internals we extend', () => {
  afterEach(() => resetSession());

  it('is the pinned minor version', async () => {
    const pkg = (await (await fetch('/package.json')).json()) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['oidc-client-ts']).to.equal('~3.5.0');
    expect(Version).to.match(/^3\.5\./);
  });

  it('still has the protected sign-in steps with the same shape', () => {
    const proto = UserManager.prototype as unknown as Protected;
    expect(proto._signinStart, '_signinStart').to.be.a('function');
    expect(proto._signinEnd, '_signinEnd').to.be.a('function');
    expect(proto._signinStart!.length, '_signinStart(args, handle)').to.equal(2);
    expect(proto._signinEnd!.length, '_signinEnd(url, verifySub)').to.equal(2);
    // signinPopup and signinRedirect go through _signin/_signinStart and the redirect callback through _signinEnd.
    const source = (name: string): string => String(proto[name]);
    expect(source('_signin')).to.match(/this\._signinStart\([\s\S]*this\._signinEnd\(/);
    expect(source('signinPopup')).to.contain('this._signin(');
    expect(source('signinRedirect')).to.contain('this._signinStart(');
    expect(source('signinRedirectCallback')).to.contain('this._signinEnd(');
    const ours = ConnectUserManager.prototype as unknown as Protected;
    expect(ours._signinStart).not.to.equal(proto._signinStart);
    expect(ours._signinEnd).not.to.equal(proto._signinEnd);
  });

  it('still speaks the popup message contract and request type that our callback code mirrors', async () => {
    // src/connect/callback.ts hands responses to the opener in the library's own message shape, and
    // tells redirect and popup requests apart by the library's request_type.
    const library = await (await fetch('/node_modules/oidc-client-ts/dist/esm/oidc-client-ts.js')).text();
    expect(library).to.contain(`messageSource = "${POPUP_MESSAGE_SOURCE}"`);
    expect(library).to.contain('oidc-client-popup-${');
    expect(library).to.match(/keepOpen/);
    expect(library).to.contain(`request_type: "${REDIRECT_REQUEST_TYPE}"`);
    expect(library).to.contain(`request_type: "${POPUP_REQUEST_TYPE}"`);
  });

  it('opens the popup synchronously inside signinPopup, before its first await', async () => {
    const env = await hostileEnv();
    const manager = new ConnectUserManager({
      authority: env.url,
      clientId: env.clientId,
      redirectUri: env.redirectUri,
      scope: 'openid',
    });
    const original = window.open;
    const opened: unknown[][] = [];
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
    try {
      const pending = manager.signinPopup({ popupWindowTarget: 'loyalty-signin-probe' });
      expect(opened.length, 'window.open called before signinPopup returned').to.equal(1);
      expect(opened[0]![1]).to.equal('loyalty-signin-probe');
      await pending.catch(() => undefined);
    } finally {
      window.open = original;
    }
  });

  /** A redirect sign-in started on this page for another app, as its pending state; returns the state and the response to it. */
  async function pendingForAnotherApp(id: string): Promise<{ key: string; stored: string; response: string }> {
    const env = await hostileEnv();
    const other = await SigninState.create({
      id,
      authority: env.url,
      client_id: 'another-app',
      redirect_uri: env.redirectUri,
      scope: 'openid',
      request_type: REDIRECT_REQUEST_TYPE,
      nonce: 'kept-secret',
    });
    const key = `${STATE_STORAGE_PREFIX}${id}`;
    sessionStorage.setItem(key, other.toStorageString());
    return {
      key,
      stored: other.toStorageString(),
      response: `${env.redirectUri}#id_token=x&access_token=y&token_type=Bearer&expires_in=3600&state=${id}`,
    };
  }

  it('leaves the pending request of another app untouched, so that app can still finish it', async () => {
    const env = await hostileEnv();
    const { key, stored, response } = await pendingForAnotherApp('pending-for-another-app');
    const error = await completeSignIn(
      { authority: env.url, clientId: env.clientId, redirectUri: env.redirectUri, scope: 'openid' },
      response,
    ).catch((e: unknown) => e);
    expect((error as SignInError).code).to.equal('state_mismatch');
    expect(sessionStorage.getItem(key), 'still pending for its own app').to.equal(stored);
  });

  it('hands a redirect response that came back to the page to the button of its app only', async () => {
    const { response } = await pendingForAnotherApp('redirect-of-another-app');
    const page = {
      location: { href: response, pathname: '/back', search: '' },
      history: { state: null, replaceState: () => undefined },
      opener: null,
    } as unknown as Window;
    expect(captureSignInResponse(page), 'a redirect response is kept for this page').to.equal(false);
    const ours = await hostileButton();
    await ours.updateComplete;
    expect(takeCapturedResponse(), 'the button of another app left it').to.equal(response);
  });

  it('routes a response through our _signinEnd: an unknown state is a state_mismatch', async () => {
    const env = await hostileEnv();
    const error = await completeSignIn(
      { authority: env.url, clientId: env.clientId, redirectUri: env.redirectUri, scope: 'openid' },
      `${env.redirectUri}#id_token=x&access_token=y&token_type=Bearer&expires_in=3600&state=never-issued`,
    ).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SignInError);
    expect((error as SignInError).code).to.equal('state_mismatch');
  });
});
