import type { Exchange, Stage } from './compose.ts';
import type { OperationCall } from './request.ts';

/** What answers a read call: the exchange, its call and the client's address. */
export type CallHandler = (exchange: Exchange, call: OperationCall, address: string) => Promise<Response>;

/** The last stage: a query goes to the query stage, a mutation (a coupon claim) to the claim stage. */
export function route(query: CallHandler, claim: CallHandler): Stage {
  return async (exchange, next) => {
    const { call, address } = exchange;
    if (!call || address === undefined) return next();
    return (call.operation.kind === 'query' ? query : claim)(exchange, call, address);
  };
}
