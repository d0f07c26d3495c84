/**
 * Who a shopper is, as the merchant's server can trust it: the page sends both tokens it received at
 * sign-in, the ID token is checked exactly as the browser checks it (signature from Connect's
 * `jwks_uri`, `iss`, `aud`/`azp` equal to the merchant's own client id, `exp`, `iat`, `at_hash` of the
 * access token; src/connect/id-token.ts), then Connect's `/me` says whose access token it is. The
 * access token is opaque and `/me` does not say which app it was issued to: the ID token's audience
 * is the only thing that binds it to this merchant's app.
 *
 * `/me` answers are kept in the store under a SHA-256 of the token (never the token itself): good
 * ones until the token expires (at most an hour), refused ones for a minute. Discovery and the keys
 * are cached; an unknown `kid` refetches the keys (rotation), at most once per 30 s.
 */
import { verifyIdToken, type VerifiedIdToken } from '../../connect/id-token.ts';
import { SignInError } from '../../connect/errors.ts';
import { withoutTrailingSlash } from '../../shared/url.ts';
import { sha256Hex } from '../shared/digest.ts';
import { ProxyError } from '../shared/errors.ts';
import { SingleFlight } from '../shared/single-flight.ts';
import { ConnectProvider } from './connect-provider.ts';
import { refused, ShopperVerificationError, unavailable } from './verification-error.ts';
import { readTextLimited } from '../upstream/transport.ts';
import type { ProxyStore } from '../stores/contract.ts';

export { ShopperVerificationError, type ShopperVerificationCode } from './verification-error.ts';

/** What the page has after sign-in: `user.idToken` and `user.accessToken`. */
export interface ShopperTokens {
  idToken: string;
  accessToken: string;
}

/** A shopper Connect vouched for, to this merchant's app. */
export interface VerifiedShopper {
  /** Connect's subject identifier. */
  sub: string;
  username?: string;
  /** The wallet address to reward. */
  loyaltyId: string;
  /** When the tokens run out, in milliseconds since the epoch. */
  expiresAt: number;
}

export interface SigninSettings {
  connectUrl: string;
  /** The merchant's own app id at Connect: the ID token's audience must be this. */
  clientId: string;
  timeoutMs: number;
  fetch: typeof fetch;
  store: ProxyStore;
}

/** The header that carries the ID token beside `Authorization: Bearer <access token>`. */
export const ID_TOKEN_HEADER = 'x-loyalty-id-token';

export const MAX_TOKEN_LENGTH = 4096;
export const MAX_ID_TOKEN_LENGTH = 8192;
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;
export const MAX_PROFILE_TTL_MS = 60 * 60_000;
export const REFUSED_TTL_MS = 60_000;
/** A /me answer is a few hundred bytes. */
const MAX_PROFILE_BYTES = 64 * 1024;

/** The token's remaining lifetime as /me reports it (`exp` in seconds, or `expires_in`), if it does. */
function reportedLifetimeMs(profile: Record<string, unknown>, now: number): number | undefined {
  if (typeof profile.exp === 'number') return profile.exp * 1000 - now;
  if (typeof profile.expires_in === 'number') return profile.expires_in * 1000;
  if (typeof profile.expires_in === 'string' && /^\d+$/.test(profile.expires_in))
    return Number(profile.expires_in) * 1000;
  return undefined;
}

function checkToken(value: unknown, maxLength: number, name: string): string {
  if (value === undefined || value === null || value === '')
    throw new ShopperVerificationError('signin_required', `The ${name} is missing: sign in first.`);
  if (typeof value !== 'string' || value.length > maxLength || !TOKEN_CHARACTERS.test(value))
    throw refused(`The ${name} is malformed.`);
  return value;
}

/** What the store keeps per access token: the /me answer, or why the token was refused. */
interface KeptProfile {
  refused?: string;
  sub?: string;
  loyaltyId?: string;
  username?: string;
  /** Milliseconds since the epoch, when /me reported it. */
  expiresAt?: number;
}

/** What to keep of a /me answer, and for how long; or why it does not vouch for the ID token's shopper. */
function keptProfile(
  profile: Record<string, unknown>,
  claims: VerifiedIdToken,
): { refused: string } | { refused?: undefined; profile: KeptProfile; ttl: number } {
  // A profile that does not say whose it is cannot be tied to the ID token's shopper.
  const sub = typeof profile.sub === 'string' && profile.sub.length <= 256 ? profile.sub : undefined;
  const loyaltyId =
    typeof profile.loyaltyId === 'string' && profile.loyaltyId.length <= 256 ? profile.loyaltyId : undefined;
  const username = typeof profile.username === 'string' ? profile.username.slice(0, 256) : undefined;
  const now = Date.now();
  const reported = reportedLifetimeMs(profile, now);
  const ttl = Math.min(reported ?? Number.POSITIVE_INFINITY, (claims.exp ?? 0) * 1000 - now, MAX_PROFILE_TTL_MS);
  if (!sub) return { refused: 'Connect answered /me without saying whose profile it is (sub).' };
  if (!loyaltyId)
    return { refused: 'The sign-in was made without the profile scope: Connect gives no loyalty ID for it.' };
  if (ttl <= 0) return { refused: 'The access token has expired.' };
  return {
    profile: { sub, loyaltyId, username, ...(reported === undefined ? {} : { expiresAt: now + reported }) },
    ttl,
  };
}

