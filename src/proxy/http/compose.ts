/**
 * The proxy as stages: a request goes down through them in order, each either answering it or passing
 * it on with `next()`, and its answer comes back up through the ones above.
 *
 * This is what `hono/compose` does, written here on purpose: `loyalty-widgets/proxy` is a plain Fetch
 * handler that Workers, Deno, Bun and Next.js load with no dependency installed (Hono is an optional
 * peer, for the Node adapter only), and these dozen lines cost less than that promise would. The CORS
 * stage (cors.ts) and the body limit (request.ts) stay ours for the same reason, because each does more
 * than Hono's (an unlisted origin refused with 403; a body that must arrive within the timeout), and
 * because their rules are the WordPress plugin's too, read from the contract generated from these files.
 */
import type { AccessLogEntry } from './access-log.ts';
import type { RuntimeContext } from './runtime-context.ts';
import type { OperationCall } from '../upstream/operations.ts';

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

/** An exchange whose call has been read: what the query and claim paths start from. */
export interface CallExchange extends Exchange {
  readonly call: OperationCall;
  readonly address: string;
}

/** One stage: answers the exchange, or passes it on with `next` and may adjust what comes back up. */
export type Stage<E extends Exchange = Exchange> = (exchange: E, next: () => Promise<Response>) => Promise<Response>;

/** The stages as one handler: the first gets the exchange, each `next` calls the one below. */
export function compose<E extends Exchange>(stages: readonly Stage<E>[]): (exchange: E) => Promise<Response> {
  const run = async (index: number, exchange: E): Promise<Response> => {
    const stage = stages[index];
    if (!stage) throw new Error('No stage of the proxy answered the request.');
    return stage(exchange, () => run(index + 1, exchange));
  };
  return (exchange) => run(0, exchange);
}
