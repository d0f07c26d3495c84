/**
 * The ID-token checks of an OpenID relying party for the implicit flow, run before any token is
 * used. Each failure is a `SignInError` with code `invalid_token` and a message saying which check
 * refused the token. Only the small parts of jose we need are imported, so they tree-shake.
 */
import { base64url, decodeProtectedHeader, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { SignInError } from './errors.ts';
import { CLOCK_SKEW_SECONDS } from './options.ts';


/** Asymmetric JWS algorithms only: never `none`, never HMAC (an HMAC "key" could be the public key). */
const ASYMMETRIC_ALGORITHM = /^(?:(?:RS|PS|ES)(?:256|384|512)|EdDSA|Ed25519)$/;

const KEY_TYPE: Record<string, string> = { RS: 'RSA', PS: 'RSA', ES: 'EC', Ed: 'OKP' };

function refuse(message: string, cause?: unknown): never {
  throw new SignInError('invalid_token', message, { cause });
}

const encoder = new TextEncoder();

/** base64url(SHA-256(value)): how the nonce sent to the provider is derived from the value kept locally. */
export async function sha256Base64url(value: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value))));
}

/** A random, unguessable value (32 bytes) in base64url. */
export function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** The hash the ID token's algorithm uses, which `at_hash` is computed with. */
function hashFor(alg: string): string {
  if (alg === 'EdDSA' || alg === 'Ed25519') return 'SHA-512';
  return `SHA-${alg.slice(2)}`;
}

/** `at_hash`: base64url of the left half of the hash of the access token's ASCII octets. */
export async function accessTokenHash(accessToken: string, alg: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest(hashFor(alg), encoder.encode(accessToken)));
  return base64url.encode(digest.slice(0, digest.length / 2));
}

/**
 * The provider's signing keys from `jwks_uri`, cached per page. A token names its key by `kid`; an
 * unknown `kid` makes us fetch the set again once (the provider may have rotated its keys). A token
 * without `kid` is accepted only when the set holds a single signing key.
 */
export class ProviderKeys {
  private static readonly byUri = new Map<string, ProviderKeys>();
  private keys: JWK[] | undefined;

  private constructor(private readonly jwksUri: string) {}

  static for(jwksUri: string): ProviderKeys {
    let found = ProviderKeys.byUri.get(jwksUri);
    if (!found) ProviderKeys.byUri.set(jwksUri, (found = new ProviderKeys(jwksUri)));
    return found;
  }

  private async load(): Promise<JWK[]> {
    let response: Response;
    try {
      response = await fetch(this.jwksUri, { credentials: 'omit', cache: 'no-store' });
    } catch (error) {
      throw new SignInError('network', `The provider's signing keys could not be fetched from ${this.jwksUri}.`, { cause: error });
    }
    const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
    const keys = (body as { keys?: unknown } | undefined)?.keys;
    if (!Array.isArray(keys)) throw new SignInError('network', `${this.jwksUri} did not answer with a JSON Web Key Set.`);
    this.keys = keys.filter((key): key is JWK => !!key && typeof key === 'object' && typeof (key as JWK).kty === 'string');
    return this.keys;
  }

  /** The verification key for a token header, or a refusal. */
  async keyFor(header: { alg: string; kid?: string }): Promise<CryptoKey | Uint8Array> {
    let refetched = !this.keys;
    let keys = this.keys ?? (await this.load());
    let jwk = select(keys, header);
    if (!jwk && header.kid !== undefined && !refetched) {
      refetched = true;
      keys = await this.load();
      jwk = select(keys, header);
    }
    if (!jwk) {
      refuse(header.kid === undefined
        ? 'The ID token names no key (kid) and the provider does not publish exactly one signing key.'
        : `The ID token is signed with key "${header.kid}", which the provider does not publish.`);
    }
    try {
      return await importJWK(jwk, header.alg);
    } catch (error) {
      refuse(`The provider's key "${jwk.kid ?? ''}" cannot verify ${header.alg} signatures.`, error);
    }
  }
}

function select(keys: JWK[], { alg, kid }: { alg: string; kid?: string }): JWK | undefined {
  const signing = keys.filter((key) => key.use === undefined || key.use === 'sig');
  const candidates = kid === undefined ? (signing.length === 1 ? signing : []) : signing.filter((key) => key.kid === kid);
  const key = candidates[0];
  if (!key || (key.alg !== undefined && key.alg !== alg) || key.kty !== KEY_TYPE[alg.slice(0, 2)]) return undefined;
  return key;
}

export interface IdTokenExpectations {
  /** The issuer announced by discovery, which must equal the authority. */
  issuer: string;
  clientId: string;
  /** `id_token_signing_alg_values_supported` from discovery. */
  announcedAlgorithms: readonly string[] | undefined;
  keys: ProviderKeys;
  /** The random value kept locally; the token's `nonce` must be its SHA-256 in base64url. */
  nonceSecret: string;
  accessToken: string;
}

/** The claims of an ID token that passed every check. */
export interface VerifiedIdToken extends JWTPayload {
  sub: string;
}

/**
 * Runs every check, in order: algorithm, signature, `iss`, `aud` (and `azp`), `exp` and `iat`,
 * `sub`, `nonce`, `at_hash`. Returns the claims only when all of them pass.
 */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<VerifiedIdToken> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(idToken);
  } catch (error) {
    refuse('The ID token is not a signed JWT.', error);
  }
  const alg = header.alg;
  const announced = expected.announcedAlgorithms ?? ['RS256'];
  if (typeof alg !== 'string' || !ASYMMETRIC_ALGORITHM.test(alg) || !announced.includes(alg)) {
    refuse(`The ID token algorithm "${String(alg)}" is not an asymmetric algorithm the provider announces (${announced.join(', ')}).`);
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const key = await expected.keys.keyFor(kid === undefined ? { alg } : { alg, kid });

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, key, {
      algorithms: [alg],
      issuer: expected.issuer,
      audience: expected.clientId,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['iss', 'aud', 'exp', 'iat'],
    }));
  } catch (error) {
    refuse(`The ID token was refused: ${(error as Error).message}`, error);
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
    refuse('The ID token has several audiences and its authorized party (azp) is not this client.');
  }
  if (payload.azp !== undefined && payload.azp !== expected.clientId) {
    refuse('The ID token was issued to another authorized party (azp).');
  }
  // jose checks iat only against a maximum age; a token "issued" in the future is forged or broken.
  if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
    refuse('The ID token was issued in the future (iat).');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') refuse('The ID token has no subject (sub).');
  if (typeof payload.nonce !== 'string' || payload.nonce !== (await sha256Base64url(expected.nonceSecret))) {
    refuse('The ID token nonce does not match this sign-in request.');
  }
  if (typeof payload.at_hash !== 'string' || payload.at_hash !== (await accessTokenHash(expected.accessToken, alg))) {
    refuse('The ID token at_hash is missing or does not match the access token.');
  }
  return payload as VerifiedIdToken;
}
