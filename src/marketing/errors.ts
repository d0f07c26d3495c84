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

/**
 * Whether a call was rejected because its `signal` aborted (not a `MarketingError`).
 *
 * @example
 * ```ts
 * import { clientFor, isAbortError } from 'loyalty-widgets/marketing';
 *
 * const controller = new AbortController();
 * clientFor('/api/marketing')
 *   .campaigns({}, { signal: controller.signal })
 *   .catch((error: unknown) => {
 *     if (!isAbortError(error)) throw error;
 *   });
 * controller.abort();
 * ```
 */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
