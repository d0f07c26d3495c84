/**
 * The ID-token checks (src/connect/id-token.ts) on their own, with real keys of every family the
 * checks allow and a real JWKS over HTTP: what is accepted, and the key-selection rules.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  ProviderKeys,
  accessTokenHash,
  sha256Base64url,
  verifyIdToken,
  type IdTokenExpectations,
} from '../../src/connect/id-token.ts';
import { SignInError } from '../../src/connect/errors.ts';

const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** Serves a JWKS over real HTTP; counts fetches. */
async function jwksServer(keys: JWK[]): Promise<{ uri: string; fetches: () => number }> {
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, fetches: () => fetches };
}

async function keyPair(alg: string, kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, use: 'sig' } as JWK };
}

const ISSUER = 'https://connect.example';
const CLIENT = 'app-1';
const NONCE_SECRET = 'kept-locally';
const ACCESS_TOKEN = 'opaque-access-token';

async function token(
  alg: string,
  privateKey: CryptoKey,
  header: { kid?: string } = {},
  claims: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: ISSUER,
    aud: CLIENT,
    iat: now,
    exp: now + 300,
    sub: 'u1',
    nonce: await sha256Base64url(NONCE_SECRET),
    at_hash: await accessTokenHash(ACCESS_TOKEN, alg),
    ...claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg, ...header }).sign(privateKey);
}

function expectations(jwksUri: string, announcedAlgorithms: string[]): IdTokenExpectations {
  return {
    issuer: ISSUER,
    clientId: CLIENT,
    announcedAlgorithms,
    keys: ProviderKeys.for(jwksUri),
    nonceSecret: NONCE_SECRET,
    accessToken: ACCESS_TOKEN,
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(error instanceof SignInError, `expected a refusal, got ${String(error)}`);
  assert.equal(error.code, 'invalid_token');
  return error.message;
}

describe('ID-token checks', () => {
  for (const alg of ['RS256', 'PS256', 'ES256', 'ES384', 'RS512', 'EdDSA']) {
    it(`accepts ${alg} when the provider announces it, with an at_hash of the matching hash`, async () => {
      const { privateKey, jwk } = await keyPair(alg, `k-${alg}`);
      const jwks = await jwksServer([jwk]);
      const claims = await verifyIdToken(
        await token(alg, privateKey, { kid: jwk.kid! }),
        expectations(jwks.uri, [alg]),
      );
      assert.equal(claims.sub, 'u1');
    });
  }

  it('refuses an algorithm the provider does not announce, before fetching any key', async () => {
    const { privateKey, jwk } = await keyPair('ES256', 'k1');
    const jwks = await jwksServer([jwk]);
    const message = await refusal(
      verifyIdToken(await token('ES256', privateKey, { kid: 'k1' }), expectations(jwks.uri, ['RS256'])),
    );
    assert.match(message, /not an asymmetric algorithm the provider announces/);
    assert.equal(jwks.fetches(), 0);
  });

  it('refuses a token without kid when the provider publishes several keys', async () => {
    const first = await keyPair('RS256', 'a');
    const second = await keyPair('RS256', 'b');
    const jwks = await jwksServer([first.jwk, second.jwk]);
    const message = await refusal(
      verifyIdToken(await token('RS256', first.privateKey), expectations(jwks.uri, ['RS256'])),
    );
    assert.match(message, /names no key/);
  });

  it('ignores encryption keys when choosing the single signing key', async () => {
    const signing = await keyPair('RS256', 'sig');
    const encryption = { ...(await keyPair('RS256', 'enc')).jwk, use: 'enc' };
    const jwks = await jwksServer([encryption, signing.jwk]);
    const claims = await verifyIdToken(await token('RS256', signing.privateKey), expectations(jwks.uri, ['RS256']));
    assert.equal(claims.sub, 'u1');
  });

  it('refuses a key of another family than the token algorithm', async () => {
    const rsa = await keyPair('RS256', 'k1');
    const ec = await keyPair('ES256', 'k1');
    const jwks = await jwksServer([rsa.jwk]);
    await refusal(
      verifyIdToken(await token('ES256', ec.privateKey, { kid: 'k1' }), expectations(jwks.uri, ['RS256', 'ES256'])),
    );
  });

  it('refuses several audiences unless this client is the authorized party', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const several = await token('RS256', privateKey, { kid: 'k1' }, { aud: [CLIENT, 'other'] });
    assert.match(await refusal(verifyIdToken(several, expectations(jwks.uri, ['RS256']))), /authorized party/);
    const withAzp = await token('RS256', privateKey, { kid: 'k1' }, { aud: [CLIENT, 'other'], azp: CLIENT });
    assert.equal((await verifyIdToken(withAzp, expectations(jwks.uri, ['RS256']))).sub, 'u1');
  });

  it('refuses an azp naming another client, even with this client as the only audience', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const foreign = await token('RS256', privateKey, { kid: 'k1' }, { azp: 'another-app' });
    assert.match(await refusal(verifyIdToken(foreign, expectations(jwks.uri, ['RS256']))), /authorized party/);
  });

  it('refuses a token issued in the future beyond the clock skew, and accepts one within it', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const now = Math.floor(Date.now() / 1000);
    const future = await token('RS256', privateKey, { kid: 'k1' }, { iat: now + 3600, exp: now + 20 * 365 * 86400 });
    assert.match(await refusal(verifyIdToken(future, expectations(jwks.uri, ['RS256']))), /issued in the future/);
    const slightlyAhead = await token('RS256', privateKey, { kid: 'k1' }, { iat: now + 30 });
    assert.equal((await verifyIdToken(slightlyAhead, expectations(jwks.uri, ['RS256']))).sub, 'u1');
  });

  it('refuses garbage that is not a JWT', async () => {
    const jwks = await jwksServer([]);
    assert.match(await refusal(verifyIdToken('not-a-jwt', expectations(jwks.uri, ['RS256']))), /not a signed JWT/);
  });
});
