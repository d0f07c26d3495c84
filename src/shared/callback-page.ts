/**
 * The shipped callback page (`callback.html`) where the page's own origin serves it: the built
 * script tag, loaded from this site, records the one beside it. A sign-in button with no
 * `redirect-uri` and no `<meta name="loyalty-redirect-uri">` comes back there, a page where no other
 * script runs, rather than to the current page, where every script of the page could read the tokens.
 * What the script tag found is kept on the page, so that every copy of this module reads it (the
 * script tag loaded under two addresses, src/shared/page-registry.ts).
 */
import { pageRegistry } from './page-registry.ts';

/**
 * Whether `url` is the shipped script tag's own file, `loyalty-widgets.js` served over HTTP, with the
 * files it names beside it: not a merchant's bundle that took it in, whose file has another name.
 */
export function isShippedScript(url: URL): boolean {
  return /^https?:$/.test(url.protocol) && url.pathname.endsWith('/loyalty-widgets.js');
}

/**
 * Records `callback.html` beside the script at `scriptUrl` as the default redirect URI when that
 * script is the shipped `loyalty-widgets.js`, loaded by one of the page's `<script src>` elements
 * (`scriptSources`) from the page's own origin: a sign-in can come back only to this site, and a
 * merchant's bundler that took the script into its own files has no callback page beside them. Any
 * other way (a CDN, a bundle) records none, and the current page stays the default.
 */
export function recordShippedCallbackPage(
  scriptUrl: string,
  pageOrigin: string,
  scriptSources: readonly string[],
): void {
  const script = new URL(scriptUrl);
  const page = new URL('./callback.html', script);
  const shippedScriptTag = isShippedScript(script) && scriptSources.includes(scriptUrl);
  pageRegistry().callbackPage =
    shippedScriptTag && page.origin === pageOrigin ? `${page.origin}${page.pathname}` : undefined;
}

/** The shipped callback page of this site, when the script tag found one; else undefined. */
export function shippedCallbackPage(): string | undefined {
  return pageRegistry().callbackPage;
}
