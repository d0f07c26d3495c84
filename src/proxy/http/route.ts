import type { CallExchange, Exchange, Stage } from './compose.ts';

/** What answers a call once read: the query path or the claim path, each ending in its own answer. */
export type CallHandler = (exchange: CallExchange) => Promise<Response>;

/** The last stage: a query goes to the query path, a mutation (a coupon claim) to the claim path. */
export function route(query: CallHandler, claim: CallHandler): Stage<Exchange> {
  return async (exchange, next) => {
    const { call, address } = exchange;
    if (!call || address === undefined) return next();
    return (call.operation.kind === 'query' ? query : claim)({ ...exchange, call, address });
  };
}
