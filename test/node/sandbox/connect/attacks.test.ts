import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formFields, fragmentOf, TestBrowser } from '../../support/browser.ts';
import { authParams, authUrl, runImplicitFlow, signIn, useConnect } from '../../support/connect.ts';

const GOOD = 'https://good.example/cb';

/** A page no other site may frame. */
function assertNotFramable(response: Response, what: string): void {
  assert.equal(response.headers.get('x-frame-options'), 'DENY', what);
  assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, what);
  assert.match(response.headers.get('content-type')!, /^text\/html/, what);
}

describe('Connect sandbox: what an attacker can and cannot do', () => {
  const sandbox = useConnect([GOOD, 'http://localhost:7000/callback']);
  const params = (overrides: Record<string, string | undefined> = {}) => authParams(sandbox.app, overrides);

  it('round-trips a hostile state exactly, URL-encoded in the fragment, on success and on every error', async () => {
    const state = 'a&b=c#d+e%20f g?h/é日本✓\'"<>';
    const check = (response: Response) => {
      const location = response.headers.get('location')!;
      assert.ok(location.startsWith(`${GOOD}#`), location);
      assert.match(location, /^[\x21-\x7e]+$/, 'the Location is plain ASCII');
      assert.equal(location.indexOf('#'), location.lastIndexOf('#'), 'one fragment');
      assert.equal(fragmentOf(response).get('state'), state);
    };
    check((await runImplicitFlow(new TestBrowser(), sandbox.url, params({ state }))).response);
    check((await runImplicitFlow(new TestBrowser(), sandbox.url, params({ state }), { decision: 'cancel' })).response);
    check(await new TestBrowser().get(authUrl(sandbox.url, params({ state, scope: 'profile' }))));
    check(await new TestBrowser().get(authUrl(sandbox.url, params({ state, prompt: 'none' }))));
  });

  it('never redirects to a near miss of a registered URI (userinfo, fragment, case, trailing ?, …)', async () => {
    const nearMisses = [
      'https://good.example@evil.example/cb',
      'https://good.example/cb@evil.example',
      'https://evil.example@good.example/cb',
      'https://good.example/cb#frag',
      'https://good.example/cb#',
      'https://GOOD.example/cb',
      'HTTPS://good.example/cb',
      'https://good.example/cb?',
      'https://good.example/cb?x=1',
      'https://good.example/cb/',
      'https://good.example:443/cb',
      'https://good.example/cb/../cb',
      'https://good.example/%63b',
      'https://good.example.evil.example/cb',
      '//good.example/cb',
      ' https://good.example/cb',
      'https://good.example/cb\t',
      'https://good.example\\@evil.example/cb',
      'http://good.example/cb',
    ];
    for (const redirectUri of nearMisses) {
      const response = await new TestBrowser().get(authUrl(sandbox.url, params({ redirect_uri: redirectUri })));
      assert.equal(response.status, 400, redirectUri);
      assert.equal(response.headers.get('location'), null, redirectUri);
      assertNotFramable(response, redirectUri);
    }
    await assert.rejects(
      sandbox.connect.registerApp({ name: 'x', redirectUris: ['https://good.example@evil.example/cb'] }),
      /credentials/,
    );
    await assert.rejects(
      sandbox.connect.registerApp({ name: 'x', redirectUris: ['https://good.example/cb#x'] }),
      /fragment/,
    );
    for (const uri of [
      'https://good.example/c\nb',
      'https://good.example/cb\r\nSet-Cookie: a=1',
      'https://good.example/c b',
      '\thttps://good.example/cb',
    ]) {
      await assert.rejects(
        sandbox.connect.registerApp({ name: 'x', redirectUris: [uri] }),
        /spaces or control characters/,
        JSON.stringify(uri),
      );
    }
  });

  it('escapes every reflected value in its pages', async () => {
    const hostile = '"><img src=x onerror=alert(1)>';
    const pages = [
      await new TestBrowser().get(authUrl(sandbox.url, params({ client_id: hostile }))),
      await new TestBrowser().get(authUrl(sandbox.url, params({ redirect_uri: `${GOOD}${hostile}` }))),
    ];
    const browser = new TestBrowser();
    const form = await (await browser.get(authUrl(sandbox.url, params()))).text();
    pages.push(
      await browser.post(`${sandbox.url}/signin`, { ...formFields(form, '/signin'), username: hostile, password: 'x' }),
    );
    for (const response of pages) {
      const html = await response.text();
      assert.doesNotMatch(html, /<img/);
      assert.match(html, /&quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;/);
    }
  });

  it('gives a new session id at sign-in, so a planted one is worth nothing, and the old CSRF token dies with it', async () => {
    const victim = new TestBrowser();
    const form = await (await victim.get(authUrl(sandbox.url, params()))).text();
    const [name] = victim.cookieNames();
    const planted = victim.cookie(name!)!;
    const attacker = new TestBrowser();
    attacker.setCookie(name!, planted);
    await signIn(victim, sandbox.url, form);
    assert.notEqual(victim.cookie(name!), planted);
    assert.match(
      await (await attacker.get(authUrl(sandbox.url, params()))).text(),
      /action="\/signin"/,
      'the planted id is not signed in',
    );
    const stale = await victim.post(`${sandbox.url}/logout`, { csrf: formFields(form, '/signin').csrf! });
    assert.equal(stale.status, 403);
  });

  it('shows a clear page for a sign-in request of another browser, not a crash', async () => {
    const victim = new TestBrowser();
    const { request } = formFields(await (await victim.get(authUrl(sandbox.url, params()))).text(), '/signin');
    const other = new TestBrowser();
    const own = formFields(await (await other.get(authUrl(sandbox.url, params()))).text(), '/signin');
    const posted = await other.post(`${sandbox.url}/signin`, {
      ...own,
      request: request!,
      username: 'demo',
      password: 'demo',
    });
    assert.equal(posted.status, 400);
    assert.match(await posted.text(), /This sign-in has expired/);
    const viewed = await other.get(`${sandbox.url}/consent?request=${encodeURIComponent(request!)}`);
    assert.equal(viewed.status, 400);
    assertNotFramable(viewed, 'expired page');
    assert.match(await viewed.text(), /started in another browser/);
  });

  it('answers oversized requests with a clear page and keeps serving', async () => {
    const huge = await fetch(authUrl(sandbox.url, params({ state: 'x'.repeat(100_000) })));
    assert.equal(huge.status, 414);
    assertNotFramable(huge, '414');
    assert.match(await huge.text(), /This sign-in link is too long/);
    const headers = await fetch(`${sandbox.url}/`, { headers: { cookie: `a=${'y'.repeat(20_000)}` } });
    assert.equal(headers.status, 431);
    assert.match(await headers.text(), /Request too large/);
    const longState = fragmentOf(
      await new TestBrowser().get(authUrl(sandbox.url, params({ state: 's'.repeat(5000) }))),
    );
    assert.equal(longState.get('error'), 'invalid_request');
    assert.equal(longState.get('state'), null);
    const bigForm = await new TestBrowser().post(`${sandbox.url}/signin`, { username: 'u'.repeat(20_000) });
    assert.equal(bigForm.status, 413);
    assertNotFramable(bigForm, '413');
    assert.equal((await fetch(`${sandbox.url}/.well-known/openid-configuration`)).status, 200);
  });

  it('locks a username for a minute after five wrong passwords, whether it exists or not, then lets it in again', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const browser = new TestBrowser();
    const fields = formFields(await (await browser.get(authUrl(sandbox.url, params()))).text(), '/signin');
    const attempt = (username: string, password: string) =>
      browser.post(`${sandbox.url}/signin`, { ...fields, username, password });
    for (const username of ['jonas.weber', 'ghost.user']) {
      for (let i = 1; i <= 4; i++)
        assert.equal((await attempt(username, 'wrong')).status, 401, `${username} attempt ${i}`);
      const locked = await attempt(username, 'wrong');
      assert.equal(locked.status, 429, username);
      assert.equal(locked.headers.get('retry-after'), '60');
      assertNotFramable(locked, 'throttled');
      assert.match(
        await locked.text(),
        /role="alert">Too many wrong passwords for this username\. Wait 60 seconds, then try again\./,
      );
    }
    const rightButLocked = await attempt('jonas.weber', 'jonas');
    assert.equal(rightButLocked.status, 429);
    assert.equal(rightButLocked.headers.get('location'), null);
    t.mock.timers.tick(30_000);
    assert.equal((await attempt('jonas.weber', 'jonas')).headers.get('retry-after'), '30');
    t.mock.timers.tick(31_000);
    assert.equal((await attempt('jonas.weber', 'jonas')).status, 303, 'unlocked after the minute');
  });

  it('shows a clear page for a sign-in request that expired', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const browser = new TestBrowser();
    const fields = formFields(await (await browser.get(authUrl(sandbox.url, params()))).text(), '/signin');
    t.mock.timers.tick(11 * 60 * 1000);
    const posted = await browser.post(`${sandbox.url}/signin`, { ...fields, username: 'demo', password: 'demo' });
    assert.equal(posted.status, 400);
    assert.match(await posted.text(), /This sign-in has expired/);
  });
});
