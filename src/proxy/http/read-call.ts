import type { RuntimeContext } from './runtime-context.ts';
import { ProxyError } from '../shared/errors.ts';
import type { PersistedOperation } from '../upstream/operations.ts';
import type { Stage } from './compose.ts';
import { ALLOWED_METHODS } from './cors.ts';
import { readOperationCall } from './request.ts';

/** The stage that reads the browser's call (a POST, or a GET read), and the address it comes from. */
export function readCall(
  operations: Record<string, PersistedOperation>,
  timeoutMs: number,
  addressOf: (request: Request, context: RuntimeContext) => string,
): Stage {
  return async (exchange, next) => {
    const { method } = exchange.request;
    if (method !== 'POST' && method !== 'GET') {
      throw new ProxyError(405, 'method_not_allowed', 'Use POST with a JSON body, or GET for a read.', {
        allow: ALLOWED_METHODS,
      });
    }
    exchange.call = await readOperationCall(exchange.request, operations, timeoutMs);
    exchange.entry.operation = exchange.call.name;
    exchange.address = addressOf(exchange.request, exchange.context);
    return next();
  };
}
