import { parseUrl } from './url.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Returns the URL as a string when it is safe to put in `src` or `href`: `https:` anywhere, `http:`
 * only for a local address (the sandbox). Anything else (`javascript:`, `data:`, relative paths,
 * garbage) gives `undefined`, so the caller drops it. Data from the network is never trusted.
 */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  const url = parseUrl(value, ['https:', 'http:']);
  if (url?.protocol === 'https:') return url.href;
  if (url && (LOCAL_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost'))) return url.href;
  return undefined;
}
