/** The successful authorization response: the tokens, in the fragment of the proven redirect URI. */
import type { KeyRing } from '../keys.ts';
import { fragmentRedirect, type AuthRequest } from './authorize.ts';
import { nowSeconds } from './prompt.ts';
import { signIdToken, type AccessTokens } from './tokens.ts';
import type { WalletUser } from './users.ts';

export interface IssueDeps {
  keys: KeyRing;
  tokens: AccessTokens;
  tokenLifetimeSeconds: number;
}

/** `authTime`: when the user last entered the password (a returning session keeps its first time). */
export async function authorizationResponse(
  deps: IssueDeps,
  issuer: string,
  request: AuthRequest,
  user: WalletUser,
  authTime: number,
): Promise<string> {
  const lifetime = deps.tokenLifetimeSeconds;
  const now = nowSeconds();
  // The access token's expiry is counted to the millisecond, so it lives at least the expires_in the app counts from receiving it.
  const accessToken =
    request.responseType === 'id_token token'
      ? deps.tokens.issue({
          sub: user.sub,
          appId: request.clientId,
          scope: request.scopes,
          expiresAt: Date.now() + lifetime * 1000,
        })
      : undefined;
  // Without an access token there is no /me to ask, so the profile the user allowed travels in the ID token.
  const userClaims =
    !accessToken && request.scopes.includes('profile')
      ? { username: user.username, loyaltyId: user.loyaltyId }
      : undefined;
  const idToken = await signIdToken(deps.keys, {
    issuer,
    sub: user.sub,
    audience: request.clientId,
    nonce: request.nonce,
    authTime,
    lifetimeSeconds: lifetime,
    now,
    ...(accessToken ? { accessToken } : {}),
    ...(userClaims ? { userClaims } : {}),
  });
  const fields = accessToken
    ? {
        id_token: idToken,
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: String(lifetime),
        state: request.state,
      }
    : { id_token: idToken, expires_in: String(lifetime), state: request.state };
  return fragmentRedirect(
    request.redirectUri,
    request.scopesNarrowed ? { ...fields, scope: request.scopes.join(' ') } : fields,
  );
}
