/**
 * The typed view models the elements see, and the one place that knows the proxy's wire shape
 * (the GraphQL `data` of its persisted documents). Everything from the network is checked here:
 * a wrong type becomes a clear `MarketingError('invalid_response')`, never a crash further on, and
 * every URL goes through `safeUrl()` so only `https:` (or local `http:`) ever reaches a page.
 */
import { safeUrl } from '../shared/safe-url.ts';
import { MarketingError } from './errors.ts';

/** One rendition of a campaign image. Every URL here has passed `safeUrl()`. */
export interface CampaignImage {
  width: number;
  url: string;
}

export type CampaignObjective =
  | {
      kind: 'coupon';
      /** As the API gives it (free text such as "4.99" or "10% off"), or null. */ price: string | null;
    }
  | {
      kind: 'other';
      /** The GraphQL type name, e.g. `VisitObjective`; empty when the campaign has none. */ typename: string;
    };

export interface Campaign {
  id: string;
  businessAccountId: string;
  title: string;
  subtitle: string;
  description: string;
  /** Renditions by ascending width; empty when the campaign has no (safe) image. */
  images: CampaignImage[];
  objective: CampaignObjective;
}

export interface Address {
  streetAddress: string;
  postalCode: string;
  city: string;
}

export interface BusinessAccount {
  id: string;
  name: string;
  description: string;
  category: string;
  /** As given, for display; build links with a sanitized copy. */
  phoneNumber: string;
  /** Only when safe (`https:`, or `http:` on localhost). */
  websiteUrl?: string;
  /** Only when safe. */
  logoUrl?: string;
  address: Address | null;
  pending: boolean;
  customProperties: { key: string; value: string }[];
}

export interface Coupon {
  code: string;
}

/** One page of a paginated list; `nextToken` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextToken: string | null;
}

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
