/**
 * The first page of data each Marketing element shows, requested by the script tag as soon as it
 * sees the element, in parallel with the element's code (src/marketing/prefetch.ts): the element's
 * own identical request then takes that answer. Only for an element that reads through the
 * merchant's endpoint (the head's `<meta name="loyalty-endpoint">` or the default): an `endpoint`
 * written on the element itself is body content, which decides nothing before the element runs.
 */
import { prefetchRead } from './marketing/prefetch.ts';
import { resolveEndpoint } from './shared/config.ts';
import { CAROUSEL_PAGE_SIZE, DIRECTORY_PAGE_SIZE, pageSizeAttribute } from './shared/page-size.ts';

const trimmed = (element: Element, name: string): string | undefined => element.getAttribute(name)?.trim() || undefined;

/** The request an element makes first, exactly as the element will make it; undefined when none. */
function firstRequest(
  element: Element,
): [operation: string, variables: Record<string, string | number | undefined>] | undefined {
  switch (element.localName) {
    case 'campaign-carousel':
      return [
        'campaigns',
        {
          businessAccountId: trimmed(element, 'business-account-id'),
          limit: pageSizeAttribute(element, CAROUSEL_PAGE_SIZE),
        },
      ];
    case 'business-directory':
      return [
        'businessAccounts',
        { category: trimmed(element, 'category'), limit: pageSizeAttribute(element, DIRECTORY_PAGE_SIZE) },
      ];
    case 'coupon-claim': {
      const id = trimmed(element, 'campaign-id');
      return id ? ['campaign', { id }] : undefined;
    }
    default:
      return undefined;
  }
}

/** Requests the element's first page now, unless its code is already here or it names its own endpoint. */
export function prefetchFirstPage(element: Element): void {
  if (customElements.get(element.localName) || trimmed(element, 'endpoint')) return;
  const request = firstRequest(element);
  if (request) prefetchRead(resolveEndpoint(undefined), ...request);
}
