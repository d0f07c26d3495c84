/**
 * Optional shopper sign-in for coupon requests: the browser sends the shopper's Connect access token
 * as `Authorization: Bearer …`, and the proxy asks Connect's `/me` who it belongs to. Answers are kept
 * in the store under a SHA-256 of the token (never the token itself): good ones until the token
 * expires (at most an hour), refused ones for a minute, so a flood of bogus tokens cannot flood Connect.
 */
import { sha256Hex } from './digest.ts';
import { ProxyError } from './errors.ts';
import { SingleFlight } from './single-flight.ts';
import { readTextLimited } from './upstream.ts';
import type { ProxyStore } from './store.ts';

export interface Shopper {
  loyaltyId: string;
  username?: string;
}

export interface SigninSettings {
  connectUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
  store: ProxyStore;
}

const MAX_TOKEN_LENGTH = 4096;
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;
const DEFAULT_PROFILE_TTL_MS = 5 * 60_000;
const MAX_PROFILE_TTL_MS = 60 * 60_000;
const REFUSED_TTL_MS = 60_000;
/** A /me answer is a few hundred bytes. */
const MAX_PROFILE_BYTES = 64 * 1024;

const challenge = { 'www-authenticate': 'Bearer realm="loyalty-proxy"' };

function invalidToken(message: string): ProxyError {
  return new ProxyError(401, 'invalid_token', message, { 'www-authenticate': 'Bearer realm="loyalty-proxy", error="invalid_token"' });
}

/** The token's remaining lifetime as /me reports it (`exp` in seconds, or `expires_in`), if it does. */
function lifetimeMs(profile: Record<string, unknown>, now: number): number {
  let ms: number | undefined;
  if (typeof profile.exp === 'number') ms = profile.exp * 1000 - now;
  else if (typeof profile.expires_in === 'number') ms = profile.expires_in * 1000;
  else if (typeof profile.expires_in === 'string' && /^\d+$/.test(profile.expires_in)) ms = Number(profile.expires_in) * 1000;
  return Math.min(ms ?? DEFAULT_PROFILE_TTL_MS, MAX_PROFILE_TTL_MS);
}

export class SigninChecker {
  private readonly lookups = new SingleFlight<string>();

  constructor(private readonly settings: SigninSettings) {}

  /**
   * The shopper who owns the request's bearer token; 401 when it is missing or Connect refuses it.
   * `beforeAsking` runs only when Connect must be asked (a token not seen lately), so that a flood of
   * made-up tokens can be rate limited before each one costs a call to Connect.
   */
  async shopper(request: Request, beforeAsking?: () => Promise<void>): Promise<Shopper> {
    const header = request.headers.get('authorization');
    if (!header) throw new ProxyError(401, 'signin_required', 'Sign in to request a coupon.', challenge);
    const match = /^Bearer +(\S+)$/i.exec(header.trim());
    const token = match?.[1];
    if (!token || token.length > MAX_TOKEN_LENGTH || !TOKEN_CHARACTERS.test(token)) {
      throw invalidToken('The Authorization header must be "Bearer <access token>".');
    }
    const storeKey = `me:${await sha256Hex(token)}`;
    let answer = await this.settings.store.get(storeKey);
    if (answer === undefined) {
      await beforeAsking?.();
      answer = await this.lookups.run(storeKey, () => this.askConnect(token, storeKey));
    }
    const parsed = JSON.parse(answer) as { loyaltyId?: string; username?: string };
    if (!parsed.loyaltyId) throw invalidToken('The access token is not valid (expired, revoked, or without the profile scope).');
    return parsed.username === undefined ? { loyaltyId: parsed.loyaltyId } : { loyaltyId: parsed.loyaltyId, username: parsed.username };
  }

  private async askConnect(token: string, storeKey: string): Promise<string> {
    const url = new URL('me', this.settings.connectUrl.endsWith('/') ? this.settings.connectUrl : `${this.settings.connectUrl}/`);
    url.searchParams.set('access_token', token);
    let response: Response;
    try {
      response = await this.settings.fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw new ProxyError(502, 'connect_unavailable', 'Connect could not be reached to check the sign-in.');
    }
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      const refused = JSON.stringify({});
      await this.settings.store.set(storeKey, refused, REFUSED_TTL_MS);
      return refused;
    }
    let profile: Record<string, unknown> | undefined;
    try {
      profile = JSON.parse(await readTextLimited(response, MAX_PROFILE_BYTES)) as Record<string, unknown> | undefined;
    } catch {
      profile = undefined;
    }
    if (!response.ok || !profile || typeof profile !== 'object') {
      throw new ProxyError(502, 'connect_unavailable', `Connect answered the sign-in check with HTTP ${response.status}.`);
    }
    const loyaltyId = typeof profile.loyaltyId === 'string' && profile.loyaltyId.length <= 256 ? profile.loyaltyId : undefined;
    const username = typeof profile.username === 'string' ? profile.username.slice(0, 256) : undefined;
    const ttl = loyaltyId ? lifetimeMs(profile, Date.now()) : 0;
    if (!loyaltyId || ttl <= 0) {
      const refused = JSON.stringify({});
      await this.settings.store.set(storeKey, refused, REFUSED_TTL_MS);
      return refused;
    }
    const answer = JSON.stringify({ loyaltyId, username });
    await this.settings.store.set(storeKey, answer, ttl);
    return answer;
  }
}
