/**
 * The proxy as stages: a request goes down through them in order, each either answering it or passing
 * it on with `next()`, and its answer comes back up through the ones above.
 */
import type { RuntimeContext } from '../hosts/runtime.ts';
import type { AccessLogEntry } from './access-log.ts';
import type { OperationCall } from './request.ts';

/** One request on its way down: what the stages above have learnt about it. */
export interface Exchange {
  readonly request: Request;
  /** What the runtime passed beside the request (see RuntimeContext). */
  readonly context: RuntimeContext;
  /** The request's access-log line: stages fill it in, the access log writes it once answered. */
  readonly entry: AccessLogEntry;
  /** The CORS headers every answer to this request carries, once the CORS stage has read them. */
  cors: Record<string, string>;
  /** The browser's call, once read. */
  call?: OperationCall;
  /** The client's address as rate limits count it, once the call is read. */
  address?: string;
}

/** One stage: answers the exchange, or passes it on with `next` and may adjust what comes back up. */
export type Stage = (exchange: Exchange, next: () => Promise<Response>) => Promise<Response>;

/** The stages as one handler: the first gets the exchange, each `next` calls the one below. */
export function compose(stages: readonly Stage[]): (exchange: Exchange) => Promise<Response> {
  const run = async (index: number, exchange: Exchange): Promise<Response> => {
    const stage = stages[index];
    if (!stage) throw new Error('No stage of the proxy answered the request.');
    return stage(exchange, () => run(index + 1, exchange));
  };
  return (exchange) => run(0, exchange);
}
