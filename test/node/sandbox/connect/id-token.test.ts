import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { SEED_USERS } from '../../../../src/sandbox/index.ts';
import { TestBrowser } from '../../support/browser.ts';
import { authParams, authUrl, consent, runImplicitFlow, useConnect } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';
const demo = SEED_USERS.find((user) => user.username === 'demo')!;

describe('Connect sandbox: the ID token, claim by claim', () => {
  const sandbox = useConnect([REDIRECT_URI]);
  const verify = async (idToken: string): Promise<JWTPayload> =>
    (
      await jwtVerify(idToken, createRemoteJWKSet(new URL(`${sandbox.url}/jwks`)), {
        issuer: sandbox.url,
        audience: sandbox.app.app_id,
        algorithms: ['RS256'],
      })
    ).payload;

  it('has aud as the client id string, integer iat and exp one lifetime apart, a short ASCII sub, and a typed header', async () => {
    const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app));
    const idToken = fragment.get('id_token')!;
    const payload = await verify(idToken);
    assert.equal(payload.aud, sandbox.app.app_id);
    assert.ok(Number.isInteger(payload.iat) && Number.isInteger(payload.exp) && Number.isInteger(payload.auth_time));
    assert.equal(payload.exp! - payload.iat!, Number(fragment.get('expires_in')));
    assert.ok((payload.auth_time as number) <= payload.iat!);
    assert.equal(payload.sub, demo.sub);
    assert.match(payload.sub!, /^[\x21-\x7e]{1,255}$/);
    assert.equal(payload.azp, undefined);
    assert.deepEqual(decodeProtectedHeader(idToken), {
      alg: 'RS256',
      kid: decodeProtectedHeader(idToken).kid,
      typ: 'JWT',
    });
  });

  it('echoes the nonce exactly, whatever its characters', async () => {
    for (const nonce of ['n-0S6_WzA2Mj', 'aB3dE5gH7j-._~', 'nonce with spaces & = # + / ? é 日本 ✓']) {
      const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app, { nonce }));
      assert.equal((await verify(fragment.get('id_token')!)).nonce, nonce);
    }
  });

  it('has at_hash as the left half of the SHA-256 of the access token, in either response_type order', async () => {
    for (const responseType of ['id_token token', 'token id_token']) {
      const { fragment } = await runImplicitFlow(
        new TestBrowser(),
        sandbox.url,
        authParams(sandbox.app, { response_type: responseType }),
      );
      const digest = createHash('sha256').update(fragment.get('access_token')!, 'ascii').digest();
      assert.equal((await verify(fragment.get('id_token')!)).at_hash, digest.subarray(0, 16).toString('base64url'));
    }
  });

  it('keeps auth_time at the password sign-in for a returning session, not at the later request', async (t) => {
    // The sandbox's clock, held and moved on by hand past the next whole second.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const browser = new TestBrowser();
    const first = await verify(
      (await runImplicitFlow(browser, sandbox.url, authParams(sandbox.app))).fragment.get('id_token')!,
    );
    t.mock.timers.tick(1100);
    const html = await (await browser.get(authUrl(sandbox.url, authParams(sandbox.app)))).text();
    const second = await verify((await consent(browser, sandbox.url, html, 'allow')).fragment.get('id_token')!);
    assert.equal(second.auth_time, first.auth_time);
    assert.ok(second.iat! > (second.auth_time as number));
  });

  it('carries username and loyaltyId itself with response_type=id_token and profile (no access token to ask /me with)', async () => {
    const withProfile = await runImplicitFlow(
      new TestBrowser(),
      sandbox.url,
      authParams(sandbox.app, { response_type: 'id_token' }),
    );
    const payload = await verify(withProfile.fragment.get('id_token')!);
    assert.equal(payload.username, demo.username);
    assert.equal(payload.loyaltyId, demo.loyaltyId);
    const withoutProfile = await runImplicitFlow(
      new TestBrowser(),
      sandbox.url,
      authParams(sandbox.app, { response_type: 'id_token', scope: 'openid' }),
    );
    assert.equal((await verify(withoutProfile.fragment.get('id_token')!)).username, undefined);
    const withToken = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app));
    assert.equal(
      (await verify(withToken.fragment.get('id_token')!)).username,
      undefined,
      'with an access token, the profile comes from /me',
    );
  });
});

describe('Connect sandbox: access token lifetime', () => {
  const sandbox = useConnect([REDIRECT_URI], { tokenLifetimeSeconds: 2 });

  it('lets the access token work for expires_in seconds and no longer', async (t) => {
    // The sandbox's clock held and moved by hand: the token is checked 1 ms before and at its expiry,
    // however slowly the flow runs on a busy machine.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app));
    assert.equal(fragment.get('expires_in'), '2');
    const me = () =>
      fetch(`${sandbox.url}/me`, { headers: { authorization: `Bearer ${fragment.get('access_token')}` } });
    assert.equal((await me()).status, 200);
    t.mock.timers.tick(1999);
    assert.equal((await me()).status, 200, 'still valid 1 ms before expires_in runs out');
    t.mock.timers.tick(1);
    assert.equal((await me()).status, 401);
  });
});
