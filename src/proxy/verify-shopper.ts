/**
 * `verifyShopper()`: the merchant's server checks who a shopper is before rewarding them. The page
 * posts what it has after sign-in (`user.idToken`, `user.accessToken`); the server gets the verified
 * `{ sub, username, loyaltyId, expiresAt }` or a `ShopperVerificationError`. Never trust a loyalty ID
 * posted alone: anyone can post anyone's.
 *
 * @example
 * ```ts
 * import { verifyShopper, ShopperVerificationError } from 'loyalty-widgets/proxy';
 *
 * const shopper = await verifyShopper(
 *   { idToken: body.idToken, accessToken: body.accessToken },
 *   { connectUrl: process.env.CONNECT_URL, clientId: process.env.CONNECT_CLIENT_ID },
 * );
 * await rewards.credit(shopper.loyaltyId, points);
 * ```
 */
import { HTTP_PROTOCOLS, parseUrl } from '../shared/url.ts';
import { SigninChecker, type ShopperTokens, type VerifiedShopper } from './signin.ts';
import { createMemoryStore, type ProxyStore } from './store.ts';

export {
  ShopperVerificationError,
  type ShopperTokens,
  type VerifiedShopper,
  type ShopperVerificationCode,
} from './signin.ts';

export interface VerifyShopperOptions {
  /** `{connect_url}`, the Connect authority the button signs in with. */
  connectUrl: string;
  /** Your app's `app_id` (the button's `client-id`): tokens Connect issued to another app are refused. */
  clientId: string;
  /** Time allowed for each call to Connect; default 10 000 ms. */
  timeoutMs?: number;
  /** The fetch used to reach Connect; default the global fetch. */
  fetch?: typeof fetch;
  /** Where `/me` answers are kept until the token expires; default in memory. `createRedisStore()` shares them. */
  store?: ProxyStore;
}

function checkOptions(options: VerifyShopperOptions): { connectUrl: string; clientId: string } {
  if (!parseUrl(options?.connectUrl, HTTP_PROTOCOLS))
    throw new TypeError('verifyShopper: "connectUrl" must be an http(s) URL.');
  if (typeof options.clientId !== 'string' || options.clientId.trim() === '') {
    throw new TypeError('verifyShopper: "clientId" (your app id at Connect) is required.');
  }
  return { connectUrl: options.connectUrl, clientId: options.clientId };
}

/** A verifier for one app, with its own caches: use it when you pass your own `fetch` or `store`. */
export function createShopperVerifier(
  options: VerifyShopperOptions,
): (tokens: ShopperTokens) => Promise<VerifiedShopper> {
  const { connectUrl, clientId } = checkOptions(options);
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const checker = new SigninChecker({
    connectUrl,
    clientId,
    timeoutMs: options.timeoutMs ?? 10_000,
    fetch: fetchImpl,
    store: options.store ?? createMemoryStore(),
  });
  return (tokens) => checker.verify(tokens);
}

const verifiers = new Map<string, (tokens: ShopperTokens) => Promise<VerifiedShopper>>();

/**
 * Verifies the tokens a page posted: the ID token exactly as the browser does (signature from
 * `jwks_uri`, `iss`, `aud`/`azp` equal to `clientId`, `exp`, `iat`, `at_hash` of the access token),
 * then asks Connect's `/me` whose access token it is. Discovery, keys and `/me` answers are cached per
 * `connectUrl` and `clientId` for the life of the process. With your own `fetch` or `store`, make the
 * verifier once with `createShopperVerifier` instead: here each such call would start without the
 * discovery and key caches.
 */
export function verifyShopper(tokens: ShopperTokens, options: VerifyShopperOptions): Promise<VerifiedShopper> {
  if (options?.fetch || options?.store) return createShopperVerifier(options)(tokens);
  const { connectUrl, clientId } = checkOptions(options);
  const key = JSON.stringify([connectUrl, clientId, options.timeoutMs ?? null]);
  let verify = verifiers.get(key);
  if (!verify) verifiers.set(key, (verify = createShopperVerifier(options)));
  return verify(tokens);
}
