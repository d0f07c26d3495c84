import { withoutTrailingSlash } from '../shared/url.ts';
import { SignInError } from './errors.ts';

/** What `/me` tells about the shopper (only with the `profile` scope). */
export interface ConnectProfile {
  username?: string;
  loyaltyId?: string;
}

function shortString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
}

/**
 * Reads the profile the spec's way, `GET {authority}/me?access_token=`, only after the ID token
 * passed every check. The answer must name its `sub`, and it must be the ID token's: a profile that
 * does not say whose it is cannot be tied to the signed-in shopper.
 */
export async function fetchProfile(
  authority: string,
  accessToken: string,
  expectedSub: string,
): Promise<ConnectProfile> {
  const url = new URL(`${withoutTrailingSlash(authority)}/me`);
  url.searchParams.set('access_token', accessToken);
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
  } catch (error) {
    throw new SignInError('network', 'The wallet profile could not be read from Connect.', { cause: error });
  }
  if (response.status === 401 || response.status === 403) {
    throw new SignInError('invalid_token', `Connect refused the access token at /me (${response.status}).`);
  }
  const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
  if (!body || typeof body !== 'object') {
    throw new SignInError('network', `Connect /me answered ${response.status} without a JSON profile.`);
  }
  const { sub, username, loyaltyId } = body as Record<string, unknown>;
  if (sub !== expectedSub) {
    throw new SignInError(
      'invalid_token',
      sub === undefined
        ? 'The /me profile does not name its subject (sub).'
        : 'The /me profile belongs to another subject than the ID token.',
    );
  }
  return { username: shortString(username), loyaltyId: shortString(loyaltyId) };
}
