/**
 * The one error every Marketing call rejects with (besides an `AbortError` when the caller aborted).
 * `code` is the proxy's error code (`rate_limited`, `not_found`, …), or one of ours:
 * `network` (no response at all), `invalid_response` (a response we cannot trust or read).
 */
export class MarketingError extends Error {
  override readonly name = 'MarketingError';

  constructor(
    readonly code: string,
    /** HTTP status, or 0 when no response arrived. */
    readonly status: number,
    message: string,
    /** Seconds to wait before trying again (from `Retry-After`), when the server said so. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** Codes for statuses whose error body we could not read (a proxy's own body is preferred). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  502: 'bad_gateway',
  504: 'gateway_timeout',
};

export function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'server_error' : 'http_error');
}

/** `Retry-After` as seconds: either a number of seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date names its day and month; anything else ("-5", "1.5") is not one, whatever Date.parse thinks.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Whether the proxy reached the Marketing API but it timed out or failed (`upstream_timeout`,
 * `upstream_error`, `upstream_unavailable`): for a coupon request, the proxy has then recorded that a
 * coupon may or may not exist.
 */
export function isUpstreamFailure(error: unknown): boolean {
  return (
    error instanceof MarketingError &&
    ['upstream_timeout', 'upstream_error', 'upstream_unavailable'].includes(error.code)
  );
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
