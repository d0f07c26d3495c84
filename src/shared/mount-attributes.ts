/** The attributes of mounts, with no DOM types: the proxy's server renderer (src/proxy/render/) prints them too. */

/**
 * The attribute that marks a mount, the sanitizer-proof form of an element a CMS editor writes
 * (`<div data-loyalty-widget="campaign-carousel" data-limit="6">`, see src/mounts.ts); its value is the tag.
 */
export const MOUNT_ATTRIBUTE = 'data-loyalty-widget';

/**
 * The attribute of the block a server prints inside a mount with the widget's first page in it, and
 * the proxy's answer that page came from (src/proxy/render/).
 */
export const FIRST_PAGE_ATTRIBUTE = 'data-loyalty-first-page';
