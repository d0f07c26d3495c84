import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEED_USERS, startConnect, type AppRegistration, type RunningConnect } from '../../../../src/sandbox/index.ts';
import { TestBrowser } from '../../support/browser.ts';
import { randomNonce, runImplicitFlow, temporaryDataDir } from '../../support/connect.ts';

const REDIRECT_URI = 'http://localhost:7000/callback';
const sofia = SEED_USERS.find((user) => user.username === 'sofia.rossi')!;

async function accessTokenFor(connect: RunningConnect, app: AppRegistration, scope: string): Promise<string> {
  const { fragment } = await runImplicitFlow(
    new TestBrowser(),
    connect.connectUrl,
    { client_id: app.app_id, redirect_uri: REDIRECT_URI, response_type: 'id_token token', scope, nonce: randomNonce() },
    { username: sofia.username, password: sofia.password },
  );
  return fragment.get('access_token')!;
}

async function expectInvalidToken(response: Response): Promise<void> {
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const body = (await response.json()) as { error: string; error_description: string };
  assert.equal(body.error, 'invalid_token');
  assert.ok(body.error_description);
}

describe('Connect sandbox: /me', () => {
  let connect: RunningConnect;
  let app: AppRegistration;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;

  before(async () => {
    data = await temporaryDataDir();
    connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    app = await connect.registerApp({ name: 'Profile reader', redirectUris: [REDIRECT_URI] });
  });
  after(async () => {
    await connect.close();
    await data.remove();
  });

  it('returns sub, username and loyaltyId for a token with profile, by query or Bearer header, with CORS', async () => {
    const token = await accessTokenFor(connect, app, 'openid profile');
    const expected = { sub: sofia.sub, username: sofia.username, loyaltyId: sofia.loyaltyId };
    const byQuery = await fetch(`${connect.connectUrl}/me?access_token=${encodeURIComponent(token)}`, {
      headers: { origin: 'http://localhost:7000' },
    });
    assert.equal(byQuery.status, 200);
    assert.equal(byQuery.headers.get('access-control-allow-origin'), '*');
    assert.equal(byQuery.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await byQuery.json(), expected);
    const byHeader = await fetch(`${connect.connectUrl}/me`, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(await byHeader.json(), expected);
  });

  it('answers a CORS preflight for the Authorization header', async () => {
    const response = await fetch(`${connect.connectUrl}/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:7000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.ok(response.status === 204 || response.status === 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers')!, /authorization/i);
  });

  it('returns only sub without profile', async () => {
    const token = await accessTokenFor(connect, app, 'openid');
    assert.deepEqual(await (await fetch(`${connect.connectUrl}/me?access_token=${token}`)).json(), { sub: sofia.sub });
  });

  it('answers a missing or unknown token with 401 invalid_token', async () => {
    await expectInvalidToken(await fetch(`${connect.connectUrl}/me`));
    await expectInvalidToken(await fetch(`${connect.connectUrl}/me?access_token=`));
    await expectInvalidToken(await fetch(`${connect.connectUrl}/me?access_token=not-a-token`));
    await expectInvalidToken(
      await fetch(`${connect.connectUrl}/me`, { headers: { authorization: 'Bearer not-a-token' } }),
    );
  });

  it('refuses a token sent twice (query and header) with 400', async () => {
    const token = await accessTokenFor(connect, app, 'openid');
    const response = await fetch(`${connect.connectUrl}/me?access_token=${token}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
  });

  it('takes POST with the Bearer header or a form-encoded access_token body (OpenID Connect Core 5.3.1)', async () => {
    const token = await accessTokenFor(connect, app, 'openid profile');
    const expected = { sub: sofia.sub, username: sofia.username, loyaltyId: sofia.loyaltyId };
    const byHeader = await fetch(`${connect.connectUrl}/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(byHeader.status, 200);
    assert.match(byHeader.headers.get('content-type')!, /^application\/json/);
    assert.equal(byHeader.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await byHeader.json(), expected);
    const byBody = await fetch(`${connect.connectUrl}/me`, {
      method: 'POST',
      body: new URLSearchParams({ access_token: token }),
      headers: { origin: 'http://localhost:7000' },
    });
    assert.equal(byBody.status, 200);
    assert.equal(byBody.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await byBody.json(), expected);
    await expectInvalidToken(
      await fetch(`${connect.connectUrl}/me`, {
        method: 'POST',
        body: new URLSearchParams({ access_token: 'not-a-token' }),
      }),
    );
    await expectInvalidToken(await fetch(`${connect.connectUrl}/me`, { method: 'POST' }));
  });

  it('answers 400 invalid_request for a token in two places or a malformed Bearer header', async () => {
    const token = await accessTokenFor(connect, app, 'openid');
    const twice = [
      fetch(`${connect.connectUrl}/me`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: new URLSearchParams({ access_token: token }),
      }),
      fetch(`${connect.connectUrl}/me?access_token=${token}`, {
        method: 'POST',
        body: new URLSearchParams({ access_token: token }),
      }),
      fetch(`${connect.connectUrl}/me?access_token=${token}&access_token=${token}`),
      fetch(`${connect.connectUrl}/me`, {
        method: 'POST',
        body: `access_token=${token}&access_token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      fetch(`${connect.connectUrl}/me`, { headers: { authorization: `Bearer ${token} extra` } }),
      fetch(`${connect.connectUrl}/me`, { headers: { authorization: 'Bearer' } }),
    ];
    for (const response of await Promise.all(twice)) {
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('www-authenticate'), 'Bearer error="invalid_request"');
      assert.match(response.headers.get('content-type')!, /^application\/json/);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
    }
  });

  it('answers a CORS preflight for POST', async () => {
    const response = await fetch(`${connect.connectUrl}/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:7000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    assert.ok(response.status === 204 || response.status === 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(response.headers.get('access-control-allow-headers')!, /content-type/i);
  });

  it('answers other methods with 405', async () => {
    const response = await fetch(`${connect.connectUrl}/me`, { method: 'DELETE' });
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow')!, /GET, POST/);
  });
});

describe('Connect sandbox: token expiry', () => {
  it('answers an expired token with 401 invalid_token and says so in expires_in', async (t) => {
    // The sandbox's clock, held and moved on by hand past the token's lifetime.
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const data = await temporaryDataDir();
    const connect = await startConnect({ connectPort: 0, dataDir: data.dir, tokenLifetimeSeconds: 1 });
    try {
      const app = await connect.registerApp({ name: 'Short-lived', redirectUris: [REDIRECT_URI] });
      const { fragment } = await runImplicitFlow(new TestBrowser(), connect.connectUrl, {
        client_id: app.app_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'id_token token',
        scope: 'openid profile',
        nonce: randomNonce(),
      });
      assert.equal(fragment.get('expires_in'), '1');
      const token = fragment.get('access_token')!;
      t.mock.timers.tick(1000);
      await expectInvalidToken(await fetch(`${connect.connectUrl}/me?access_token=${token}`));
    } finally {
      await connect.close();
      await data.remove();
    }
  });
});
