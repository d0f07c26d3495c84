/**
 * `verifyShopper()`: the merchant's server checks who a shopper is before rewarding them. The page
 * posts what it has after sign-in (`user.idToken`, `user.accessToken`); the server gets the verified
 * `{ sub, username, loyaltyId, expiresAt }` or a `ShopperVerificationError`. Never trust a loyalty ID
 * posted alone: anyone can post anyone's.
 */
import { HTTP_PROTOCOLS, parseUrl } from '../../shared/url.ts';
import { SigninChecker, type ShopperTokens, type VerifiedShopper } from './signin.ts';
import type { ProxyStore } from '../stores/contract.ts';
import { createMemoryStore } from '../stores/memory.ts';

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

/**
 * A verifier for one app, with its own caches: use it when you pass your own `fetch` or `store`.
 *
 * @example
 * ```ts
 * import { createShopperVerifier } from 'loyalty-widgets/proxy';
 * import { createRedisStore } from 'loyalty-widgets/proxy/redis';
 *
 * const verify = createShopperVerifier({
 *   connectUrl: 'https://connect.example',
 *   clientId: 'YOUR_APP_ID',
 *   store: createRedisStore({ url: process.env.REDIS_URL! }),
 * });
 * const shopper = await verify({ idToken: body.idToken, accessToken: body.accessToken });
 * ```
 */
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

type Verifier = (tokens: ShopperTokens) => Promise<VerifiedShopper>;

/** Stands for "none given" where a fetch or a store keys the verifiers below. */
const DEFAULT = {};
/** verifyShopper's verifiers, by fetch, then store, then settings: one discovery and key cache for each. */
const verifiers = new WeakMap<object, WeakMap<object, Map<string, Verifier>>>();

function sharedVerifier(options: VerifyShopperOptions): Verifier {
  const { connectUrl, clientId } = checkOptions(options);
  let byStore = verifiers.get(options.fetch ?? DEFAULT);
  if (!byStore) verifiers.set(options.fetch ?? DEFAULT, (byStore = new WeakMap()));
  let bySettings = byStore.get(options.store ?? DEFAULT);
  if (!bySettings) byStore.set(options.store ?? DEFAULT, (bySettings = new Map()));
  const key = JSON.stringify([connectUrl, clientId, options.timeoutMs ?? null]);
  let verify = bySettings.get(key);
  if (!verify) bySettings.set(key, (verify = createShopperVerifier(options)));
  return verify;
}

/**
 * Verifies the tokens a page posted: the ID token exactly as the browser does (signature from
 * `jwks_uri`, `iss`, `aud`/`azp` equal to `clientId`, `exp`, `iat`, `at_hash` of the access token),
 * then asks Connect's `/me` whose access token it is. Discovery, keys and `/me` answers are cached per
 * `connectUrl`, `clientId`, `fetch` and `store` for the life of the process (pass the same store
 * object each time), with the same 30 s cooldown on unknown key ids, so tokens naming made-up keys
 * cannot make each check a request to Connect.
 *
 * @example
 * ```ts
 * import { verifyShopper, ShopperVerificationError } from 'loyalty-widgets/proxy';
 *
 * // In your route for POST /rewards, with the body the page posted: { idToken, accessToken }.
 * try {
 *   const shopper = await verifyShopper(
 *     { idToken: body.idToken, accessToken: body.accessToken },
 *     { connectUrl: 'https://connect.example', clientId: 'YOUR_APP_ID' },
 *   );
 *   console.log(`reward ${shopper.loyaltyId}`); // the wallet address, checked with Connect
 * } catch (error) {
 *   if (!(error instanceof ShopperVerificationError)) throw error;
 *   // error.status is 401 (sign in again) or 502 (Connect unreachable); error.code says which.
 * }
 * ```
 */
export function verifyShopper(tokens: ShopperTokens, options: VerifyShopperOptions): Promise<VerifiedShopper> {
  return sharedVerifier(options)(tokens);
}
