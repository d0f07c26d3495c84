/**
 * The tags this package defines, each of them an element folder under src/elements/. The script
 * tag's loader, the space held before the elements load and the size report all read this list.
 * No Lit here: the script tag's entry reads this module too.
 */
export const ELEMENT_TAGS = [
  'loyalty-signin-button',
  'campaign-carousel',
  'coupon-claim',
  'business-directory',
] as const;

export type ElementTag = (typeof ELEMENT_TAGS)[number];
