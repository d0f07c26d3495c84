import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startConnect, type AppRegistration, type RunningConnect } from '../../../../src/sandbox/index.ts';
import { fragmentOf, TestBrowser } from '../../support/browser.ts';
import { authParams, authUrl, randomNonce, runImplicitFlow, temporaryDataDir } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';

describe('Connect sandbox: GET /auth parameter checks', () => {
  let connect: RunningConnect;
  let app: AppRegistration;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  const params = (overrides: Record<string, string | undefined> = {}) => authParams(app, overrides);

  /** An error shown on the provider: 400, HTML, and never a redirect. */
  async function expectErrorPage(url: string, text: RegExp): Promise<string> {
    const response = await new TestBrowser().get(url);
    assert.equal(response.status, 400, url);
    assert.equal(response.headers.get('location'), null, url);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    const html = await response.text();
    assert.match(html, text, url);
    assert.doesNotMatch(html, /action="\/signin"/);
    return html;
  }

  /** An error sent back to the proven redirect URI in the fragment, with the state. */
  async function expectFragmentError(
    query: Record<string, string>,
    error: string,
    description: RegExp = /./,
  ): Promise<void> {
    const response = await new TestBrowser().get(authUrl(connect.connectUrl, query));
    assert.equal(response.status, 302, JSON.stringify(query));
    const location = new URL(response.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
    const fragment = new URLSearchParams(location.hash.slice(1));
    assert.equal(fragment.get('error'), error, JSON.stringify(query));
    assert.match(fragment.get('error_description') ?? '', description);
    assert.equal(fragment.get('state'), query.state ?? null);
    assert.equal(fragment.get('access_token'), null);
  }

  before(async () => {
    data = await temporaryDataDir();
    connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    app = await connect.registerApp({
      name: 'Strict checks',
      redirectUris: [REDIRECT_URI, 'https://shop.example/return?from=loyalty'],
    });
  });
  after(async () => {
    await connect.close();
    await data.remove();
  });

  it('shows a page for a missing or unknown client_id', async () => {
    await expectErrorPage(authUrl(connect.connectUrl, params({ client_id: undefined })), /no client_id/);
    await expectErrorPage(
      authUrl(connect.connectUrl, params({ client_id: 'app_unknown' })),
      /No app is registered with the client_id “app_unknown”/,
    );
    await expectErrorPage(
      `${authUrl(connect.connectUrl, params())}&client_id=${app.app_id}`,
      /more than one client_id/,
    );
  });

  it('shows a page, never a redirect, for a redirect_uri that is not registered exactly', async () => {
    const nearMisses = [
      'http://localhost:7000/callback/',
      'http://localhost:7001/callback',
      'http://LOCALHOST:7000/callback',
      'http://localhost:7000/Callback',
      'https://localhost:7000/callback',
      'http://localhost:7000/callback?x=1',
      'http://localhost:7000/callback#frag',
      'http://localhost:7000/callback/../callback',
      'https://shop.example/return',
      'https://evil.example/callback',
      'javascript:alert(1)',
    ];
    for (const redirectUri of nearMisses)
      await expectErrorPage(authUrl(connect.connectUrl, params({ redirect_uri: redirectUri })), /is not registered/);
    await expectErrorPage(authUrl(connect.connectUrl, params({ redirect_uri: undefined })), /no redirect_uri/);
    // Even when everything else is wrong too, an unproven redirect URI gets the page.
    await expectErrorPage(
      authUrl(connect.connectUrl, { client_id: app.app_id, redirect_uri: 'https://evil.example/' }),
      /is not registered/,
    );
  });

  it('escapes a hostile redirect_uri on the error page', async () => {
    const html = await expectErrorPage(
      authUrl(connect.connectUrl, params({ redirect_uri: 'https://x.example/"><img src=x onerror=alert(1)>' })),
      /is not registered/,
    );
    assert.doesNotMatch(html, /<img/);
  });

  it('accepts a registered redirect_uri with a query string, exactly', async () => {
    const response = await new TestBrowser().get(
      authUrl(connect.connectUrl, params({ redirect_uri: 'https://shop.example/return?from=loyalty' })),
    );
    assert.equal(response.status, 200);
  });

  it('sends unsupported_response_type to the redirect URI for any other response_type', async () => {
    for (const responseType of [
      'code',
      'token',
      'id_token code',
      'id_token token code',
      'id_token id_token',
      'ID_TOKEN',
    ]) {
      await expectFragmentError(params({ response_type: responseType }), 'unsupported_response_type');
    }
    await expectFragmentError(params({ response_type: undefined }), 'invalid_request', /response_type/);
  });

  it('sends invalid_scope without openid', async () => {
    await expectFragmentError(params({ scope: 'profile' }), 'invalid_scope', /openid/);
    await expectFragmentError(params({ scope: undefined }), 'invalid_scope', /openid/);
  });

  it('ignores scopes it does not know, and then names the scopes granted in the response', async () => {
    const { fragment } = await runImplicitFlow(
      new TestBrowser(),
      connect.connectUrl,
      params({ scope: 'openid email profile phone' }),
    );
    assert.equal(fragment.get('error'), null);
    assert.equal(fragment.get('scope'), 'openid profile');
    const me = await fetch(
      `${connect.connectUrl}/me?access_token=${encodeURIComponent(fragment.get('access_token')!)}`,
    );
    assert.deepEqual(Object.keys((await me.json()) as object).sort(), ['loyaltyId', 'sub', 'username']);
    const exact = await runImplicitFlow(new TestBrowser(), connect.connectUrl, params({ scope: 'openid profile' }));
    assert.equal(exact.fragment.get('scope'), null, 'no scope parameter when granted as requested');
  });

  it('sends invalid_request for a missing, short or repeated nonce', async () => {
    await expectFragmentError(params({ nonce: undefined }), 'invalid_request', /nonce/);
    await expectFragmentError(params({ nonce: 'short' }), 'invalid_request', /nonce/);
    const query = params();
    const response = await new TestBrowser().get(`${authUrl(connect.connectUrl, query)}&nonce=again-${randomNonce()}`);
    assert.equal(
      new URLSearchParams(new URL(response.headers.get('location')!).hash.slice(1)).get('error'),
      'invalid_request',
    );
  });

  it('refuses a response_mode other than fragment', async () => {
    await expectFragmentError(params({ response_mode: 'query' }), 'invalid_request', /response_mode/);
    await expectFragmentError(params({ response_mode: 'form_post' }), 'invalid_request', /response_mode/);
    assert.equal(
      (await new TestBrowser().get(authUrl(connect.connectUrl, params({ response_mode: 'fragment' })))).status,
      200,
    );
  });

  it('accepts the optional OpenID parameters and ignores unknown ones', async () => {
    const accepted = {
      display: 'popup',
      ui_locales: 'fr-CA en',
      claims_locales: 'de',
      acr_values: '1 2',
      login_hint: 'demo',
      claims: '{"userinfo":{"email":{"essential":true}}}',
      max_age: '3600',
      prompt: 'consent',
      code_challenge: 'x',
      vendor_extension: '1',
    };
    for (const [name, value] of Object.entries(accepted)) {
      const response = await new TestBrowser().get(authUrl(connect.connectUrl, params({ [name]: value })));
      assert.equal(response.status, 200, name);
      assert.match(await response.text(), /action="\/signin"/, name);
    }
  });

  it('refuses malformed optional parameters with invalid_request', async () => {
    await expectFragmentError(params({ prompt: 'none login' }), 'invalid_request', /prompt=none/);
    await expectFragmentError(params({ prompt: 'consent none' }), 'invalid_request', /prompt=none/);
    await expectFragmentError(params({ prompt: 'sometimes' }), 'invalid_request', /prompt/);
    await expectFragmentError(params({ max_age: '-1' }), 'invalid_request', /max_age/);
    await expectFragmentError(params({ max_age: 'soon' }), 'invalid_request', /max_age/);
    await expectFragmentError(params({ display: 'hologram' }), 'invalid_request', /display/);
    await expectFragmentError(params({ id_token_hint: 'not-a-jwt' }), 'invalid_request', /id_token_hint/);
  });

  it('says request objects, request_uri and registration are not supported', async () => {
    await expectFragmentError(params({ request: 'eyJhbGciOiJub25lIn0.e30.' }), 'request_not_supported');
    await expectFragmentError(params({ request_uri: 'https://shop.example/request.jwt' }), 'request_uri_not_supported');
    await expectFragmentError(params({ registration: '{"client_name":"x"}' }), 'registration_not_supported');
  });

  it('refuses any repeated parameter: on a page for client_id and redirect_uri, in the fragment for the rest', async () => {
    await expectErrorPage(
      `${authUrl(connect.connectUrl, params())}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
      /more than one redirect_uri/,
    );
    // Each value is fine once, so only the repetition can be refused.
    const valid = {
      response_type: 'id_token',
      scope: 'openid',
      prompt: 'consent',
      max_age: '100',
      login_hint: 'demo',
      display: 'page',
      response_mode: 'fragment',
      ui_locales: 'en',
    };
    for (const [name, value] of Object.entries(valid)) {
      const url = `${authUrl(connect.connectUrl, params({ [name]: value }))}&${name}=${encodeURIComponent(value)}`;
      const fragment = fragmentOf(await new TestBrowser().get(url));
      assert.equal(fragment.get('error'), 'invalid_request', name);
      assert.match(fragment.get('error_description')!, new RegExp(`more than one ${name}`), name);
      assert.equal(fragment.get('state'), 'xyz');
    }
  });

  it('keeps error_description to the characters RFC 6749 allows, even when echoing the request', async () => {
    const hostile = [
      params({ scope: '"quoted"\\ ünïcode' }),
      params({ response_type: 'code "x"' }),
      params({ response_type: undefined }),
      params({ scope: 'profile' }),
      params({ prompt: 'none' }),
    ];
    for (const query of hostile) {
      const description = fragmentOf(await new TestBrowser().get(authUrl(connect.connectUrl, query))).get(
        'error_description',
      )!;
      assert.match(description, /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/, description);
    }
  });

  it('takes the same request by POST, as a form', async () => {
    const browser = new TestBrowser();
    const page = await browser.post(`${connect.connectUrl}/auth`, params());
    assert.equal(page.status, 200);
    assert.match(await page.text(), /action="\/signin"/);
    const refused = await browser.post(`${connect.connectUrl}/auth`, params({ scope: 'profile' }));
    assert.equal(fragmentOf(refused).get('error'), 'invalid_scope');
    const notForm = await fetch(`${connect.connectUrl}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params()),
    });
    assert.equal(notForm.status, 400);
    assert.equal(notForm.headers.get('location'), null);
  });

  it('omits state from the error when the request had none', async () => {
    await expectFragmentError(params({ state: undefined, scope: 'profile' }), 'invalid_scope');
  });
});
