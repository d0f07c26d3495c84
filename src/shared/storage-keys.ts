/**
 * The prefix of every key this package writes to localStorage or sessionStorage (`…user`, `…state:`,
 * `…coupon:`, `…claim-key:`), so a page (and a sign-out) can tell ours apart from everything else its
 * origin stores. A plain string constant on purpose: the bundler inlines it where it is used, so
 * sharing it adds no file to any page's load.
 */
export const STORAGE_PREFIX = 'loyalty-widgets:';
