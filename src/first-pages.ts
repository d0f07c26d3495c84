/**
 * The first page of data each Marketing element shows, requested by the script tag as soon as it
 * sees the element or a mount of it, in parallel with the element's code (src/marketing/prefetch.ts):
 * the element's own identical request then takes that answer. Only for an element that reads through
 * the merchant's endpoint (the head's `<meta name="loyalty-endpoint">` or the default): an `endpoint`
 * written on the element or its mount is body content, which decides nothing before the element runs.
 */
import { offerAnswer, preloadedRead, prefetchRead } from './marketing/prefetch.ts';
import { resolveEndpoint } from './shared/config.ts';
import { firstRequest, type Attributes } from './shared/first-request.ts';
import { FIRST_PAGE_OVER_HELD_SPACE, printedFirstPage } from './shared/tags.ts';

/**
 * Requests the first page of a `tag` element now, unless its code is already here or it names its own
 * endpoint. A first page the server printed (`printed`, the proxy's answer as text) is handed over
 * instead, whether or not the code is here: no request at all.
 */
function prefetch(tag: string, read: Attributes, printed?: string): string | undefined {
  if (read('endpoint')?.trim()) return undefined;
  const request = firstRequest(tag, read);
  if (!request) return undefined;
  if (printed !== undefined) offerAnswer(resolveEndpoint(undefined), ...request, printed);
  else if (!customElements.get(tag)) return prefetchRead(resolveEndpoint(undefined), ...request);
  return undefined;
}

/**
 * Requests an element's first page now (see `prefetch`). A carousel's or a coupon's that the head
 * preloaded is printed inside the element at once (src/first-page.ts, dist/first-page.js, which the
 * page may load itself ahead of this script), a round trip before the element's code arrives. Nothing
 * is lost when it cannot be: the element shows its first page as it would have.
 */
export function prefetchFirstPage(element: Element): void {
  const key = prefetch(element.localName, (name) => element.getAttribute(name));
  if (key && (FIRST_PAGE_OVER_HELD_SPACE as readonly string[]).includes(element.localName) && preloadedRead(key))
    import('./first-page.ts').then(({ printPreloaded }) => printPreloaded(element)).catch(() => undefined);
}

/**
 * Requests the first page of the `tag` element a mount becomes, from the `data-` attributes it will be
 * given (src/mounts.ts): `data-limit` is its `limit`. A mount the server printed with its first page
 * inside (src/proxy/render/) holds the answer that page came from, which its element takes instead.
 * Returns whether the mount holds a printed first page (its element's code then loads once the page
 * shows it, src/mounts.ts).
 */
export function prefetchMountFirstPage(mount: Element, tag: string): boolean {
  const printed = printedFirstPage(mount);
  const answer = printed?.querySelector(':scope > script[type="application/json"]');
  prefetch(tag, (name) => mount.getAttribute(`data-${name}`), answer?.textContent ?? undefined);
  return !!printed;
}
