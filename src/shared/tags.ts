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
  'loyalty-launcher',
] as const;

export type ElementTag = (typeof ELEMENT_TAGS)[number];

/**
 * The elements whose first page, printed, lies over the space the element holds until its code
 * arrives: the ones whose first page the browser may print after the page's first paint with nothing
 * moving (src/first-page.ts, from an answer the head preloaded).
 */
export const FIRST_PAGE_OVER_HELD_SPACE = [
  'campaign-carousel',
  'coupon-claim',
] as const satisfies readonly ElementTag[];

/**
 * The elements whose first page, printed, takes its place in the flow instead, laid out as the element
 * lays out its content (a directory's cards are as tall as their text makes them): the mount then
 * holds nothing of its own (src/reserved-space.ts), and the browser prints none after the first paint.
 */
export const FIRST_PAGE_IN_FLOW = ['business-directory'] as const satisfies readonly Exclude<
  ElementTag,
  (typeof FIRST_PAGE_OVER_HELD_SPACE)[number]
>[];

export { FIRST_PAGE_ATTRIBUTE, MOUNT_ATTRIBUTE } from './mount-attributes.ts';
import { FIRST_PAGE_ATTRIBUTE, MOUNT_ATTRIBUTE } from './mount-attributes.ts';

/** The tag a mount names (any case, spaces around it ignored); undefined when it names none of ours. */
export function mountedTag(mount: Element): ElementTag | undefined {
  const name = mount.getAttribute(MOUNT_ATTRIBUTE)?.trim().toLowerCase();
  return (ELEMENT_TAGS as readonly (string | undefined)[]).includes(name) ? (name as ElementTag) : undefined;
}

/** The first page a server printed inside a mount (src/proxy/render/), when it holds one. */
export function printedFirstPage(mount: Element): Element | null {
  return mount.querySelector(`:scope > [${FIRST_PAGE_ATTRIBUTE}]`);
}
