/**
 * The first page of data each Marketing element shows, requested by the script tag as soon as it
 * sees the element or a mount of it, in parallel with the element's code (src/marketing/prefetch.ts):
 * the element's own identical request then takes that answer. Only for an element that reads through
 * the merchant's endpoint (the head's `<meta name="loyalty-endpoint">` or the default): an `endpoint`
 * written on the element or its mount is body content, which decides nothing before the element runs.
 */
import { prefetchRead } from './marketing/prefetch.ts';
import { resolveEndpoint } from './shared/config.ts';
import { CAROUSEL_PAGE_SIZE, DIRECTORY_PAGE_SIZE, pageSizeAttribute } from './shared/page-size.ts';

/** Reads one of the element's attributes by its name on the element: its own, or its mount's `data-` one. */
type Attributes = (name: string) => string | null;

/** The request an element makes first, exactly as the element will make it; undefined when none. */
function firstRequest(
  tag: string,
  read: Attributes,
): [operation: string, variables: Record<string, string | number | undefined>] | undefined {
  const trimmed = (name: string): string | undefined => read(name)?.trim() || undefined;
  switch (tag) {
    case 'campaign-carousel':
      return [
        'campaigns',
        {
          businessAccountId: trimmed('business-account-id'),
          limit: pageSizeAttribute(read('limit'), CAROUSEL_PAGE_SIZE),
        },
      ];
    case 'business-directory':
      return [
        'businessAccounts',
        { category: trimmed('category'), limit: pageSizeAttribute(read('limit'), DIRECTORY_PAGE_SIZE) },
      ];
    case 'coupon-claim': {
      const id = trimmed('campaign-id');
      return id ? ['campaign', { id }] : undefined;
    }
    default:
      return undefined;
  }
}

/** Requests the first page of a `tag` element now, unless its code is already here or it names its own endpoint. */
function prefetch(tag: string, read: Attributes): void {
  if (customElements.get(tag) || read('endpoint')?.trim()) return;
  const request = firstRequest(tag, read);
  if (request) prefetchRead(resolveEndpoint(undefined), ...request);
}

/** Requests an element's first page now (see `prefetch`). */
export function prefetchFirstPage(element: Element): void {
  prefetch(element.localName, (name) => element.getAttribute(name));
}

/**
 * Requests the first page of the `tag` element a mount becomes, from the `data-` attributes it will be
 * given (src/mounts.ts): `data-limit` is its `limit`.
 */
export function prefetchMountFirstPage(mount: Element, tag: string): void {
  prefetch(tag, (name) => mount.getAttribute(`data-${name}`));
}
