/** How many campaigns a carousel reads at a time unless its `limit` says otherwise. */
export const CAROUSEL_PAGE_SIZE = 6;
/** How many business accounts a directory reads at a time unless its `limit` says otherwise. */
export const DIRECTORY_PAGE_SIZE = 12;

/** Whether a `limit` is a page size the proxy accepts: a whole number from 1 to 50. */
export function isPageSize(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 50;
}

/** The page size a `limit` attribute's value gives, as the element reads it (lit's Number converter). */
export function pageSizeAttribute(written: string | null, fallback: number): number {
  const value = written === null ? fallback : Number(written);
  return isPageSize(value) ? value : fallback;
}
