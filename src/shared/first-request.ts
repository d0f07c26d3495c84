/**
 * The request a Marketing element makes first, from its attributes, exactly as the element will make
 * it: the script tag asks it early (src/first-pages.ts) and the server renderers read it to print the
 * first page inside a mount (src/proxy/render/). No Lit and no DOM here.
 */
import { CAROUSEL_PAGE_SIZE, DIRECTORY_PAGE_SIZE, pageSizeAttribute } from './page-size.ts';

/** Reads one of the element's attributes by its name on the element: its own, or its mount's `data-` one. */
export type Attributes = (name: string) => string | null;

export type FirstRequest = [operation: string, variables: Record<string, string | number | undefined>];

/** The request a `tag` element makes first; undefined when it makes none (a coupon without a campaign). */
export function firstRequest(tag: string, read: Attributes): FirstRequest | undefined {
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
