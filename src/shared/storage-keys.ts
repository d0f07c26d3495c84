/**
 * Every key this package writes to localStorage or sessionStorage starts with one prefix, so a page
 * (and a sign-out) can tell ours apart from everything else stored under its origin.
 */
export const STORAGE_PREFIX = 'loyalty-widgets:';

/** Our storage key for `name`: `storageKey('user')` is `loyalty-widgets:user`. */
export function storageKey(name: string): string {
  return `${STORAGE_PREFIX}${name}`;
}
