/**
 * The stage that turns a failure below it into the browser's JSON error answer, and notes it in the
 * access log. An unexpected failure is a 500 whose message says nothing of its cause; the log says
 * what it was, without the API key.
 */
import { errorResponse, ProxyError } from '../shared/errors.ts';
import { UPSTREAM_KEY_REFUSED } from '../upstream/errors.ts';
import type { ProxyLog } from './log.ts';
import type { Stage } from './compose.ts';

export function answerErrors(log: ProxyLog): Stage {
  return async (exchange, next) => {
    const { entry } = exchange;
    try {
      return await next();
    } catch (error) {
      const known =
        error instanceof ProxyError
          ? error
          : new ProxyError(500, 'internal_error', 'The Marketing proxy failed to handle the request.');
      if (!(error instanceof ProxyError))
        entry.detail = log.scrub(error instanceof Error ? error.message : String(error));
      else log.noteCause(entry, error);
      entry.error = known.code;
      if (known.code === UPSTREAM_KEY_REFUSED) {
        // Not the shopper's problem: the merchant's configuration. Said once more, as a problem to fix.
        log.event('CONFIG', {
          status: known.status,
          error: known.code,
          detail: 'The Marketing API refused MARKETING_API_KEY: fix the proxy configuration.',
        });
      }
      // The CORS headers the stage below read, if it got that far.
      return errorResponse(known, exchange.cors);
    }
  };
}
