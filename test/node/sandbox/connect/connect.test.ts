import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { SEED_USERS, startConnect, type AppRegistration, type RunningConnect } from '../../../../src/sandbox/index.ts';
import { formFields, TestBrowser } from '../../support/browser.ts';
import { authUrl, consent, randomNonce, runImplicitFlow, temporaryDataDir } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';
const demo = SEED_USERS.find((user) => user.username === 'demo')!;

describe('Connect sandbox: the implicit flow', () => {
  let connect: RunningConnect;
  let app: AppRegistration;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  const params = (overrides: Record<string, string> = {}) => ({
    client_id: app.app_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'id_token token',
    scope: 'openid profile',
    nonce: randomNonce(),
    state: 'state-123',
    ...overrides,
  });

  before(async () => {
    data = await temporaryDataDir();
    connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    app = await connect.registerApp({ name: 'Harbor Coffee web shop', redirectUris: [REDIRECT_URI] });
  });
  after(async () => {
    await connect.close();
    await data.remove();
  });

  it('publishes discovery with CORS', async () => {
    const response = await fetch(`${connect.connectUrl}/.well-known/openid-configuration`, {
      headers: { origin: 'http://localhost:7000' },
    });
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const discovery = (await response.json()) as Record<string, unknown>;
    assert.equal(discovery.issuer, connect.connectUrl);
    assert.equal(discovery.authorization_endpoint, `${connect.connectUrl}/auth`);
    assert.equal(discovery.jwks_uri, `${connect.connectUrl}/jwks`);
    assert.equal(discovery.userinfo_endpoint, `${connect.connectUrl}/me`);
    assert.deepEqual(discovery.response_types_supported, ['id_token token', 'id_token']);
    assert.deepEqual(discovery.subject_types_supported, ['public']);
    assert.deepEqual(discovery.id_token_signing_alg_values_supported, ['RS256']);
    assert.deepEqual(discovery.scopes_supported, ['openid', 'profile']);
    assert.deepEqual(discovery.response_modes_supported, ['fragment']);
    assert.ok((discovery.claims_supported as string[]).includes('at_hash'));
    const jwks = await fetch(`${connect.connectUrl}/jwks`);
    assert.equal(jwks.headers.get('access-control-allow-origin'), '*');
    const { keys } = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
    assert.equal(keys.length, 1);
    assert.equal(keys[0]!.kty, 'RSA');
    assert.equal(keys[0]!.alg, 'RS256');
    assert.ok(keys[0]!.kid);
    assert.equal(keys[0]!.d, undefined, 'the private exponent must never be published');
  });

  it('signs in, asks consent, and returns tokens that verify against /jwks', async () => {
    const browser = new TestBrowser();
    const request = params();
    const { location, fragment } = await runImplicitFlow(browser, connect.connectUrl, request);
    assert.ok(location.startsWith(`${REDIRECT_URI}#`));
    assert.deepEqual([...fragment.keys()].sort(), ['access_token', 'expires_in', 'id_token', 'state', 'token_type']);
    assert.equal(fragment.get('token_type'), 'Bearer');
    assert.equal(fragment.get('expires_in'), '3600');
    assert.equal(fragment.get('state'), 'state-123');
    const accessToken = fragment.get('access_token')!;
    assert.ok(Buffer.from(accessToken, 'base64url').length >= 32);

    const idToken = fragment.get('id_token')!;
    const jwks = createRemoteJWKSet(new URL(`${connect.connectUrl}/jwks`));
    const { payload, protectedHeader } = await jwtVerify(idToken, jwks, {
      issuer: connect.connectUrl,
      audience: app.app_id,
      algorithms: ['RS256'],
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.ok(protectedHeader.kid);
    assert.equal(payload.nonce, request.nonce);
    assert.equal(payload.sub, demo.sub);
    assert.notEqual(payload.sub, 'demo');
    assert.equal(payload.exp! - payload.iat!, 3600);
    assert.ok(Math.abs((payload.auth_time as number) - Date.now() / 1000) < 60);
    const digest = createHash('sha256').update(accessToken, 'ascii').digest();
    assert.equal(payload.at_hash, digest.subarray(0, 16).toString('base64url'));
  });

  it('accepts response_type in either order, and id_token alone without an access token or at_hash', async () => {
    const browser = new TestBrowser();
    const reversed = await runImplicitFlow(browser, connect.connectUrl, params({ response_type: 'token id_token' }));
    assert.ok(reversed.fragment.get('access_token'));
    const idOnly = await runImplicitFlow(new TestBrowser(), connect.connectUrl, params({ response_type: 'id_token' }));
    assert.equal(idOnly.fragment.get('access_token'), null);
    assert.equal(idOnly.fragment.get('token_type'), null);
    const { payload } = await jwtVerify(
      idOnly.fragment.get('id_token')!,
      createRemoteJWKSet(new URL(`${connect.connectUrl}/jwks`)),
      { issuer: connect.connectUrl, audience: app.app_id },
    );
    assert.equal(payload.at_hash, undefined);
  });

  it('serves the sign-in page as accessible, hardened HTML with a session cookie', async () => {
    const browser = new TestBrowser();
    const response = await browser.get(authUrl(connect.connectUrl, params()));
    const html = await response.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<label for="username">Username<\/label>\s*<input type="text" id="username" name="username"/);
    assert.match(
      html,
      /<label for="password">Password<\/label>\s*<input type="password" id="password" name="password"/,
    );
    assert.match(html, /Harbor Coffee web shop/);
    assert.doesNotMatch(html, /<script|style=/);
    const csp = response.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /form-action 'self' http:\/\/localhost:7000/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const cookie = response.headers.getSetCookie()[0]!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    const css = await fetch(`${connect.connectUrl}/assets/sandbox.css`);
    assert.match(css.headers.get('content-type')!, /^text\/css/);
  });

  it('shows the form again with 401, an error and the username kept when the password is wrong', async () => {
    const browser = new TestBrowser();
    const page = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    const response = await browser.post(`${connect.connectUrl}/signin`, {
      ...formFields(page, '/signin'),
      username: 'demo',
      password: 'wrong',
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('location'), null);
    const html = await response.text();
    assert.match(html, /role="alert">The username or password is not right\./);
    assert.match(html, /name="username"[^>]*value="demo"/);
    // The same form, with its fresh fields, then works.
    const retry = await browser.post(`${connect.connectUrl}/signin`, {
      ...formFields(html, '/signin'),
      username: 'demo',
      password: 'demo',
    });
    assert.equal(retry.status, 303);
  });

  it('names what the app receives: username and loyalty ID only with profile', async () => {
    const browser = new TestBrowser();
    await runImplicitFlow(browser, connect.connectUrl, params());
    const withProfile = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    assert.match(withProfile, /Allow Harbor Coffee web shop to know who you are\?/);
    assert.match(withProfile, /you then go back to <code>http:\/\/localhost:7000<\/code>/);
    assert.match(withProfile, new RegExp(`your username: <code>demo</code>`));
    assert.match(withProfile, new RegExp(`your loyalty ID \\(wallet address\\): <code>${demo.loyaltyId}</code>`));
    const withoutProfile = await (await browser.get(authUrl(connect.connectUrl, params({ scope: 'openid' })))).text();
    assert.match(withoutProfile, /only confirmation that you signed in/);
    assert.doesNotMatch(withoutProfile, new RegExp(demo.loyaltyId));
  });

  it('returns access_denied with the state when the user cancels', async () => {
    const { fragment } = await runImplicitFlow(new TestBrowser(), connect.connectUrl, params(), { decision: 'cancel' });
    assert.equal(fragment.get('error'), 'access_denied');
    assert.ok(fragment.get('error_description'));
    assert.equal(fragment.get('state'), 'state-123');
    assert.equal(fragment.get('access_token'), null);
    assert.equal(fragment.get('id_token'), null);
  });

  it('lets a returning user skip the password, but still asks consent', async () => {
    const browser = new TestBrowser();
    const first = await runImplicitFlow(browser, connect.connectUrl, params(), {
      username: 'amelia.chen',
      password: 'amelia',
    });
    const page = await browser.get(authUrl(connect.connectUrl, params()));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.doesNotMatch(html, /action="\/signin"/);
    assert.match(html, /Signed in as <strong>amelia\.chen<\/strong>/);
    const second = await consent(browser, connect.connectUrl, html, 'allow');
    const jwks = createRemoteJWKSet(new URL(`${connect.connectUrl}/jwks`));
    const a = (await jwtVerify(first.fragment.get('id_token')!, jwks)).payload;
    const b = (await jwtVerify(second.fragment.get('id_token')!, jwks)).payload;
    assert.equal(b.sub, a.sub);
    assert.equal(b.auth_time, a.auth_time);
  });

  it('answers each request once', async () => {
    const browser = new TestBrowser();
    await runImplicitFlow(browser, connect.connectUrl, params());
    const html = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    await consent(browser, connect.connectUrl, html, 'allow');
    const replay = await browser.post(`${connect.connectUrl}/consent`, {
      ...formFields(html, '/consent'),
      decision: 'allow',
    });
    assert.equal(replay.status, 400);
    assert.equal(replay.headers.get('location'), null);
  });

  it('refuses form posts without the session-bound CSRF token with 403', async () => {
    const browser = new TestBrowser();
    const html = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    const fields = formFields(html, '/signin');
    const credentials = { username: 'demo', password: 'demo' };
    const missing = await browser.post(`${connect.connectUrl}/signin`, { request: fields.request!, ...credentials });
    assert.equal(missing.status, 403);
    const wrong = await browser.post(`${connect.connectUrl}/signin`, {
      ...fields,
      csrf: `${fields.csrf}x`,
      ...credentials,
    });
    assert.equal(wrong.status, 403);
    // A page's token is worth nothing to another browser (another session cookie), or to none.
    const other = new TestBrowser();
    await other.get(authUrl(connect.connectUrl, params()));
    assert.equal((await other.post(`${connect.connectUrl}/signin`, { ...fields, ...credentials })).status, 403);
    assert.equal(
      (await new TestBrowser().post(`${connect.connectUrl}/signin`, { ...fields, ...credentials })).status,
      403,
    );
    // Consent is protected the same way.
    await runImplicitFlow(browser, connect.connectUrl, params());
    const consentHtml = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    const consentFields = formFields(consentHtml, '/consent');
    const forged = await browser.post(`${connect.connectUrl}/consent`, {
      request: consentFields.request!,
      decision: 'allow',
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.headers.get('location'), null);
  });

  it('signs out, after which the password is asked again', async () => {
    const browser = new TestBrowser();
    await runImplicitFlow(browser, connect.connectUrl, params());
    const home = await (await browser.get(`${connect.connectUrl}/`)).text();
    assert.match(home, /Signed in as <strong>demo<\/strong>/);
    const out = await browser.post(`${connect.connectUrl}/logout`, formFields(home, '/logout'));
    assert.equal(out.status, 303);
    const again = await (await browser.get(authUrl(connect.connectUrl, params()))).text();
    assert.match(again, /action="\/signin"/);
  });

  it('switches account from the consent page back to the sign-in form for the same request', async () => {
    const browser = new TestBrowser();
    await runImplicitFlow(browser, connect.connectUrl, params());
    const request = params();
    const html = await (await browser.get(authUrl(connect.connectUrl, request))).text();
    const out = await browser.post(`${connect.connectUrl}/logout`, formFields(html, '/logout'));
    const signIn = await (await browser.follow(out, connect.connectUrl)).text();
    const signedIn = await browser.post(`${connect.connectUrl}/signin`, {
      ...formFields(signIn, '/signin'),
      username: 'jonas.weber',
      password: 'jonas',
    });
    const consentHtml = await (await browser.follow(signedIn, connect.connectUrl)).text();
    assert.match(consentHtml, /jonas\.weber/);
    const { fragment } = await consent(browser, connect.connectUrl, consentHtml, 'allow');
    const { payload } = await jwtVerify(
      fragment.get('id_token')!,
      createRemoteJWKSet(new URL(`${connect.connectUrl}/jwks`)),
    );
    assert.equal(payload.nonce, request.nonce);
    assert.equal(payload.sub, SEED_USERS.find((user) => user.username === 'jonas.weber')!.sub);
  });

  it('escapes hostile app names in its pages', async () => {
    const hostile = await connect.registerApp({ name: '<script>alert(1)</script>"\'&', redirectUris: [REDIRECT_URI] });
    const html = await (
      await new TestBrowser().get(authUrl(connect.connectUrl, params({ client_id: hostile.app_id })))
    ).text();
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&quot;&#39;&amp;/);
  });

  it('signs with the key named in the header', async () => {
    const { fragment } = await runImplicitFlow(new TestBrowser(), connect.connectUrl, params());
    const { keys } = (await (await fetch(`${connect.connectUrl}/jwks`)).json()) as { keys: Array<{ kid: string }> };
    assert.equal(decodeProtectedHeader(fragment.get('id_token')!).kid, keys[0]!.kid);
  });
});