export class SigninChecker {
  private readonly lookups = new SingleFlight<string>();
  private readonly connect: ConnectProvider;

  constructor(private readonly settings: SigninSettings) {
    this.connect = new ConnectProvider(settings);
  }

  /**
   * The shopper of a coupon request: `Authorization: Bearer <access token>` and the ID token in
   * `X-Loyalty-Id-Token`. 401 when either is missing or refused.
   */
  async shopper(request: Request, beforeAsking?: () => Promise<void>): Promise<VerifiedShopper> {
    const header = request.headers.get('authorization');
    if (!header) throw new ShopperVerificationError('signin_required', 'Sign in to request a coupon.');
    const accessToken = /^Bearer +(\S+)$/i.exec(header.trim())?.[1];
    if (!accessToken) throw refused('The Authorization header must be "Bearer <access token>".');
    const idToken = request.headers.get(ID_TOKEN_HEADER)?.trim();
    if (!idToken)
      throw refused('Send the ID token of the sign-in in the X-Loyalty-Id-Token header, beside the access token.');
    return this.verify({ idToken, accessToken }, beforeAsking);
  }

  /**
   * Verifies both tokens. `beforeAsking` runs only when Connect's /me must be asked (an access token
   * not seen lately), so that a flood of tokens can be rate limited before each one costs a call.
   */
  async verify(
    tokens: Partial<ShopperTokens> | null | undefined,
    beforeAsking?: () => Promise<void>,
  ): Promise<VerifiedShopper> {
    const accessToken = checkToken(tokens?.accessToken, MAX_TOKEN_LENGTH, 'access token');
    const idToken = checkToken(tokens?.idToken, MAX_ID_TOKEN_LENGTH, 'ID token');
    const claims = await this.checkIdToken(idToken, accessToken);
    // v2: answers kept with their sub; an older proxy's entries (without it) are not read as refusals.
    const storeKey = `me:v2:${await sha256Hex(accessToken)}`;
    let answer = await this.settings.store.get(storeKey);
    if (answer === undefined) {
      await beforeAsking?.();
      answer = await this.lookups.run(storeKey, () => this.askConnect(accessToken, storeKey, claims));
    }
    const kept = JSON.parse(answer) as KeptProfile;
    if (kept.refused !== undefined || !kept.sub || !kept.loyaltyId)
      throw refused(kept.refused ?? 'Connect refused the access token.');
    if (kept.sub !== claims.sub) throw refused('The access token belongs to another shopper than the ID token.');
    const expiresAt = Math.min((claims.exp ?? 0) * 1000, kept.expiresAt ?? Number.POSITIVE_INFINITY);
    const shopper: VerifiedShopper = { sub: kept.sub, loyaltyId: kept.loyaltyId, expiresAt };
    if (kept.username !== undefined) shopper.username = kept.username;
    return shopper;
  }

  private async checkIdToken(idToken: string, accessToken: string): Promise<VerifiedIdToken> {
    try {
      const { checked, keys } = await this.connect.provider();
      return await verifyIdToken(idToken, {
        issuer: checked.issuer,
        clientId: this.settings.clientId,
        announcedAlgorithms: checked.algorithms,
        keys,
        // The page that made the sign-in request checked the nonce; this server never saw the request.
        nonceSecret: null,
        accessToken,
      });
    } catch (error) {
      if (error instanceof ProxyError) throw error;
      if (error instanceof SignInError && error.code === 'invalid_token') throw refused(error.message);
      throw unavailable(
        error instanceof SignInError ? error.message : 'Connect could not be reached to check the sign-in.',
      );
    }
  }

  private async askConnect(token: string, storeKey: string, claims: VerifiedIdToken): Promise<string> {
    const url = new URL('me', `${withoutTrailingSlash(this.settings.connectUrl)}/`);
    url.searchParams.set('access_token', token);
    let response: Response;
    try {
      response = await this.settings.fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw unavailable('Connect could not be reached to check the sign-in.');
    }
    const refusal = async (reason: string) => {
      const answer = JSON.stringify({ refused: reason } satisfies KeptProfile);
      await this.settings.store.set(storeKey, answer, REFUSED_TTL_MS);
      return answer;
    };
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return refusal('Connect does not know the access token (expired or revoked).');
    }
    let profile: Record<string, unknown> | undefined;
    try {
      profile = JSON.parse(await readTextLimited(response, MAX_PROFILE_BYTES)) as Record<string, unknown> | undefined;
    } catch {
      profile = undefined;
    }
    if (!response.ok || !profile || typeof profile !== 'object') {
      throw unavailable(`Connect answered the sign-in check with HTTP ${response.status}.`);
    }
    const kept = keptProfile(profile, claims);
    if (kept.refused !== undefined) return refusal(kept.refused);
    const answer = JSON.stringify(kept.profile);
    await this.settings.store.set(storeKey, answer, kept.ttl);
    return answer;
  }
}
