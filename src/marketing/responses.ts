/**
 * Reading the proxy's answers: the one place that knows the wire shape (the GraphQL `data` of its
 * persisted documents, and its `{ error: { code, message } }` bodies). Everything from the network
 * is checked here: a wrong type becomes a clear `MarketingError('invalid_response')` naming the
 * field, never a crash further on, and every URL goes through `safeUrl()` so only `https:` (or local
 * `http:`) ever reaches a page.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { MarketingError } from './errors.ts';
import type { Address, BusinessAccount, Campaign, CampaignImage, CampaignObjective, Coupon, Page } from './types.ts';

type Json = Record<string, unknown>;

function invalid(path: string, expected: string): never {
  throw new MarketingError(
    'invalid_response',
    200,
    `The Marketing response is not usable: ${path} should be ${expected}.`,
  );
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(path, 'an object');
  return value as Json;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') invalid(path, 'a string');
  return value;
}

/** Absent or null gives ''; anything but a string is refused. */
function text(value: unknown, path: string): string {
  return value === undefined || value === null ? '' : string(value, path);
}

function list(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) invalid(path, 'a list');
  return value;
}

/** `{ url }` objects give their URL when safe; anything unusable gives undefined. */
function imageUrl(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return safeUrl(object(value, path).url);
}

function page<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): Page<T> {
  const body = object(value, path);
  const token = body.nextToken;
  return {
    items: list(body.items, `${path}.items`).map((entry, index) => item(entry, `${path}.items[${index}]`)),
    nextToken: token === undefined || token === null || token === '' ? null : string(token, `${path}.nextToken`),
  };
}

const IMAGE_ALIAS = /^img([1-9]\d{0,4})$/;

export function toCampaign(value: unknown, path = 'campaign'): Campaign {
  const campaign = object(value, path);
  const content = object(campaign.content, `${path}.content`);
  const images: CampaignImage[] = [];
  // The proxy asks for the image at fixed widths as aliases (`img320`, `img640`, …); we read
  // whatever widths it chose, so its list can change without touching the elements.
  for (const [key, image] of Object.entries(content)) {
    const width = IMAGE_ALIAS.exec(key)?.[1];
    const url = width ? imageUrl(image, `${path}.content.${key}`) : undefined;
    if (width && url) images.push({ width: Number(width), url });
  }
  images.sort((a, b) => a.width - b.width);
  let objective: CampaignObjective = { kind: 'other', typename: '' };
  if (content.objective !== undefined && content.objective !== null) {
    const raw = object(content.objective, `${path}.content.objective`);
    const typename = text(raw.__typename, `${path}.content.objective.__typename`);
    if (typename === 'CouponObjective') {
      const price = raw.price;
      objective = {
        kind: 'coupon',
        price:
          typeof price === 'number'
            ? String(price)
            : price === undefined || price === null
              ? null
              : string(price, `${path}.content.objective.price`),
      };
    } else {
      objective = { kind: 'other', typename };
    }
  }
  return {
    id: string(campaign.id, `${path}.id`),
    businessAccountId: text(campaign.businessAccountId, `${path}.businessAccountId`),
    title: text(content.title, `${path}.content.title`),
    subtitle: text(content.subtitle, `${path}.content.subtitle`),
    description: text(content.description, `${path}.content.description`),
    images,
    objective,
  };
}

export function toBusinessAccount(value: unknown, path = 'businessAccount'): BusinessAccount {
  const account = object(value, path);
  const pending = account.pending;
  if (pending !== undefined && pending !== null && typeof pending !== 'boolean')
    invalid(`${path}.pending`, 'a boolean');
  let address: Address | null = null;
  if (account.address !== undefined && account.address !== null) {
    const raw = object(account.address, `${path}.address`);
    address = {
      streetAddress: text(raw.streetAddress, `${path}.address.streetAddress`),
      postalCode: text(raw.postalCode, `${path}.address.postalCode`),
      city: text(raw.city, `${path}.address.city`),
    };
  }
  const properties = account.customProperties;
  return {
    id: text(account.id, `${path}.id`),
    name: string(account.name, `${path}.name`),
    description: text(account.description, `${path}.description`),
    category: text(account.category, `${path}.category`),
    phoneNumber: text(account.phoneNumber, `${path}.phoneNumber`),
    websiteUrl: safeUrl(text(account.websiteUrl, `${path}.websiteUrl`)),
    logoUrl: imageUrl(account.logo, `${path}.logo`),
    address,
    // Only an explicit `false` counts as approved: an account we cannot classify is not shown.
    pending: pending !== false,
    customProperties: (properties === undefined || properties === null
      ? []
      : list(properties, `${path}.customProperties`)
    ).map((entry, index) => {
      const property = object(entry, `${path}.customProperties[${index}]`);
      return {
        key: string(property.key, `${path}.customProperties[${index}].key`),
        value: text(property.value, `${path}.customProperties[${index}].value`),
      };
    }),
  };
}

/** Reads the `data` object of a proxy response body. */
export function dataOf(body: unknown): Json {
  return object(object(body, 'body').data, 'data');
}

export const parseCampaignPage = (data: Json): Page<Campaign> => page(data.campaigns, 'campaigns', toCampaign);

export const parseBusinessAccountPage = (data: Json): Page<BusinessAccount> =>
  page(data.businessAccounts, 'businessAccounts', toBusinessAccount);

/** `campaign(id)` gives null for an unknown id: that is a 404 for the element, not a bad response. */
export function parseCampaign(data: Json): Campaign {
  if (data.campaign === null) throw new MarketingError('not_found', 404, 'No campaign has this id.');
  return toCampaign(data.campaign);
}

export function parseCoupon(data: Json): Coupon {
  const payload = object(data.requestCoupon, 'requestCoupon');
  const coupon = object(payload.coupon, 'requestCoupon.coupon');
  const code = string(coupon.code, 'requestCoupon.coupon.code');
  if (!code) invalid('requestCoupon.coupon.code', 'a non-empty string');
  return { code };
}

/** Codes for statuses whose error body we could not read (a proxy's own body is preferred). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  502: 'bad_gateway',
  504: 'gateway_timeout',
};

export function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'http_error');
}

/** `Retry-After` as seconds: either a number of seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date names its day and month; anything else ("-5", "1.5") is not one, whatever Date.parse thinks.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The `data` of one proxy answer (`payload` is its body parsed as JSON, undefined when it was not
 * JSON), or the `MarketingError` it stands for: the proxy's own `{ error: { code, message } }` when it
 * sent one, else a code for the HTTP status, with `Retry-After` in seconds when given.
 */
export function readAnswer(response: Response, payload: unknown): Json {
  const problem = (payload as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (!response.ok || problem) {
    throw new MarketingError(
      typeof problem?.code === 'string' ? problem.code : codeForStatus(response.status),
      response.status,
      typeof problem?.message === 'string'
        ? problem.message
        : `The loyalty service answered with HTTP ${response.status}.`,
      parseRetryAfter(response.headers.get('retry-after')),
    );
  }
  if (payload === undefined)
    throw new MarketingError('invalid_response', response.status, 'The Marketing response is not JSON.');
  return dataOf(payload);
}
