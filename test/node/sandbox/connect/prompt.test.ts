import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { SEED_USERS } from '../../../../src/sandbox/index.ts';
import { formFields, fragmentOf, TestBrowser } from '../../support/browser.ts';
import { authParams, authUrl, consent, runImplicitFlow, signIn, useConnect } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';
const jonas = SEED_USERS.find((user) => user.username === 'jonas.weber')!;

describe('Connect sandbox: prompt, max_age, login_hint and id_token_hint', () => {
  const sandbox = useConnect([REDIRECT_URI]);
  const params = (overrides: Record<string, string | undefined> = {}) => authParams(sandbox.app, overrides);
  const verify = async (idToken: string): Promise<JWTPayload> =>
    (
      await jwtVerify(idToken, createRemoteJWKSet(new URL(`${sandbox.url}/jwks`)), {
        issuer: sandbox.url,
        audience: sandbox.app.app_id,
      })
    ).payload;
  /** A browser that signed in (and allowed `scope`) once; its first ID token's claims. */
  const signedInBrowser = async (scope = 'openid profile') => {
    const browser = new TestBrowser();
    const { fragment } = await runImplicitFlow(browser, sandbox.url, params({ scope }));
    return { browser, first: await verify(fragment.get('id_token')!), idToken: fragment.get('id_token')! };
  };
  const page = async (browser: TestBrowser, overrides: Record<string, string | undefined>) => {
    const response = await browser.get(authUrl(sandbox.url, params(overrides)));
    assert.equal(response.status, 200);
    return response.text();
  };

  it('prompt=none without a session: login_required in the fragment, no page and no cookie', async () => {
    const browser = new TestBrowser();
    const response = await browser.get(authUrl(sandbox.url, params({ prompt: 'none' })));
    assert.equal(response.status, 302);
    const fragment = fragmentOf(response);
    assert.equal(fragment.get('error'), 'login_required');
    assert.equal(fragment.get('state'), 'xyz');
    assert.equal(fragment.get('id_token'), null);
    assert.deepEqual(browser.cookieNames(), []);
  });

  it('prompt=none with a session that allowed the app: tokens at once, same sub and auth_time', async () => {
    const { browser, first } = await signedInBrowser();
    const response = await browser.get(authUrl(sandbox.url, params({ prompt: 'none', state: 'silent' })));
    assert.equal(response.status, 302);
    const fragment = fragmentOf(response);
    assert.equal(fragment.get('state'), 'silent');
    assert.ok(fragment.get('access_token'));
    const second = await verify(fragment.get('id_token')!);
    assert.equal(second.sub, first.sub);
    assert.equal(second.auth_time, first.auth_time);
  });

  it('prompt=none with a session but no consent for these scopes: consent_required', async () => {
    const cancelled = new TestBrowser();
    await runImplicitFlow(cancelled, sandbox.url, params(), { decision: 'cancel' });
    assert.equal(
      fragmentOf(await cancelled.get(authUrl(sandbox.url, params({ prompt: 'none' })))).get('error'),
      'consent_required',
    );
    const { browser } = await signedInBrowser('openid');
    assert.equal(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none' })))).get('error'),
      'consent_required',
    );
    assert.ok(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none', scope: 'openid' })))).get('id_token'),
    );
  });

  it('prompt=none forgets the consent once the user signs out', async () => {
    const { browser } = await signedInBrowser();
    const home = await (await browser.get(`${sandbox.url}/`)).text();
    await browser.post(`${sandbox.url}/logout`, formFields(home, '/logout'));
    assert.equal(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none' })))).get('error'),
      'login_required',
    );
  });

  it('prompt=consent shows the consent page to a returning user, as always', async () => {
    const { browser } = await signedInBrowser();
    const html = await page(browser, { prompt: 'consent' });
    assert.doesNotMatch(html, /action="\/signin"/);
    assert.match(html, /action="\/consent"/);
  });

  it('prompt=login and select_account ask for the password again, then auth_time is the new sign-in', async (t) => {
    // The sandbox's clock, held and moved on by hand past the next whole second.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { browser, first } = await signedInBrowser();
    assert.match(await page(browser, { prompt: 'select_account' }), /action="\/signin"/);
    t.mock.timers.tick(1100);
    const html = await page(browser, { prompt: 'login' });
    assert.match(html, /action="\/signin"/);
    const { fragment } = await consent(browser, sandbox.url, await signIn(browser, sandbox.url, html), 'allow');
    const second = await verify(fragment.get('id_token')!);
    assert.ok((second.auth_time as number) > (first.auth_time as number));
    assert.ok(Math.abs((second.auth_time as number) - Date.now() / 1000) < 5);
  });

  it('prompt=login cannot be skipped by going to the consent page directly', async () => {
    const { browser } = await signedInBrowser();
    const html = await page(browser, { prompt: 'login' });
    const { request, csrf } = formFields(html, '/signin');
    const direct = await browser.get(`${sandbox.url}/consent?request=${encodeURIComponent(request!)}`);
    assert.match(await direct.text(), /action="\/signin"/);
    const forged = await browser.post(`${sandbox.url}/consent`, { request: request!, csrf: csrf!, decision: 'allow' });
    assert.equal(forged.headers.get('location'), null);
    assert.match(await forged.text(), /action="\/signin"/);
  });

  it('max_age: a recent enough sign-in is kept, an older one is asked again (and refused with prompt=none)', async (t) => {
    // The sandbox's clock, held and moved on by hand past max_age=1.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { browser, first } = await signedInBrowser();
    const recent = await page(browser, { max_age: '10000' });
    const kept = await verify((await consent(browser, sandbox.url, recent, 'allow')).fragment.get('id_token')!);
    assert.equal(kept.auth_time, first.auth_time);
    assert.match(await page(browser, { max_age: '0' }), /action="\/signin"/);
    t.mock.timers.tick(2100);
    assert.equal(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none', max_age: '1' })))).get('error'),
      'login_required',
    );
    const stale = await page(browser, { max_age: '1' });
    const { fragment } = await consent(browser, sandbox.url, await signIn(browser, sandbox.url, stale), 'allow');
    const renewed = await verify(fragment.get('id_token')!);
    assert.ok((renewed.auth_time as number) >= (first.auth_time as number) + 2);
  });

  it('login_hint pre-fills the username, escaped', async () => {
    assert.match(
      await page(new TestBrowser(), { login_hint: 'jonas.weber' }),
      /name="username"[^>]*value="jonas\.weber"/,
    );
    const hostile = await page(new TestBrowser(), { login_hint: '"><script>alert(1)</script>' });
    assert.doesNotMatch(hostile, /<script>/);
    assert.match(hostile, /value="&quot;&gt;&lt;script&gt;/);
  });

  it('id_token_hint: the same user passes silently, another user must sign in, a foreign token is refused', async () => {
    const { browser, idToken } = await signedInBrowser();
    assert.ok(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none', id_token_hint: idToken })))).get(
        'id_token',
      ),
    );

    const other = new TestBrowser();
    const { fragment } = await runImplicitFlow(other, sandbox.url, params(), {
      username: jonas.username,
      password: jonas.password,
    });
    const jonasToken = fragment.get('id_token')!;
    assert.equal(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ prompt: 'none', id_token_hint: jonasToken })))).get(
        'error',
      ),
      'login_required',
    );
    const html = await page(browser, { id_token_hint: jonasToken });
    assert.match(html, /action="\/signin"/);
    assert.match(html, /name="username"[^>]*value="jonas\.weber"/);

    const tampered = `${idToken.slice(0, -4)}AAAA`;
    assert.equal(
      fragmentOf(await browser.get(authUrl(sandbox.url, params({ id_token_hint: tampered })))).get('error'),
      'invalid_request',
    );
  });
});
