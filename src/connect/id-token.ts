/**
 * The ID-token checks of an OpenID relying party for the implicit flow, run before any token is
 * used. Each failure is a `SignInError` with code `invalid_token` and a message saying which check
 * refused the token. Only the small parts of jose we need are imported, so they tree-shake.
 *
 * Environment-neutral (jose, Web Crypto and fetch only): the sign-in runs these checks in the browser,
 * and the proxy's `verifyShopper` runs the very same ones on the merchant's server.
 */
import { base64url, decodeProtectedHeader, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { safeUrl } from '../shared/safe-url.ts';
import { withoutTrailingSlash } from '../shared/url.ts';
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

export interface ProviderKeysOptions {
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
  /** Time allowed for one JWKS request; default none (the browser's own limits). */
  timeoutMs?: number;
  /**
   * After a refetch caused by an unknown `kid`, how long another unknown `kid` is refused without
   * asking again, so that tokens naming made-up keys cannot make each check a request to the
   * provider. Default 0 (the browser checks only tokens it received itself).
   */
  unknownKeyCooldownMs?: number;
  /** How long a fetched key set is used before it is fetched again; default for ever. */
  maxAgeMs?: number;
  /**
   * A server's settings: `redirect: 'error'` (a key set is never taken from wherever a redirect points)
   * and how the body is read (`readText`, e.g. with a size cap). Default: follow as fetch does, read it all.
   */
  redirect?: 'error' | 'follow' | 'manual';
  readText?: (response: Response) => Promise<string>;
}

/**
 * The provider's signing keys from `jwks_uri`, cached. A token names its key by `kid`; an unknown
 * `kid` makes us fetch the set again once (the provider may have rotated its keys). A token without
 * `kid` is accepted only when the set holds a single signing key.
 */
export class ProviderKeys {
  private static readonly byUri = new Map<string, ProviderKeys>();
  private keys: JWK[] | undefined;
  private loadedAt = 0;
  private lastUnknownKeyRefetch = Number.NEGATIVE_INFINITY;
  private loading: Promise<JWK[]> | undefined;

  constructor(
    private readonly jwksUri: string,
    private readonly options: ProviderKeysOptions = {},
  ) {}

  /** The page's one set of keys for this address. */
  static for(jwksUri: string): ProviderKeys {
    let found = ProviderKeys.byUri.get(jwksUri);
    if (!found) ProviderKeys.byUri.set(jwksUri, (found = new ProviderKeys(jwksUri)));
    return found;
  }

  /** Concurrent checks share one request. */
  private load(): Promise<JWK[]> {
    this.loading ??= this.fetchKeys().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async fetchKeys(): Promise<JWK[]> {
    const fetchImpl = this.options.fetch ?? fetch;
    const { timeoutMs } = this.options;
    let body: unknown;
    let status = 0;
    try {
      // Typed loosely: `cache` is a browser option, which server runtimes' RequestInit may not declare.
      const init = {
        credentials: 'omit',
        cache: 'no-store',
        ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
        ...(this.options.redirect ? { redirect: this.options.redirect } : {}),
      } as RequestInit;
      const response = await fetchImpl(this.jwksUri, init);
      status = response.status;
      const { readText } = this.options;
      body = !response.ok
        ? undefined
        : readText
          ? await readText(response).then(
              (text) => JSON.parse(text) as unknown,
              () => undefined,
            )
          : await response.json().catch(() => undefined);
    } catch (error) {
      throw new SignInError('network', `The provider's signing keys could not be fetched from ${this.jwksUri}.`, {
        cause: error,
      });
    }
    const keys = (body as { keys?: unknown } | undefined)?.keys;
    if (!Array.isArray(keys))
      throw new SignInError('network', `${this.jwksUri} did not answer with a JSON Web Key Set (HTTP ${status}).`);
    this.keys = keys.filter(
      (key): key is JWK => !!key && typeof key === 'object' && typeof (key as JWK).kty === 'string',
    );
    this.loadedAt = Date.now();
    return this.keys;
  }

  private fresh(): JWK[] | undefined {
    const { maxAgeMs } = this.options;
    return this.keys && (maxAgeMs === undefined || Date.now() - this.loadedAt < maxAgeMs) ? this.keys : undefined;
  }

  /** The verification key for a token header, or a refusal. */
  async keyFor(header: { alg: string; kid?: string }): Promise<Awaited<ReturnType<typeof importJWK>>> {
    const cached = this.fresh();
    let keys = cached ?? (await this.load());
    let jwk = select(keys, header);
    if (
      !jwk &&
      header.kid !== undefined &&
      cached &&
      Date.now() - this.lastUnknownKeyRefetch >= (this.options.unknownKeyCooldownMs ?? 0)
    ) {
      this.lastUnknownKeyRefetch = Date.now();
      keys = await this.load();
      jwk = select(keys, header);
    }
    if (!jwk) {
      refuse(
        header.kid === undefined
          ? 'The ID token names no key (kid) and the provider does not publish exactly one signing key.'
          : `The ID token is signed with key "${header.kid}", which the provider does not publish.`,
      );
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
  const candidates =
    kid === undefined ? (signing.length === 1 ? signing : []) : signing.filter((key) => key.kid === kid);
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
  /**
   * The random value kept locally; the token's `nonce` must be its SHA-256 in base64url. `null` only
   * on the merchant's server, which never saw the request: the page that made it checked the nonce.
   */
  nonceSecret: string | null;
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
    refuse(
      `The ID token algorithm "${String(alg)}" is not an asymmetric algorithm the provider announces (${announced.join(', ')}).`,
    );
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
  if (
    expected.nonceSecret !== null &&
    (typeof payload.nonce !== 'string' || payload.nonce !== (await sha256Base64url(expected.nonceSecret)))
  ) {
    refuse('The ID token nonce does not match this sign-in request.');
  }
  if (typeof payload.at_hash !== 'string' || payload.at_hash !== (await accessTokenHash(expected.accessToken, alg))) {
    refuse('The ID token at_hash is missing or does not match the access token.');
  }
  return payload as VerifiedIdToken;
}

/** What the checks need from the provider's discovery document. */
export interface CheckedDiscovery {
  issuer: string;
  authorization_endpoint: string | undefined;
  jwks_uri: string;
  algorithms: string[] | undefined;
}

/**
 * Checks a discovery document against the authority it was read from: the issuer it must announce
 * and a usable `jwks_uri` (https, or http on this machine). Refusals are `config` errors.
 */
export function checkDiscovery(metadata: Record<string, unknown>, authority: string): CheckedDiscovery {
  const { issuer } = metadata;
  if (typeof issuer !== 'string' || withoutTrailingSlash(issuer) !== withoutTrailingSlash(authority)) {
    throw new SignInError('config', `Connect announces issuer "${String(issuer)}", not the authority ${authority}.`);
  }
  const jwks_uri = safeUrl(metadata.jwks_uri);
  if (!jwks_uri) throw new SignInError('config', 'Connect discovery lacks a usable jwks_uri.');
  const announced = metadata.id_token_signing_alg_values_supported;
  const algorithms = Array.isArray(announced)
    ? announced.filter((alg): alg is string => typeof alg === 'string')
    : undefined;
  return { issuer, authorization_endpoint: safeUrl(metadata.authorization_endpoint), jwks_uri, algorithms };
}
