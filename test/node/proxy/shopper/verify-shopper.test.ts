/**
 * verifyShopper() against the real Connect sandbox: real RS256 ID tokens from the implicit flow,
 * the sandbox's key rotation, /me over HTTP. What a merchant's server gets, and what it refuses.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, importJWK } from 'jose';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMemoryStore,
  createShopperVerifier,
  ShopperVerificationError,
  verifyShopper,
} from '../../../../src/proxy/index.ts';
import { startConnect, type RunningConnect } from '../../../../src/sandbox/index.ts';
import { temporaryDataDir } from '../../support/connect.ts';
import { signInAs, type SignedInTokens } from '../../support/shopper.ts';

const REDIRECT_URI = 'http://localhost:7100/callback';

async function refusal(promise: Promise<unknown>, code: string): Promise<ShopperVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ShopperVerificationError, `expected a refusal, got ${String(error)}`);
  assert.equal(error.code, code, error.message);
  return error;
}

describe('verifyShopper', () => {
  let connect: RunningConnect;
  let data: Awaited<ReturnType<typeof temporaryDataDir>>;
  let clientId: string;
  let otherAppId: string;
  let demo: SignedInTokens;
  const calls = { me: 0, jwks: 0, discovery: 0 };
  const counting: typeof fetch = (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === '/me') calls.me += 1;
    if (path === '/jwks') calls.jwks += 1;
    if (path.endsWith('/openid-configuration')) calls.discovery += 1;
    return fetch(input, init);
  };
  /** The token's claims signed by the sandbox's newest key, naming a key id nobody published. */
  const withMadeUpKid = async (idToken: string, kid: string) => {
    const keys = JSON.parse(readFileSync(join(data.dir, 'keys.json'), 'utf8')) as {
      keys: { privateJwk: Record<string, unknown> }[];
    };
    const signingKey = await importJWK(keys.keys.at(-1)!.privateJwk as never, 'RS256');
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(signingKey);
  };
  const signIn = (username = 'demo', password = 'demo', app = clientId, scope?: string) =>
    signInAs({ connectUrl: connect.connectUrl, clientId: app, redirectUri: REDIRECT_URI, username, password, scope });

  before(async () => {
    data = await temporaryDataDir();
    connect = await startConnect({ connectPort: 0, dataDir: data.dir });
    clientId = (await connect.registerApp({ name: 'Rewards shop', redirectUris: [REDIRECT_URI] })).app_id;
    otherAppId = (await connect.registerApp({ name: 'Another shop', redirectUris: [REDIRECT_URI] })).app_id;
    demo = await signIn();
  });
  after(async () => {
    await connect.close();
    await data.remove();
  });

  it("gives the signed-in shopper's sub, username, loyalty ID and expiry", async () => {
    const shopper = await verifyShopper(demo, { connectUrl: connect.connectUrl, clientId });
    assert.equal(shopper.username, 'demo');
    assert.match(shopper.loyaltyId, /^0x[0-9a-f]{40}$/i);
    assert.equal(typeof shopper.sub, 'string');
    assert.ok(
      shopper.expiresAt > Date.now() && shopper.expiresAt <= Date.now() + 3600_000,
      `expiresAt ${shopper.expiresAt}`,
    );
  });

  it('refuses the tokens Connect issued to another registered app', async () => {
    const foreign = await signIn('demo', 'demo', otherAppId);
    const error = await refusal(verifyShopper(foreign, { connectUrl: connect.connectUrl, clientId }), 'invalid_token');
    assert.equal(error.status, 401);
    assert.match(error.message, /aud/);
    // The same tokens are good for the app they were issued to.
    assert.equal(
      (await verifyShopper(foreign, { connectUrl: connect.connectUrl, clientId: otherAppId })).username,
      'demo',
    );
  });

  it('refuses missing, malformed, mismatched and forged tokens', async () => {
    const options = { connectUrl: connect.connectUrl, clientId };
    await refusal(verifyShopper({ idToken: '', accessToken: '' }, options), 'signin_required');
    await refusal(verifyShopper(undefined as never, options), 'signin_required');
    await refusal(verifyShopper({ idToken: 42, accessToken: demo.accessToken } as never, options), 'invalid_token');
    await refusal(verifyShopper({ idToken: 'not.a.jwt', accessToken: demo.accessToken }, options), 'invalid_token');
    const jonas = await signIn('jonas.weber', 'jonas');
    assert.match(
      (
        await refusal(
          verifyShopper({ idToken: demo.idToken, accessToken: jonas.accessToken }, options),
          'invalid_token',
        )
      ).message,
      /at_hash/,
    );
    // Signed with a key of our own that claims the sandbox's kid: the signature does not verify.
    const [header] = demo.idToken.split('.');
    const { kid } = JSON.parse(Buffer.from(header!, 'base64url').toString()) as { kid: string };
    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256');
    const payload = JSON.parse(Buffer.from(demo.idToken.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
    await refusal(verifyShopper({ idToken: forged, accessToken: demo.accessToken }, options), 'invalid_token');
  });

  it('refuses a sign-in without the profile scope (no loyalty ID to reward)', async () => {
    const tokens = await signIn('amelia.chen', 'amelia', clientId, 'openid');
    assert.match(
      (await refusal(verifyShopper(tokens, { connectUrl: connect.connectUrl, clientId }), 'invalid_token')).message,
      /profile scope/,
    );
  });

  it('keeps discovery, keys and /me answers: many checks of one sign-in cost one /me call', async () => {
    const verify = createShopperVerifier({ connectUrl: connect.connectUrl, clientId, fetch: counting });
    const before = { ...calls };
    const shoppers = await Promise.all([verify(demo), verify(demo), verify(demo)]);
    await verify(demo);
    assert.deepEqual(new Set(shoppers.map((shopper) => shopper.loyaltyId)).size, 1);
    assert.deepEqual(
      { me: calls.me - before.me, jwks: calls.jwks - before.jwks, discovery: calls.discovery - before.discovery },
      { me: 1, jwks: 1, discovery: 1 },
    );
  });

  it('follows a key rotation (a new kid refetches the keys), yet made-up kids cannot make every check a fetch', async () => {
    const verify = createShopperVerifier({ connectUrl: connect.connectUrl, clientId, fetch: counting });
    await verify(demo);
    const jwksBefore = calls.jwks;
    await connect.addSigningKey();
    const rotated = await signIn();
    assert.notEqual(
      JSON.parse(Buffer.from(rotated.idToken.split('.')[0]!, 'base64url').toString()).kid,
      JSON.parse(Buffer.from(demo.idToken.split('.')[0]!, 'base64url').toString()).kid,
    );
    assert.equal((await verify(rotated)).username, 'demo');
    assert.equal((await verify(demo)).username, 'demo', 'tokens signed before the rotation still verify');
    assert.equal(calls.jwks - jwksBefore, 1);
    for (const kid of ['made-up-1', 'made-up-2', 'made-up-3']) {
      const idToken = await withMadeUpKid(rotated.idToken, kid);
      await refusal(verify({ idToken, accessToken: rotated.accessToken }), 'invalid_token');
    }
    assert.equal(
      calls.jwks - jwksBefore,
      1,
      'after the refetch for the rotation, none for other unknown kids during the cooldown',
    );
  });

  it('verifyShopper with a store keeps one key cache per store: made-up kids cost no discovery or key fetch each', async () => {
    const store = createMemoryStore();
    const options = { connectUrl: connect.connectUrl, clientId, store, fetch: counting };
    await verifyShopper(demo, options);
    const before = { ...calls };
    for (let index = 0; index < 20; index += 1) {
      const idToken = await withMadeUpKid(demo.idToken, `made-up-${index}`);
      await refusal(verifyShopper({ idToken, accessToken: demo.accessToken }, options), 'invalid_token');
    }
    assert.equal(calls.discovery - before.discovery, 0, 'discovery is kept');
    assert.ok(calls.jwks - before.jwks <= 1, `one key refetch at most, saw ${calls.jwks - before.jwks}`);
  });

  it('never takes the key set from a redirect, nor one larger than a key set can be', async () => {
    const jwksUrl = `${connect.connectUrl.replace(/\/$/, '')}/jwks`;
    const realKeys = (await (await fetch(jwksUrl)).json()) as { keys: unknown[] };
    const elsewhere = createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(307, { location: jwksUrl }).end();
      else
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ keys: realKeys.keys, padding: 'x'.repeat(300 * 1024) }));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      for (const path of ['/redirect', '/huge']) {
        // Connect's own /jwks answered from elsewhere: through a redirect, or padded past any real key set.
        const answeredElsewhere: typeof fetch = (input, init) =>
          new URL(String(input)).pathname === '/jwks' ? fetch(`${origin}${path}`, init) : fetch(input, init);
        const verify = createShopperVerifier({ connectUrl: connect.connectUrl, clientId, fetch: answeredElsewhere });
        const error = await refusal(verify(demo), 'connect_unavailable');
        assert.equal(error.status, 502, path);
      }
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('says connect_unavailable (502) when Connect cannot be reached, and checks its options', async () => {
    const error = await refusal(
      verifyShopper(demo, { connectUrl: 'http://127.0.0.1:9/', clientId, timeoutMs: 2000 }),
      'connect_unavailable',
    );
    assert.equal(error.status, 502);
    assert.throws(() => verifyShopper(demo, { connectUrl: 'not a url', clientId }), /connectUrl/);
    assert.throws(() => verifyShopper(demo, { connectUrl: connect.connectUrl, clientId: '' }), /clientId/);
  });
});
