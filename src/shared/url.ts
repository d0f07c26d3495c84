/**
 * URL checks shared by the browser code, the proxy and the sandbox. Each caller keeps its own error
 * message: these only answer "is it a URL of the kind I accept".
 */

/** The protocols of a web address. */
export const HTTP_PROTOCOLS: readonly string[] = ['http:', 'https:'];

/**
 * `value` parsed as a URL (relative to `base` when given) whose protocol is one of `protocols`, such
 * as `['https:']` or `HTTP_PROTOCOLS`; `undefined` when it does not parse or has another protocol.
 *
 * @example
 * const url = parseUrl(options.connectUrl, HTTP_PROTOCOLS);
 * if (!url) throw new TypeError('"connectUrl" must be an http(s) URL.');
 */
export function parseUrl(value: string, protocols: readonly string[], base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  return protocols.includes(url.protocol) ? url : undefined;
}

/** The address without one trailing `/`, so a path can be appended: `${withoutTrailingSlash(base)}/me`. */
export function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
