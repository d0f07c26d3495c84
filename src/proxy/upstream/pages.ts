/**
 * Full pages from sparse ones. An AppSync-style upstream applies `limit` before `filter`: a page of
 * one business account's campaigns may come back with 1 item, or none, and a nextToken. The proxy
 * keeps reading (within DEFAULT_PAGE_FILL) until it has the page the browser asked for, and hands
 * back one position to resume from: the upstream page it stopped in and how many of that page's
 * items it already served, so no item is lost or repeated across pages.
 */
import type { PagePosition } from './cursor.ts';

export interface PageFillLimits {
  /** Upstream calls one browser request may cause. */
  maxUpstreamCalls: number;
  /** No further upstream call starts after this many ms; what was found is served. */
  maxMillis: number;
  /** The largest `limit` asked of the upstream when pages come back sparse. */
  maxUpstreamLimit: number;
}

/**
 * 5 calls and 3 s per request: a shopper waits at most a few round trips for a page, and a list
 * that is nearly all other records still ends (with fewer items and a cursor). 100 is the page
 * size Amplify-generated resolvers use by default.
 */
export const DEFAULT_PAGE_FILL: PageFillLimits = { maxUpstreamCalls: 5, maxMillis: 3000, maxUpstreamLimit: 100 };

/** The limits with a host's overrides, checked: each a positive whole number (time may be 0). */
export function resolvePageFill(overrides: Partial<PageFillLimits> = {}): PageFillLimits {
  const limits = { ...DEFAULT_PAGE_FILL, ...overrides };
  const whole = (value: number, min: number) => Number.isSafeInteger(value) && value >= min;
  if (!whole(limits.maxUpstreamCalls, 1) || !whole(limits.maxUpstreamLimit, 1) || !(limits.maxMillis >= 0)) {
    throw new TypeError(
      'createMarketingProxy: pageFill needs maxUpstreamCalls and maxUpstreamLimit ≥ 1 and maxMillis ≥ 0.',
    );
  }
  return limits;
}

/** Asking for a quarter more rows than the density so far predicts makes one more call less likely. */
const HEADROOM = 1.25;

export interface UpstreamPage {
  items: readonly unknown[];
  nextToken: string | null;
}

export interface FilledPage<T> {
  items: T[];
  /** Where the next page starts, or null at the end of the list. */
  next: PagePosition | null;
  upstreamCalls: number;
  dropped: number;
  partial: boolean;
}

export interface PageFillRequest<T> {
  /** Items wanted. */
  target: number;
  start: PagePosition;
  limits: PageFillLimits;
  /** Reads one upstream page; `partial` when errors came with it. */
  readPage: (token: string | null, limit: number) => Promise<{ page: UpstreamPage; partial: boolean }>;
  /** The usable item, or undefined to drop it. */
  usable: (item: unknown) => T | undefined;
  now?: () => number;
}

/** The `limit` for the next upstream read, from the density of usable items seen so far. */
function nextLimit(
  target: number,
  remaining: number,
  rowsAsked: number,
  found: number,
  limits: PageFillLimits,
): number {
  const wanted = remaining > 0 ? remaining : target;
  const estimate = found === 0 ? limits.maxUpstreamLimit : Math.ceil((wanted * rowsAsked * HEADROOM) / found);
  return Math.min(limits.maxUpstreamLimit, Math.max(target, estimate));
}

export async function fillPage<T>(request: PageFillRequest<T>): Promise<FilledPage<T>> {
  const { target, limits, readPage, usable } = request;
  const now = request.now ?? Date.now;
  const startedAt = now();
  const result: FilledPage<T> = { items: [], next: null, upstreamCalls: 0, dropped: 0, partial: false };
  let position = request.start;
  let rowsAsked = 0;
  let found = 0;
  for (;;) {
    let page: UpstreamPage;
    result.upstreamCalls += 1;
    try {
      const read = await readPage(position.token, position.limit);
      page = read.page;
      result.partial ||= read.partial;
    } catch (error) {
      // A later read failing must not lose what was found: serve it, and resume at the failed read.
      if (result.items.length === 0) throw error;
      result.next = position;
      return result;
    }
    rowsAsked += position.limit;
    const fresh = page.items.slice(position.skip).map(usable);
    found += fresh.filter((item) => item !== undefined).length;
    for (const [index, item] of fresh.entries()) {
      if (item === undefined) {
        result.dropped += 1;
        continue;
      }
      if (result.items.length === target) {
        // Full, and this page has more usable items: resume right at this one (unusable ones passed
        // on the way were counted; when none follows, the next page is where to resume).
        result.next = { token: position.token, limit: position.limit, skip: position.skip + index };
        return result;
      }
      result.items.push(item);
    }
    if (page.nextToken === null) return result;
    position = {
      token: page.nextToken,
      limit: nextLimit(target, target - result.items.length, rowsAsked, found, limits),
      skip: 0,
    };
    const outOfBudget = result.upstreamCalls >= limits.maxUpstreamCalls || now() - startedAt >= limits.maxMillis;
    if (result.items.length === target || outOfBudget) {
      result.next = position;
      return result;
    }
  }
}
