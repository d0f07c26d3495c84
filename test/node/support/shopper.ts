/** A shopper signed in at the Connect sandbox through the real implicit flow, with the tokens a page would hold. */
import assert from 'node:assert/strict';
import { TestBrowser } from './browser.ts';
import { randomNonce, runImplicitFlow } from './connect.ts';

export interface SignedInTokens {
  idToken: string;
  accessToken: string;
}

export interface SignInAs {
  connectUrl: string;
  clientId: string;
  redirectUri: string;
  username?: string;
  password?: string;
  scope?: string;
}

export async function signInAs({
  connectUrl,
  clientId,
  redirectUri,
  username = 'demo',
  password = 'demo',
  scope = 'openid profile',
}: SignInAs): Promise<SignedInTokens> {
  const params = {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'id_token token',
    scope,
    nonce: randomNonce(),
    state: 's',
  };
  const { fragment } = await runImplicitFlow(new TestBrowser(), connectUrl, params, { username, password });
  const idToken = fragment.get('id_token');
  const accessToken = fragment.get('access_token');
  assert.ok(idToken && accessToken, 'Connect issued both tokens');
  return { idToken, accessToken };
}

/** The headers a page sends with a coupon request that needs sign-in. */
export function signedIn(tokens: SignedInTokens, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${tokens.accessToken}`, 'x-loyalty-id-token': tokens.idToken, ...extra };
}
