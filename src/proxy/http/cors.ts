/**
 * Who may call the proxy from a browser: its own origin always (no configuration), other origins only
 * when listed exactly. A request from any other origin is refused with 403 and no CORS headers, so the
 * browser shows the calling page nothing. Requests without `Origin` are not from a cross-origin page.
 * Not `hono/cors`, which answers every origin and only leaves the headers out: see compose.ts.
 */
import { HTTP_PROTOCOLS, parseUrl } from '../../shared/url.ts';
import { PROXY_MARKER, ProxyError } from '../shared/errors.ts';
import type { Stage } from './compose.ts';

export const ALLOWED_REQUEST_HEADERS = 'content-type, authorization, x-loyalty-id-token, idempotency-key';
export const ALLOWED_METHODS = 'GET, POST, OPTIONS';
export const EXPOSED_RESPONSE_HEADERS = 'retry-after, x-cache, idempotent-replayed, loyalty-proxy';
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Normalizes configured origins; throws on anything that is not a bare `scheme://host[:port]`. */
export function normalizeOrigins(origins: readonly string[]): Set<string> {
  const normalized = new Set<string>();
  for (const origin of origins) {
    const url = parseUrl(origin, HTTP_PROTOCOLS);
    if (!url || url.pathname !== '/' || url.search || url.hash || url.username) {
      throw new TypeError(
        `createMarketingProxy: allowed origin "${origin}" must look like https://shop.example (scheme, host, optional port).`,
      );
    }
    normalized.add(url.origin);
  }
  return normalized;
}

function firstValue(header: string | null): string | undefined {
  const value = header?.split(',', 1)[0]?.trim();
  return value || undefined;
}

/** The origin the request was addressed to; forwarded headers count only behind a trusted proxy. */
export function ownOrigin(request: Request, trustProxy: boolean): string {
  const url = new URL(request.url);
  if (trustProxy) {
    const host = firstValue(request.headers.get('x-forwarded-host'));
    const proto = firstValue(request.headers.get('x-forwarded-proto'));
    if (host || proto) {
      try {
        return new URL(`${proto ?? url.protocol.slice(0, -1)}://${host ?? url.host}`).origin;
      } catch {
        return url.origin;
      }
    }
  }
  return url.origin;
}

/**
 * The CORS headers for the request's responses (empty for same-origin and origin-less requests);
 * throws 403 `origin_not_allowed` for any other origin.
 */
export function corsHeadersFor(
  request: Request,
  allowed: ReadonlySet<string>,
  trustProxy: boolean,
): Record<string, string> {
  // With listed origins the answer depends on Origin, which any cache in between must know.
  const plain: Record<string, string> = allowed.size > 0 ? { vary: 'Origin' } : {};
  const origin = request.headers.get('origin');
  if (origin === null) return plain;
  if (allowed.has(origin)) {
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': EXPOSED_RESPONSE_HEADERS,
      vary: 'Origin',
    };
  }
  if (origin === ownOrigin(request, trustProxy)) return plain;
  throw new ProxyError(403, 'origin_not_allowed', 'This origin may not call the Marketing proxy.');
}

export function preflightResponse(cors: Record<string, string>): Response {
  const headers: Record<string, string> = {
    allow: ALLOWED_METHODS,
    'cache-control': 'no-store',
    ...PROXY_MARKER,
    ...cors,
  };
  if (cors['access-control-allow-origin']) {
    headers['access-control-allow-methods'] = 'GET, POST';
    headers['access-control-allow-headers'] = ALLOWED_REQUEST_HEADERS;
    headers['access-control-max-age'] = String(PREFLIGHT_MAX_AGE_SECONDS);
  }
  return new Response(null, { status: 204, headers });
}

/** The CORS stage: reads the headers every answer carries, and answers a preflight itself. */
export function corsStage(allowedOrigins: ReadonlySet<string>, trustProxy: boolean): Stage {
  return async (exchange, next) => {
    exchange.cors = corsHeadersFor(exchange.request, allowedOrigins, trustProxy);
    return exchange.request.method === 'OPTIONS' ? preflightResponse(exchange.cors) : next();
  };
}
