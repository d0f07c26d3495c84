/**
 * Reading the proxy's answers: the one place that knows the wire shape (the GraphQL `data` of its
 * persisted documents, and its `{ error: { code, message } }` bodies). Everything from the network
 * is checked here: a wrong type becomes a clear `MarketingError('invalid_response')` naming the
 * field, never a crash further on, and every URL goes through `safeUrl()` so only `https:` (or local
 * `http:`) ever reaches a page.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { MarketingError } from './errors.ts';
import type { BusinessAccount, Campaign, CampaignImage, CampaignObjective, Coupon, Page } from './types.ts';

type Json = Record<string, unknown>;
/** Checks one value of an answer; `path` names it in the error (`campaigns.items[0].content.title`). */
type Check<T> = (value: unknown, path: string) => T;

function invalid(path: string, expected: string): never {
  throw new MarketingError(
    'invalid_response',
    200,
    `The Marketing response is not usable: ${path} should be ${expected}.`,
  );
}

const absent = (value: unknown): value is null | undefined => value === undefined || value === null;

const object: Check<Json> = (value, path) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(path, 'an object');
  return value as Json;
};

const string: Check<string> = (value, path) => {
  if (typeof value !== 'string') invalid(path, 'a string');
  return value;
};

/** Absent or null gives ''; anything but a string is refused. */
const text: Check<string> = (value, path) => (absent(value) ? '' : string(value, path));

const list: Check<unknown[]> = (value, path) => {
  if (!Array.isArray(value)) invalid(path, 'a list');
  return value;
};

/** `{ url }` objects give their URL when safe; anything unusable gives undefined. */
const imageUrl: Check<string | undefined> = (value, path) =>
  absent(value) ? undefined : safeUrl(object(value, path).url);

/** `parent[key]`, checked, named `path.key`. */
const at = <T>(parent: Json, path: string, key: string, check: Check<T>): T => check(parent[key], `${path}.${key}`);

/** The object at `parent[key]`, or null when it is absent. */
const optionalObject = (parent: Json, path: string, key: string): Json | null =>
  absent(parent[key]) ? null : at(parent, path, key, object);

/** Several text fields of one object at once, each '' when absent. */
function texts<const K extends string>(parent: Json, path: string, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, at(parent, path, key, text)])) as Record<K, string>;
}

/** A list's entries, each checked and named by its index. */
const entries = <T>(value: unknown[], path: string, check: Check<T>): T[] =>
  value.map((entry, index) => check(entry, `${path}[${index}]`));

function page<T>(value: unknown, path: string, item: Check<T>): Page<T> {
  const body = object(value, path);
  const token = body.nextToken;
  return {
    items: entries(at(body, path, 'items', list), `${path}.items`, item),
    nextToken: absent(token) || token === '' ? null : at(body, path, 'nextToken', string),
  };
}

const IMAGE_ALIAS = /^img([1-9]\d{0,4})$/;

function objectiveOf(content: Json, path: string): CampaignObjective {
  const raw = optionalObject(content, path, 'objective');
  if (!raw) return { kind: 'other', typename: '' };
  path += '.objective';
  const typename = at(raw, path, '__typename', text);
  if (typename !== 'CouponObjective') return { kind: 'other', typename };
  const price = raw.price;
  return {
    kind: 'coupon',
    price: typeof price === 'number' ? String(price) : absent(price) ? null : at(raw, path, 'price', string),
  };
}

export function toCampaign(value: unknown, path = 'campaign'): Campaign {
  const campaign = object(value, path);
  const content = at(campaign, path, 'content', object);
  const contentPath = `${path}.content`;
  const images: CampaignImage[] = [];
  // The proxy asks for the image at fixed widths as aliases (`img320`, `img640`, …); we read
  // whatever widths it chose, so its list can change without touching the elements.
  for (const key of Object.keys(content)) {
    const width = IMAGE_ALIAS.exec(key)?.[1];
    const url = width && at(content, contentPath, key, imageUrl);
    if (url) images.push({ width: Number(width), url });
  }
  images.sort((a, b) => a.width - b.width);
  return {
    id: at(campaign, path, 'id', string),
    businessAccountId: at(campaign, path, 'businessAccountId', text),
    ...texts(content, contentPath, ['title', 'subtitle', 'description']),
    images,
    objective: objectiveOf(content, contentPath),
  };
}

const customProperty: Check<{ key: string; value: string }> = (value, path) => {
  const property = object(value, path);
  return { key: at(property, path, 'key', string), value: at(property, path, 'value', text) };
};

export function toBusinessAccount(value: unknown, path = 'businessAccount'): BusinessAccount {
  const account = object(value, path);
  const pending = account.pending;
  if (!absent(pending) && typeof pending !== 'boolean') invalid(`${path}.pending`, 'a boolean');
  const address = optionalObject(account, path, 'address');
  const properties = account.customProperties;
  return {
    ...texts(account, path, ['id', 'description', 'category', 'phoneNumber']),
    name: at(account, path, 'name', string),
    websiteUrl: safeUrl(at(account, path, 'websiteUrl', text)),
    logoUrl: at(account, path, 'logo', imageUrl),
    address: address && texts(address, `${path}.address`, ['streetAddress', 'postalCode', 'city']),
    // Only an explicit `false` counts as approved: an account we cannot classify is not shown.
    pending: pending !== false,
    customProperties: absent(properties)
      ? []
      : entries(at(account, path, 'customProperties', list), `${path}.customProperties`, customProperty),
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
