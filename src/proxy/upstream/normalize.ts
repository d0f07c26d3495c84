/**
 * The widgets' view of the Marketing data: every answer of a built-in operation is rebuilt here from
 * what the upstream sent, so a browser always receives the shapes src/proxy/README.md documents,
 * whatever the upstream's nullability or scalar types. Nothing from the upstream is passed on as it
 * came: only the documented fields, with the documented types.
 *
 * A record the widgets cannot show (a campaign without id or title, a business account without id or
 * name, a null list element) is dropped and counted; one bad record never fails a page.
 */
import { IMAGE_WIDTHS } from './operations.ts';

type Json = Record<string, unknown>;

/** A normalized answer: the value of the operation's field and how many records were dropped. */
export interface Normalized {
  value: unknown;
  dropped: number;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;

function objectOrUndefined(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A displayable string: absent, null or any other type gives ''. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A non-blank string, or undefined: what identifies or names a record. */
function required(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function imageOf(value: unknown): { url: string } | null {
  const url = required(objectOrUndefined(value)?.url);
  return url === undefined ? null : { url };
}

/**
 * A price the widget can show: the upstream's text as it is, a number as its decimal text (4.5 →
 * "4.5"; the currency is not part of the data), anything else null.
 */
function priceOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** `{ __typename: "CouponObjective", price }`, any other type as `{ __typename }` alone, or null. */
function objectiveOf(value: unknown): Json | null {
  const objective = objectOrUndefined(value);
  const typename = objective?.__typename;
  if (typeof typename !== 'string' || !GRAPHQL_NAME.test(typename)) return null;
  if (typename === 'CouponObjective') return { __typename: typename, price: priceOf(objective!.price) };
  return { __typename: typename };
}

/** A campaign as the widgets read it, or undefined when it has no id or no title. */
export function normalizeCampaign(value: unknown): Json | undefined {
  const campaign = objectOrUndefined(value);
  const content = objectOrUndefined(campaign?.content);
  const id = required(campaign?.id);
  const title = required(content?.title);
  if (id === undefined || title === undefined) return undefined;
  const normalized: Json = { title, subtitle: text(content!.subtitle), description: text(content!.description) };
  for (const width of IMAGE_WIDTHS) normalized[`img${width}`] = imageOf(content![`img${width}`]);
  normalized.objective = objectiveOf(content!.objective);
  return { id, businessAccountId: text(campaign!.businessAccountId), content: normalized };
}

function addressOf(value: unknown): Json | null {
  const address = objectOrUndefined(value);
  if (!address) return null;
  const normalized = {
    streetAddress: text(address.streetAddress),
    postalCode: text(address.postalCode),
    city: text(address.city),
  };
  return normalized.streetAddress || normalized.postalCode || normalized.city ? normalized : null;
}

function customPropertiesOf(value: unknown): { key: string; value: string }[] {
  if (!Array.isArray(value)) return [];
  const properties: { key: string; value: string }[] = [];
  for (const entry of value) {
    const property = objectOrUndefined(entry);
    const key = required(property?.key);
    if (key !== undefined && typeof property!.value === 'string') properties.push({ key, value: property!.value });
  }
  return properties;
}

/**
 * A business account as the widgets read it, or undefined when it has no id or no name. Only an
 * explicit `pending: false` is approved: null (or anything else) becomes `true`, so an account whose
 * approval the upstream did not say is never listed as approved.
 */
export function normalizeBusinessAccount(value: unknown): Json | undefined {
  const account = objectOrUndefined(value);
  const id = required(account?.id);
  const name = required(account?.name);
  if (id === undefined || name === undefined) return undefined;
  return {
    id,
    name,
    websiteUrl: text(account!.websiteUrl),
    address: addressOf(account!.address),
    description: text(account!.description),
    phoneNumber: text(account!.phoneNumber),
    category: text(account!.category),
    logo: imageOf(account!.logo),
    pending: account!.pending !== false,
    customProperties: customPropertiesOf(account!.customProperties),
  };
}

/** The items of one upstream page that the widgets can use, in order, and how many were dropped. */
export function usableItems(
  items: readonly unknown[],
  normalizeItem: (value: unknown) => Json | undefined,
): { items: Json[]; dropped: number } {
  const usable: Json[] = [];
  for (const item of items) {
    const normalized = normalizeItem(item);
    if (normalized) usable.push(normalized);
  }
  return { items: usable, dropped: items.length - usable.length };
}

/** `campaign(id)`: the campaign, or null (an unusable record is as good as none). */
export function normalizeSingleCampaign(value: unknown): Normalized {
  if (value === null || value === undefined) return { value: null, dropped: 0 };
  const campaign = normalizeCampaign(value);
  return { value: campaign ?? null, dropped: campaign ? 0 : 1 };
}

/**
 * `requestCoupon`: `{ coupon: { code } }` with a non-empty code, or undefined when the answer holds
 * no usable coupon (the caller decides what that means; it may have minted one).
 */
export function normalizeCoupon(value: unknown): Json | undefined {
  const code = required(objectOrUndefined(objectOrUndefined(value)?.coupon)?.code);
  return code === undefined ? undefined : { coupon: { code } };
}
