import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { TestBrowser } from '../../support/browser.ts';
import { authParams, runImplicitFlow, useConnect } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

describe('Connect sandbox: discovery and JWKS as conformance suites read them', () => {
  const sandbox = useConnect([REDIRECT_URI]);
  const discovery = async () => {
    const response = await fetch(`${sandbox.url}/.well-known/openid-configuration`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.match(response.headers.get('cache-control')!, /^public, max-age=\d+$/);
    return (await response.json()) as Record<string, unknown>;
  };
  const jwks = async () => {
    const response = await fetch(`${sandbox.url}/jwks`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/jwk-set\+json/);
    assert.match(response.headers.get('cache-control')!, /^public, max-age=\d+$/);
    return ((await response.json()) as { keys: Array<Record<string, unknown>> }).keys;
  };

  it('names the issuer exactly as the base URL, the same string as in the tokens', async () => {
    const document = await discovery();
    assert.equal(document.issuer, sandbox.url);
    assert.doesNotMatch(document.issuer as string, /\/$/);
    assert.equal(
      `${document.issuer}/.well-known/openid-configuration`,
      `${sandbox.url}/.well-known/openid-configuration`,
    );
    for (const endpoint of ['authorization_endpoint', 'jwks_uri', 'userinfo_endpoint']) {
      assert.ok((document[endpoint] as string).startsWith(`${sandbox.url}/`), endpoint);
    }
    const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app));
    assert.equal(decodeJwt(fragment.get('id_token')!).iss, document.issuer);
  });

  it('announces exactly what the provider supports', async () => {
    const document = await discovery();
    assert.deepEqual(document.response_types_supported, ['id_token token', 'id_token']);
    assert.deepEqual(document.response_modes_supported, ['fragment']);
    assert.deepEqual(document.grant_types_supported, ['implicit']);
    assert.deepEqual(document.subject_types_supported, ['public']);
    assert.deepEqual(document.id_token_signing_alg_values_supported, ['RS256']);
    assert.deepEqual(document.scopes_supported, ['openid', 'profile']);
    assert.deepEqual(document.prompt_values_supported, ['none', 'login', 'consent', 'select_account']);
    assert.deepEqual(document.display_values_supported, ['page', 'popup', 'touch', 'wap']);
    assert.deepEqual(document.ui_locales_supported, ['en']);
    assert.equal(document.claims_parameter_supported, false);
    assert.equal(document.request_parameter_supported, false);
    // Its default is true, so it must be said.
    assert.equal(document.request_uri_parameter_supported, false);
    // No token endpoint in the implicit flow, hence no client authentication to announce.
    assert.equal(document.token_endpoint, undefined);
    assert.equal(document.token_endpoint_auth_methods_supported, undefined);
  });

  it('lists in claims_supported every claim it issues, and only those', async () => {
    const claims = new Set<string>();
    const { fragment } = await runImplicitFlow(new TestBrowser(), sandbox.url, authParams(sandbox.app));
    Object.keys(decodeJwt(fragment.get('id_token')!)).forEach((claim) => claims.add(claim));
    const me = await fetch(`${sandbox.url}/me`, {
      headers: { authorization: `Bearer ${fragment.get('access_token')}` },
    });
    Object.keys((await me.json()) as object).forEach((claim) => claims.add(claim));
    const idOnly = await runImplicitFlow(
      new TestBrowser(),
      sandbox.url,
      authParams(sandbox.app, { response_type: 'id_token' }),
    );
    Object.keys(decodeJwt(idOnly.fragment.get('id_token')!)).forEach((claim) => claims.add(claim));
    assert.deepEqual([...claims].sort(), [...((await discovery()).claims_supported as string[])].sort());
  });

  it('publishes only public RSA signing keys, each complete, before and after a rotation', async () => {
    const check = (keys: Array<Record<string, unknown>>) => {
      assert.equal(new Set(keys.map((key) => key.kid)).size, keys.length, 'kids are unique');
      for (const key of keys) {
        assert.equal(key.kty, 'RSA');
        assert.equal(key.use, 'sig');
        assert.equal(key.alg, 'RS256');
        assert.equal(typeof key.kid, 'string');
        assert.match(key.n as string, /^[A-Za-z0-9_-]{300,}$/);
        assert.equal(key.e, 'AQAB');
        for (const member of PRIVATE_MEMBERS)
          assert.equal(key[member], undefined, `private member ${member} published`);
        assert.equal(key.key_ops, undefined);
      }
    };
    check(await jwks());
    const kid = await sandbox.connect.addSigningKey();
    const rotated = await jwks();
    assert.equal(rotated.length, 2);
    assert.equal(rotated[0]!.kid, kid);
    check(rotated);
  });

  it('answers discovery and JWKS with CORS for any origin', async () => {
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      const response = await fetch(`${sandbox.url}${path}`, { headers: { origin: 'https://any.example' } });
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
    }
  });
});
