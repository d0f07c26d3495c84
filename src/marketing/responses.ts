/**
 * Reading the proxy's answers: the one place that knows the wire shape (the GraphQL `data` of its
 * persisted documents, and its `{ error: { code, message } }` bodies). The merchant's proxy rebuilds
 * every answer into the documented shapes and types (src/proxy/upstream/normalize.ts), so the browser
 * does not check them field by field again: it keeps what guards the page. An answer that is not that
 * shape at all (no object, no list of items) is a clear `MarketingError('invalid_response')` naming
 * where, never a crash further on; a field of another type reads as empty text, which Lit shows as
 * text; and every URL goes through `safeUrl()`, so only `https:` (or local `http:`) ever reaches a page.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { MarketingError } from './errors.ts';
import type { Campaign, CampaignImage, CampaignObjective, Page } from './types.ts';

/** A JSON object of an answer, not yet read. */
export type Json = Record<string, unknown>;

/** The `invalid_response` error for an answer that is not usable at `path`. */
export function invalid(path: string, expected: string): never {
  throw new MarketingError(
    'invalid_response',
    200,
    `The Marketing response is not usable: ${path} should be ${expected}.`,
  );
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object `value` is, named `path` in the error when it is not one. */
export function object(value: unknown, path: string): Json {
  return isObject(value) ? value : invalid(path, 'an object');
}

/** Text as the proxy sends it; anything else reads as ''. */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Text that identifies or names a record: refused when it is not a string. */
export const name = (value: unknown, path: string): string =>
  typeof value === 'string' ? value : invalid(path, 'a string');

/** The URL of an `{ url }` object, when safe. */
export const urlOf = (value: unknown): string | undefined => (isObject(value) ? safeUrl(value.url) : undefined);

export function page<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): Page<T> {
  const { items, nextToken } = object(value, path);
  if (!Array.isArray(items)) invalid(`${path}.items`, 'a list');
  return {
    items: items.map((entry, index) => item(entry, `${path}.items[${index}]`)),
    nextToken: text(nextToken) || null,
  };
}

const IMAGE_ALIAS = /^img([1-9]\d{0,4})$/;

function objectiveOf(value: unknown): CampaignObjective {
  const objective = isObject(value) ? value : {};
  const typename = text(objective.__typename);
  if (typename !== 'CouponObjective') return { kind: 'other', typename };
  const { price } = objective;
  return {
    kind: 'coupon',
    price: typeof price === 'number' ? String(price) : typeof price === 'string' ? price : null,
  };
}

export function toCampaign(value: unknown, path = 'campaign'): Campaign {
  const campaign = object(value, path);
  const content = object(campaign.content, `${path}.content`);
  const images: CampaignImage[] = [];
  // The proxy asks for the image at fixed widths as aliases (`img320`, `img640`, …); we read
  // whatever widths it chose, so its list can change without touching the elements.
  for (const [key, image] of Object.entries(content)) {
    const width = IMAGE_ALIAS.exec(key)?.[1];
    const url = width && urlOf(image);
    if (url) images.push({ width: Number(width), url });
  }
  images.sort((a, b) => a.width - b.width);
  return {
    id: name(campaign.id, `${path}.id`),
    businessAccountId: text(campaign.businessAccountId),
    title: text(content.title),
    subtitle: text(content.subtitle),
    description: text(content.description),
    images,
    objective: objectiveOf(content.objective),
  };
}

/** Reads the `data` object of a proxy response body. */
export function dataOf(body: unknown): Json {
  return object(object(body, 'body').data, 'data');
}

export const parseCampaignPage = (data: Json): Page<Campaign> => page(data.campaigns, 'campaigns', toCampaign);

/** `campaign(id)` gives null for an unknown id: that is a 404 for the element, not a bad response. */
export function parseCampaign(data: Json): Campaign {
  if (data.campaign === null) throw new MarketingError('not_found', 404, 'No campaign has this id.');
  return toCampaign(data.campaign);
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
