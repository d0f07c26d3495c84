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
 * The attribute that marks a mount, the sanitizer-proof form of an element a CMS editor writes
 * (`<div data-loyalty-widget="campaign-carousel" data-limit="6">`, see src/mounts.ts); its value is the tag.
 */
export const MOUNT_ATTRIBUTE = 'data-loyalty-widget';

/** The tag a mount names (any case, spaces around it ignored); undefined when it names none of ours. */
export function mountedTag(mount: Element): ElementTag | undefined {
  const name = mount.getAttribute(MOUNT_ATTRIBUTE)?.trim().toLowerCase();
  return (ELEMENT_TAGS as readonly (string | undefined)[]).includes(name) ? (name as ElementTag) : undefined;
}
