/**
 * The ID-token checks (src/connect/id-token.ts) on their own, with real keys of every family the
 * checks allow and a real JWKS over HTTP: what is accepted, and the key-selection rules.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  ProviderKeys,
  accessTokenHash,
  sha256Base64url,
  verifyIdToken,
  type IdTokenExpectations,
} from '../../../src/connect/id-token.ts';
import { SignInError } from '../../../src/connect/errors.ts';

const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** Serves a JWKS over real HTTP; counts fetches; `publish` changes the keys (a key rotation). */
async function jwksServer(keys: JWK[]): Promise<{ uri: string; fetches: () => number; publish(keys: unknown): void }> {
  let fetches = 0;
  let published: unknown = keys;
  const server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: published }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    fetches: () => fetches,
    publish: (next) => void (published = next),
  };
}

/** A JWT with this header and payload and a signature of junk: for the checks before the signature. */
const unsigned = (header: Record<string, unknown>, payload: Record<string, unknown> = {}) =>
  [header, payload].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.c2ln';

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

  it('computes at_hash as the left half of the hash the algorithm uses (SHA-512 for EdDSA)', async () => {
    const leftHalf = (hash: string) => {
      const digest = createHash(hash).update(ACCESS_TOKEN, 'ascii').digest();
      return digest.subarray(0, digest.length / 2).toString('base64url');
    };
    for (const [alg, hash] of [
      ['RS256', 'sha256'],
      ['ES384', 'sha384'],
      ['PS512', 'sha512'],
      ['EdDSA', 'sha512'],
      ['Ed25519', 'sha512'],
    ] as const)
      assert.equal(await accessTokenHash(ACCESS_TOKEN, alg), leftHalf(hash), alg);
  });

  it('refuses a token whose iss, aud or exp is wrong or missing, or that has expired', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [
      { iss: 'https://other.example' },
      { aud: 'another-app' },
      { exp: undefined },
      { iat: now - 7200, exp: now - 3600 },
    ]) {
      const message = await refusal(
        verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }, claims), expectations(jwks.uri, ['RS256'])),
      );
      assert.match(message, /^The ID token was refused: /, JSON.stringify(claims));
    }
  });

  it('accepts this client as the one audience in a list, without azp', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const listed = await token('RS256', privateKey, { kid: 'k1' }, { aud: [CLIENT] });
    assert.equal((await verifyIdToken(listed, expectations(jwks.uri, ['RS256']))).sub, 'u1');
  });

  it('refuses a token without a subject, or with an empty or non-string one', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    for (const sub of [undefined, '', 42]) {
      const message = await refusal(
        verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }, { sub }), expectations(jwks.uri, ['RS256'])),
      );
      assert.equal(message, 'The ID token has no subject (sub).');
    }
  });

  it('refuses a nonce that is missing or not of this sign-in, and checks none where no sign-in is pending', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    for (const nonce of [undefined, await sha256Base64url('another-request'), 7]) {
      const message = await refusal(
        verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }, { nonce }), expectations(jwks.uri, ['RS256'])),
      );
      assert.equal(message, 'The ID token nonce does not match this sign-in request.');
    }
    const withoutNonce = await token('RS256', privateKey, { kid: 'k1' }, { nonce: undefined });
    const claims = await verifyIdToken(withoutNonce, { ...expectations(jwks.uri, ['RS256']), nonceSecret: null });
    assert.equal(claims.sub, 'u1');
  });

  it('refuses an at_hash that is missing or of another access token', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    for (const at_hash of [undefined, await accessTokenHash('another-access-token', 'RS256'), 1]) {
      const message = await refusal(
        verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }, { at_hash }), expectations(jwks.uri, ['RS256'])),
      );
      assert.equal(message, 'The ID token at_hash is missing or does not match the access token.');
    }
  });

  it('refuses a symmetric or unknown algorithm even when announced, before fetching any key', async () => {
    const jwks = await jwksServer([]);
    for (const alg of ['HS256', 'none', 'XRS256', 'RS256X', 'RS2566']) {
      const message = await refusal(verifyIdToken(unsigned({ alg }), expectations(jwks.uri, ['RS256', alg])));
      assert.match(message, /is not an asymmetric algorithm the provider announces/, alg);
    }
    assert.equal(jwks.fetches(), 0);
  });

  it('uses the key the kid names, never another published one', async () => {
    const first = await keyPair('RS256', 'a');
    const second = await keyPair('RS256', 'b');
    const jwks = await jwksServer([first.jwk, second.jwk]);
    const bySecond = await token('RS256', second.privateKey, { kid: 'b' });
    assert.equal((await verifyIdToken(bySecond, expectations(jwks.uri, ['RS256']))).sub, 'u1');
    // The only published key signed it, but the token names a key the provider does not publish.
    const single = await jwksServer([first.jwk]);
    const misnamed = await token('RS256', first.privateKey, { kid: 'retired' });
    assert.match(
      await refusal(verifyIdToken(misnamed, expectations(single.uri, ['RS256']))),
      /signed with key "retired", which the provider does not publish/,
    );
  });

  it('takes a signing key published without use, and refuses a key published for another algorithm', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const withoutUse = await jwksServer([{ ...jwk, use: undefined }]);
    const signed = await token('RS256', privateKey, { kid: 'k1' });
    assert.equal((await verifyIdToken(signed, expectations(withoutUse.uri, ['RS256']))).sub, 'u1');
    const forRs512 = await jwksServer([{ ...jwk, alg: 'RS512' }]);
    await refusal(verifyIdToken(signed, expectations(forRs512.uri, ['RS256', 'RS512'])));
  });

  it('fetches the keys again for a kid it does not know (a key rotation), and takes the new key', async () => {
    const old = await keyPair('RS256', 'old');
    const next = await keyPair('RS256', 'next');
    const jwks = await jwksServer([old.jwk]);
    const expected = expectations(jwks.uri, ['RS256']);
    assert.equal((await verifyIdToken(await token('RS256', old.privateKey, { kid: 'old' }), expected)).sub, 'u1');
    assert.equal(jwks.fetches(), 1);
    jwks.publish([next.jwk]);
    assert.equal((await verifyIdToken(await token('RS256', next.privateKey, { kid: 'next' }), expected)).sub, 'u1');
    assert.equal(jwks.fetches(), 2, 'fetched again once');
    assert.equal((await verifyIdToken(await token('RS256', next.privateKey, { kid: 'next' }), expected)).sub, 'u1');
    assert.equal(jwks.fetches(), 2, 'then kept');
  });

  it('skips published entries that are not keys, and refuses an answer that is not a key set', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([]);
    jwks.publish([null, 1, 'k1', { kid: 'k1' }, jwk]);
    const signed = await token('RS256', privateKey);
    assert.equal((await verifyIdToken(signed, expectations(jwks.uri, ['RS256']))).sub, 'u1');
    for (const keys of [undefined, {}, 'k1']) {
      const other = await jwksServer([]);
      other.publish(keys);
      const error = await verifyIdToken(signed, expectations(other.uri, ['RS256'])).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof SignInError, String(error));
      assert.equal(error.code, 'network');
      assert.equal(error.message, `${other.uri} did not answer with a JSON Web Key Set (HTTP 200).`);
    }
  });

  it('keeps one key set per address for the page, fetched once', async () => {
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    assert.equal(ProviderKeys.for(jwks.uri), ProviderKeys.for(jwks.uri));
    for (let check = 0; check < 2; check++)
      await verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }), expectations(jwks.uri, ['RS256']));
    assert.equal(jwks.fetches(), 1);
  });

  it('fetches the keys again only for a kid it does not know, not for a token without kid', async () => {
    const first = await keyPair('RS256', 'a');
    const second = await keyPair('RS256', 'b');
    const jwks = await jwksServer([first.jwk, second.jwk]);
    const expected = expectations(jwks.uri, ['RS256']);
    for (let check = 0; check < 2; check++)
      await refusal(verifyIdToken(await token('RS256', first.privateKey), expected));
    assert.equal(jwks.fetches(), 1);
  });

  it('asks again for an unknown kid only once the cooldown has passed, and for the set once it is older than maxAgeMs', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    const { privateKey, jwk } = await keyPair('RS256', 'k1');
    const jwks = await jwksServer([jwk]);
    const keys = new ProviderKeys(jwks.uri, { unknownKeyCooldownMs: 60_000, maxAgeMs: 3_600_000 });
    const expected = { ...expectations(jwks.uri, ['RS256']), keys };
    const madeUp = async () => refusal(verifyIdToken(await token('RS256', privateKey, { kid: 'made-up' }), expected));
    const genuine = async () => verifyIdToken(await token('RS256', privateKey, { kid: 'k1' }), expected);
    await genuine();
    await madeUp();
    assert.equal(jwks.fetches(), 2, 'the set, then once more for the unknown kid');
    t.mock.timers.tick(59_999);
    await madeUp();
    assert.equal(jwks.fetches(), 2, 'not again within the cooldown');
    t.mock.timers.tick(1);
    await madeUp();
    assert.equal(jwks.fetches(), 3, 'again once it has passed');
    t.mock.timers.tick(3_599_999);
    await genuine();
    assert.equal(jwks.fetches(), 3, 'the set last fetched is kept up to maxAgeMs');
    t.mock.timers.tick(1);
    await genuine();
    assert.equal(jwks.fetches(), 4, 'and fetched again after it');
  });

  it('keeps what went wrong as the refusal’s cause', async () => {
    const jwks = await jwksServer([]);
    const error = await verifyIdToken('not-a-jwt', expectations(jwks.uri, ['RS256'])).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    assert.ok(error?.cause instanceof Error, String(error?.cause));
  });
});
