/**
 * The browser client for the merchant's Marketing proxy. It names an operation and passes variables
 * (the proxy holds the GraphQL documents and the API key), returns typed, checked results, and lets
 * several elements on one page share one network request when they ask for the same thing at once.
 * No caching beyond that: the proxy caches.
 */
import { MarketingError } from './errors.ts';
import { answerData, checkedEndpoint, read, shared } from './requests.ts';
import { object, parseCampaign, parseCampaignPage, text, invalid } from './responses.ts';
import { parseBusinessAccountPage } from './business-accounts.ts';
import { tokenOriginAllowed } from './token-origins.ts';
import { endpointUrl, post, requestBody, type Variables } from './prefetch.ts';
import type { BusinessAccount, Campaign, Coupon, Page } from './types.ts';

export interface RequestOptions {
  /** Aborts this caller's wait; the request itself is aborted only when every caller sharing it aborted. */
  signal?: AbortSignal;
  /**
   * The signed-in shopper's Connect access token, sent as `Authorization: Bearer …`, with `idToken`
   * in `X-Loyalty-Id-Token`. Only to this page's origin or an origin listed in the head's
   * `<meta name="loyalty-token-origins">`: a request to any other endpoint fails with `config`.
   */
  accessToken?: string;
  /** The sign-in's ID token, which binds the access token to the merchant's app. */
  idToken?: string;
  /** Sent as `Idempotency-Key`: the proxy answers a repeated key with the first answer. */
  idempotencyKey?: string;
}

export interface CampaignsVariables {
  businessAccountId?: string;
  limit?: number;
  nextToken?: string | null;
}

export interface BusinessAccountsVariables {
  category?: string;
  limit?: number;
  nextToken?: string | null;
}

/** The coupon a `requestCoupon` answer holds. */
export function parseCoupon(data: Record<string, unknown>): Coupon {
  const payload = object(data.requestCoupon, 'requestCoupon');
  const code = text(object(payload.coupon, 'requestCoupon.coupon').code);
  return code ? { code } : invalid('requestCoupon.coupon.code', 'a non-empty string');
}

export { endpointUrl };

/**
 * A client for one Marketing proxy endpoint. Prefer `clientFor(endpoint)`, which gives every caller on
 * the page the same client, so identical requests in flight are shared.
 *
 * @example
 * ```ts
 * import { MarketingClient, MarketingError } from 'loyalty-widgets/marketing';
 *
 * const marketing = new MarketingClient('https://shop.example/api/marketing');
 * try {
 *   const { items, nextToken } = await marketing.campaigns({ limit: 6 });
 *   const more = nextToken ? await marketing.campaigns({ limit: 6, nextToken }) : undefined;
 *   console.log(items.length + (more?.items.length ?? 0));
 * } catch (error) {
 *   if (error instanceof MarketingError && error.code === 'rate_limited') console.log(error.retryAfter);
 * }
 * ```
 */
export class MarketingClient {
  /** The proxy's absolute URL. */
  readonly endpoint: string;

  constructor(endpoint: string) {
    this.endpoint = checkedEndpoint(endpoint);
  }

  /** A page of campaigns, of one business account or of all. */
  campaigns(variables: CampaignsVariables = {}, options: RequestOptions = {}): Promise<Page<Campaign>> {
    return this.request('campaigns', { ...variables }, parseCampaignPage, options);
  }

  /** One campaign; rejects with code `not_found` when no campaign has this id. */
  campaign(id: string, options: RequestOptions = {}): Promise<Campaign> {
    return this.request('campaign', { id }, parseCampaign, options);
  }

  /** A page of business accounts as the API gives them (filter `pending` before showing them). */
  businessAccounts(
    variables: BusinessAccountsVariables = {},
    options: RequestOptions = {},
  ): Promise<Page<BusinessAccount>> {
    return this.request('businessAccounts', { ...variables }, parseBusinessAccountPage, options);
  }

  /** Mints a coupon. Pass an `idempotencyKey` so that a repeated call returns the same coupon. */
  requestCoupon(campaignId: string, options: RequestOptions = {}): Promise<Coupon> {
    return this.request('requestCoupon', { campaignId }, parseCoupon, options);
  }

  private request<T>(
    operation: string,
    variables: Variables,
    parse: (data: Record<string, unknown>) => T,
    { signal, accessToken, idToken, idempotencyKey }: RequestOptions,
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    if (idToken) headers['x-loyalty-id-token'] = idToken;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const claim = operation === 'requestCoupon';
    // A read without credentials is a GET the script tag may have sent already, or the page preloaded,
    // shared with the elements' own reads; anything with credentials, and every claim, is a POST.
    if (!claim && Object.keys(headers).length === 0) return read(this.endpoint, operation, variables, parse, signal);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if ((accessToken || idToken) && !tokenOriginAllowed(this.endpoint)) {
      const origin = new URL(this.endpoint).origin;
      return Promise.reject(
        new MarketingError(
          'config',
          0,
          `The shopper's sign-in is sent only to this page's origin or an origin listed in <meta name="loyalty-token-origins"> in the head; ${origin} is neither.`,
        ),
      );
    }
    const body = requestBody(operation, variables);
    // A mutation without an idempotency key means "a new one each time": never shared.
    const key =
      claim && !idempotencyKey
        ? undefined
        : JSON.stringify([this.endpoint, body, accessToken ?? '', idToken ?? '', idempotencyKey ?? '']);
    // A coupon is kept only from the proxy itself: a same-origin file a server answers 200 to a POST
    // (an upload) is not one, whatever it holds.
    const fromTheProxy = (response: Response): void => {
      if (claim && !fromProxy(response))
        throw new MarketingError(
          'invalid_response',
          response.status,
          `${this.endpoint} did not answer as the loyalty proxy (Loyalty-Proxy header, JSON): nothing kept.`,
        );
    };
    return shared(
      key,
      (signal) => answerData(() => post(this.endpoint, body, signal, headers), signal, fromTheProxy).then(parse),
      signal,
    );
  }
}

/** Whether an answer is the proxy's own: its `Loyalty-Proxy` header, and JSON. */
const fromProxy = (response: Response): boolean =>
  response.headers.get('loyalty-proxy') === '1' &&
  /^application\/json\s*(;|$)/i.test(response.headers.get('content-type') ?? '');

const clients = new Map<string, MarketingClient>();

/**
 * The page's one client for an endpoint (relative endpoints resolve against the page's address).
 *
 * @example
 * ```ts
 * import { clientFor } from 'loyalty-widgets/marketing';
 *
 * const marketing = clientFor('/api/marketing');
 * const campaign = await marketing.campaign('camp-harbor-beans');
 * const shops = await marketing.businessAccounts({ limit: 20 });
 * const open = shops.items.filter((shop) => !shop.pending);
 * ```
 */
export function clientFor(endpoint: string): MarketingClient {
  const client = new MarketingClient(endpoint);
  const existing = clients.get(client.endpoint);
  if (existing) return existing;
  clients.set(client.endpoint, client);
  return client;
}
